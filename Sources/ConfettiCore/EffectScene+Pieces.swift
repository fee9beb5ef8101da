// Each piece as it is born: its cell's configuration drawn from the firing's random stream, its
// place around the emitter, its tint; and the bench's sampling of an effect's pieces.

import FoundationEssentials
import Glibc

extension EffectScene {
  /// `count` particles drawn from every cell of every emitter and every sub-cell in turn (going
  /// on where the last call stopped), each around its emitter's configured position: the
  /// bench's way to load a scene with an effect's particles.
  package mutating func sample(count: Int, window: Size) -> [ConfettiParticle] {
    // Every cell of every emitter, then every sub-cell (born where its first emitter sits).
    let cells: [(Int?, CellKey)] =
      config.emitters.indices.flatMap { e in
        config.emitters[e].cells.indices.map { (e, CellKey.emitter(e, $0)) }
      } + config.subCells.indices.map { (nil, CellKey.sub($0)) }
    defer { sampled += count }
    return (0..<count).map { k in
      let (e, key) = cells[(sampled + k) % cells.count]
      return particle(
        emitter: e, cell: key, origin: config.emitters[e ?? 0].origin(in: window),
        window: window, fadeAt: .infinity)
    }
  }

  /// A cell of an emitter, or a sub-cell.
  enum CellKey {
    case emitter(Int, Int)
    case sub(Int)
  }

  func cell(_ key: CellKey) -> CellConfig {
    switch key {
    case .emitter(let e, let c): config.emitters[e].cells[c]
    case .sub(let i): config.subCells[i]
    }
  }

  /// The table entry and the shapes of `key`'s pieces.
  func setup(_ key: CellKey) -> CellSetup {
    switch key {
    case .emitter(let e, let c): emitterCells[e][c]
    case .sub(let i): subCellSetups[i]
    }
  }

  /// A piece of `key`, born around `origin` (exactly at it for a sub-cell's, `emitter` nil: no
  /// emitter shape, wind or floor), with `inherited` added to its velocity.
  mutating func particle(
    emitter e: Int?, cell key: CellKey, origin: Point, window: Size, fadeAt: Seconds,
    inherited: SIMD2<Double> = .zero
  ) -> ConfettiParticle {
    let emitter = e.map { config.emitters[$0] } ?? EmitterConfig()
    let cell = self.cell(key)
    var p = ConfettiParticle()
    p.origin = place(around: origin, shape: emitter.shape, window: window)
    let unit = cell.speedUnit == .windowHeights ? window.height : 1
    let speed = max(0, cell.speed.sample(using: &random)) * unit
    let direction = cell.direction.sample(using: &random) * .pi / 180
    // Per-axis parts draw nothing from the generator unless they vary, so effects without them
    // keep their random streams.
    let (perX, perY) = cell.velocityUnit == .windowSize ? (window.width, window.height) : (1, 1)
    p.velocityX =
      speed * cos(direction) + cell.kick.x + cell.velocityX.sample(using: &random) * perX
    p.velocityY =
      speed * sin(direction) + cell.kick.y + cell.velocityY.sample(using: &random) * perY
    p.velocityX += inherited.x
    p.velocityY += inherited.y
    p.gravity = cell.gravity * (cell.gravityUnit == .windowHeights ? window.height : 1)
    p.accelerationX = cell.accelerationX
    if cell.gravityRange > 0 {
      p.gravity *= 1 + .random(in: -cell.gravityRange...cell.gravityRange, using: &random)
    }
    (p.dragX, p.dragY) = (cell.drag.x, cell.drag.y)
    if cell.dragRange > 0 {
      // (Drawn only where it varies: effects without it keep their random streams.)
      let share = Double.random(in: -cell.dragRange...cell.dragRange, using: &random)
      (p.dragX, p.dragY) = (p.dragX * (1 + share), p.dragY * (1 + share))
    }
    p.lifetime = min(
      ParticleRecord.maximumLifetime, max(0.01, cell.lifetime.sample(using: &random)))
    // A fade longer than the life spans all of it: opacity = the share of life left.
    p.fade = min(cell.fade, p.lifetime)
    let scale = max(0, cell.scale.sample(using: &random))
    let size = cell.sizes.randomElement(using: &random)!
    p.size = Size(width: size.width * scale, height: size.height * scale)
    p.color = tinted(cell.colors.randomElement(using: &random)!, range: cell.colorRange)
    p.shape = setup(key).shapes.randomElement(using: &random)!
    p.rotation = cell.rotation.sample(using: &random)
    p.spin = cell.spin.sample(using: &random)
    p.flutterAmplitude = cell.flutterAmplitude.sample(using: &random)
    p.flutterFrequency = cell.flutterFrequency.sample(using: &random)
    p.flutterPhase = .random(in: 0...(2 * .pi), using: &random)
    if cell.flutterFromBirth {
      // With the sway's values as the record keeps them, so that it is zero at birth exactly.
      let (sway, phase) = (Float16(p.flutterAmplitude), Float16(p.flutterPhase))
      p.origin.x -= Double(sway) * sin(Double(phase))
    }
    p.flips = cell.flips
    // A piece that does not tumble twinkles with its tumble's wave.
    let twinkles = cell.twinkle > 0 && !cell.flips
    p.flipFrequency = (twinkles ? cell.twinkleFrequency : cell.flipFrequency).sample(using: &random)
    p.flipPhase = .random(in: 0...(2 * .pi), using: &random)
    p.darkensBack = cell.darkensBack
    p.spread = cell.spread.sample(using: &random)
    p.scaleSpeed = cell.scaleSpeed
    p.shrinksWithLife = cell.shrinksWithLife
    p.trail = UInt8(cell.trail)
    p.emitter = setup(key).style
    p.emitterFadeAt = fadeAt
    if cell.diesAtApex, let apex = p.packed.apexTime { p.endLife(by: max(0.01, apex)) }
    if let floor = emitter.floor {
      // Solved from the values the record keeps, so that the piece touches the floor exactly;
      // its life then ends its rest and fade after landing (no later than it would have). A
      // piece that shrinks with life shrinks at a new pace with the new life, so its landing
      // is solved once more with the life it will have.
      let (base, style) = (floor.line(in: window), table[p.emitter])
      // A band: its own line within it, which it comes down to (born above the floor). One
      // that never rises wholly above its line (a slow piece from a cannon at the bottom edge)
      // comes down to the floor's own edge instead of falling through the band unseen.
      var line = floor.depth > 0 ? base - .random(in: 0...floor.depth, using: &random) : base
      var landing = p.packed.landingTime(onto: line, bornAbove: base, style: style)
      if !landing.isFinite, line < base {
        line = base
        landing = p.packed.landingTime(onto: line, bornAbove: base, style: style)
      }
      if landing.isFinite {
        p.endLife(by: landing + floor.restTime + p.fade)
        p.landing =
          p.shrinksWithLife
          ? p.packed.landingTime(onto: line, bornAbove: base, style: style) : landing
      }
    }
    return reduceMotion ? p.reducedMotion(style: table[p.emitter]) : p
  }

  mutating func place(around origin: Point, shape: EmitterShape, window: Size) -> Point {
    switch shape {
    case .point:
      return origin
    case .line(let length):
      let half = length * window.width / 2
      return Point(x: origin.x + .random(in: -half...half, using: &random), y: origin.y)
    case .rectangle(let width, let height):
      let (halfWidth, halfHeight) = (width * window.width / 2, height * window.height / 2)
      return Point(
        x: origin.x + .random(in: -halfWidth...halfWidth, using: &random),
        y: origin.y + .random(in: -halfHeight...halfHeight, using: &random))
    case .circle(let radius):
      // Uniform over the disc: the radius goes as the square root of a uniform draw.
      let r =
        radius * min(window.width, window.height)
        * Double.random(in: 0...1, using: &random).squareRoot()
      let angle = Double.random(in: 0..<(2 * .pi), using: &random)
      return Point(x: origin.x + r * cos(angle), y: origin.y + r * sin(angle))
    }
  }

  mutating func tinted(_ color: RGBA8, range: SIMD4<Double>) -> RGBA8 {
    guard range != .zero else { return color }
    let base = [color.red, color.green, color.blue, color.alpha]
    let channels = (0..<4).map { i in
      let value = Double(base[i]) / 255 + range[i] * Double.random(in: -1...1, using: &random)
      return UInt8((min(1, max(0, value)) * 255).rounded())
    }
    return RGBA8(red: channels[0], green: channels[1], blue: channels[2], alpha: channels[3])
  }
}
