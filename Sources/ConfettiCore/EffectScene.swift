import Foundation

/// An ``EffectConfig`` running: its emitters decide births on the CPU when they happen and write
/// each particle once into the ring; the GPU does the rest.
///
/// Emission follows a clock of its own that advances at most ``longestStep`` per
/// ``advance(to:window:)``: after a stall (a minimised window, a debugger, a slow frame) the
/// missed time is dropped, not made up in a flood. Births per call are bounded too.
///
/// What an emitter makes does not depend on the steps the scene is advanced in: its births are
/// decided on a grid of its own time (``emissionStep``), and each firing draws from a random
/// stream of its own. So a window drawing at any frame rate and `confetti render` stepping at
/// 60 Hz show the same pieces at the same moment of an effect fired the same way.
public struct EffectScene: Sendable {
  public let config: EffectConfig
  public var ring: ParticleRing
  /// One entry per cell: wind, colour ramp, fade-out and trail spacing.
  public private(set) var table = CellTable()
  /// The polygons and images the cells use.
  public private(set) var shapes = ShapeTable()
  /// Replace movement with a short, gentle fade in place (see ``ConfettiParticle/reducedMotion(style:)``).
  public var reduceMotion: Bool
  private var random: SplitMix64
  /// The scene's seed, from which each firing's own stream is derived.
  private let seed: UInt64
  /// How many emitters have been fired: the next firing's stream.
  private var firings: UInt64 = 0
  /// Per emitter, per cell: its table entry and its shapes.
  private var emitterCells: [[CellSetup]] = []
  /// The same for each sub-cell.
  private var subCellSetups: [CellSetup] = []
  private var running: [RunningEmitter] = []
  /// How many particles ``sample(count:window:)`` has drawn: where its turn goes on.
  private var sampled = 0
  /// The sub-cell pieces the current trigger or advance may still write.
  private var subCellBudget = 0
  /// Pieces owed but not made: beyond ``maximumBirthsPerStep`` in one advance, or a burst's
  /// beyond what the ring holds.
  private var unmade = 0
  /// The latest clock reading the scene was advanced to (−infinity before the first).
  public private(set) var latest: Seconds = -.infinity
  /// How long after the latest reading particles that have ended are kept, in seconds, so that
  /// a clock run backwards draws them again. Default 0: freed as they end.
  public var history: Seconds = 0

  /// The most emitters emitting at once. Starting another stops the oldest one a click or a key
  /// started; the effect's own start emitters are stopped only when nothing else is left.
  public static let maximumRunning = 64
  /// The most emission time one call to ``advance(to:window:)`` covers; the rest is dropped. A
  /// second: a window's slow first frames (shaders compiling) lose nothing, and a window left
  /// minimised for an hour makes up one second, not an hour.
  public static let longestStep: Seconds = 1
  /// The most particles born in one call to ``advance(to:window:)``.
  public static let maximumBirthsPerStep = 20_000

  /// How many pieces the effect promised but does not show: those a full ring let go of before
  /// their end (its capacity is too small for the effect; see ``ParticleRing/displaced``), those
  /// of a burst beyond the ring's capacity (never made), and those owed beyond
  /// ``maximumBirthsPerStep``. 0 when everything promised is drawn. Time a
  /// stall drops (``longestStep``) is not counted: nothing is owed for it.
  public var dropped: Int { ring.displaced + unmade }

  public init(config: EffectConfig, capacity: Int, seed: UInt64, reduceMotion: Bool = false)
    throws(ConfigError)
  {
    self.config = config
    ring = ParticleRing(capacity: capacity)
    random = SplitMix64(seed: seed)
    self.seed = seed
    self.reduceMotion = reduceMotion
    for (e, emitter) in config.emitters.enumerated() {
      var setups: [CellSetup] = []
      for (c, cell) in emitter.cells.enumerated() {
        setups.append(try setUp(cell, of: emitter, at: "$.emitters[\(e)].cells[\(c)]"))
      }
      emitterCells.append(setups)
    }
    // A sub-cell's pieces share no emitter: no wind, no fade-out with one.
    for (i, cell) in config.subCells.enumerated() {
      subCellSetups.append(try setUp(cell, of: EmitterConfig(), at: "$.subCells[\(i)]"))
    }
  }

  /// What the scene sets up for one cell: its entry in the cell table, and the shapes its
  /// pieces draw from.
  private struct CellSetup: Sendable {
    var style: UInt8
    var shapes: [ParticleShape]
  }

  /// Gives `cell` of `emitter` the next entry of the cell table and adds its polygons and
  /// images to the shape table; `path` names it in errors.
  private mutating func setUp(_ cell: CellConfig, of emitter: EmitterConfig, at path: String)
    throws(ConfigError) -> CellSetup
  {
    let style = table.styles.count
    table.set(Self.style(of: cell, in: emitter), at: style)
    return CellSetup(style: UInt8(style), shapes: try shapeList(of: cell, at: path))
  }

  /// What all pieces of `cell` of `emitter` share: its entry in the cell table.
  private static func style(of cell: CellConfig, in emitter: EmitterConfig) -> CellStyle {
    var style = CellStyle()
    style.wind = emitter.wind
    style.gustAmplitude = emitter.gustAmplitude
    style.gustPeriod = emitter.gustPeriod
    style.colorSpeed = cell.colorSpeed
    if case .timed(_, let fadeOut, _) = emitter.emission { style.fadeOut = fadeOut }
    style.trailSpacing = cell.trailSpacing
    style.fadeIn = cell.fadeIn
    style.twinkle = cell.twinkle
    style.additive = cell.blend == .additive
    style.stretch = cell.stretch
    return style
  }

  /// The shapes `cell` draws, its polygons and images added to the scene's table.
  private mutating func shapeList(of cell: CellConfig, at path: String) throws(ConfigError)
    -> [ParticleShape]
  {
    var list: [ParticleShape] = []
    for (s, choice) in cell.shapes.enumerated() {
      do {
        switch choice {
        case .builtIn(let shape): list.append(shape)
        case .polygon(let corners): list.append(try shapes.add(polygon: corners))
        case .image(let path): list.append(try shapes.add(image: path))
        case .text(let text): list.append(try shapes.add(text: text))
        }
      } catch {
        throw ConfigError(path: "\(path).shapes[\(s)]", message: error.description)
      }
    }
    return list
  }

  /// Whether any emitter is still emitting (the window must keep drawing).
  public var isEmitting: Bool { !running.isEmpty }

  /// How many emitters are emitting.
  public var runningCount: Int { running.count }

  /// Whether the effect has emitters with `trigger`.
  public func has(_ trigger: EmitterTrigger) -> Bool {
    config.emitters.contains { $0.trigger == trigger }
  }

  /// The random stream of the next firing: the scene's seed's own for the first (a single
  /// burst draws what it always drew), a stream derived from it for each after.
  private mutating func nextFiringStream() -> SplitMix64 {
    defer { firings += 1 }
    guard firings > 0 else { return SplitMix64(seed: seed) }
    var mixer = SplitMix64(seed: seed ^ (firings &* 0x9E37_79B9_7F4A_7C15))
    return SplitMix64(seed: mixer.next())
  }

  /// Starts every emitter with `trigger` at `time`: a click's at `pointer`, the others (and a
  /// click's where there is no pointer) at their configured position in a window of `window`.
  /// Bursts are born at once; timed and continuous emitters start emitting.
  public mutating func trigger(
    _ trigger: EmitterTrigger, at pointer: Point? = nil, window: Size, time: Seconds
  ) {
    subCellBudget = Self.maximumSubCellBirths
    for (index, emitter) in config.emitters.enumerated() where emitter.trigger == trigger {
      let placed = trigger == .click ? pointer : nil
      let origin = placed ?? emitter.origin(in: window)
      var stream = nextFiringStream()
      if emitter.emission == .burst {
        swap(&random, &stream)
        defer { swap(&random, &stream) }
        for (c, cell) in emitter.cells.enumerated() {
          // No more than the ring can hold are made: a burst of millions costs what can live.
          let made = min(cell.count, ring.capacity)
          unmade += cell.count - made
          let born = (0..<made).map { _ in
            particle(
              emitter: index, cell: .emitter(index, c), origin: origin, window: window,
              fadeAt: .infinity)
          }
          ring.append(born, bornAt: time, table: table)
          startSubCells(of: born, cell: .emitter(index, c), bornAt: time, window: window)
        }
      } else {
        if running.count == Self.maximumRunning {
          let emitters = config.emitters
          running.remove(at: running.firstIndex { emitters[$0.emitter].trigger != .start } ?? 0)
        }
        running.append(
          RunningEmitter(
            emitter: index, pointer: placed, lastTime: time,
            born: Array(repeating: 0, count: emitter.cells.count), random: stream))
        if emitter.prewarm > 0 {
          prewarm(running.count - 1, by: emitter.prewarm, to: time, window: window)
          if isSpent(running[running.count - 1]) { running.removeLast() }
        }
      }
    }
  }

  /// Forgets every particle and stops every emitter, or, `keepingStartEmitters`, only those a
  /// click or a key started: the effect's own start emitters (fire's flames, snow) go on.
  /// Stops every emitter; what was born lives out its life.
  public mutating func stopEmitting() {
    running.removeAll()
  }

  public mutating func removeAll(keepingStartEmitters: Bool = false) {
    running.removeAll { !keepingStartEmitters || config.emitters[$0.emitter].trigger != .start }
    ring.removeAll()
  }

  /// Emits what the running emitters owe up to `time` (at most ``longestStep`` of it each) and
  /// frees the records of particles no longer visible (but those ended within ``history`` of
  /// the latest reading). Emitters placed by the configuration follow `window` (a resized
  /// window moves them); those placed at a click stay at its point. A reading earlier than the
  /// latest emits nothing: emission only moves forward, and what was born after it is already
  /// in the ring, unborn at that reading.
  public mutating func advance(to time: Seconds, window: Size) {
    subCellBudget = Self.maximumSubCellBirths
    latest = max(latest, time)
    var budget = Self.maximumBirthsPerStep
    for index in running.indices { moveClock(index, to: time) }
    makePassedSteps(of: Array(running.indices), window: window, budget: &budget)
    // A timed emitter owes nothing after its emission (half its duration, when it tapers); its
    // particles already carry the moment of its fade-out.
    running.removeAll(where: isSpent)
    ring.reclaim(at: min(time, latest - history))
  }

  /// The earliest clock reading drawn exactly: before it, a particle the ring has let go of
  /// would still be visible, or (an hour back) births would wrap into sight. The latest reading
  /// when the ring has let go of something still visible; −infinity before any reading.
  public var earliestExactReading: Seconds {
    min(latest, max(ring.forgottenUntil, latest - Self.longestRewind))
  }

  /// How far before the latest reading a clock may run back at most: half the tick counter's
  /// wrap, less the longest life, so that a particle born later is still unborn there.
  public static let longestRewind: Seconds =
    Double(UInt32.max / 2) / Tick.perSecond - ParticleRecord.maximumLifetime

  private func isSpent(_ running: RunningEmitter) -> Bool {
    guard case .timed(let duration, _, let taper) = config.emitters[running.emitter].emission
    else { return false }
    return Double(running.steps) * Self.emissionStep >= (taper ? duration / 2 : duration) - 1e-9
  }

  /// Moves running emitter `index`'s own clock on to reading `time`, at most ``longestStep``.
  private mutating func moveClock(_ index: Int, to time: Seconds) {
    let step = min(max(0, time - running[index].lastTime), Self.longestStep)
    running[index].lastTime = max(running[index].lastTime, time)
    running[index].local += step
  }

  /// Makes the births of every grid step (``emissionStep``) that the clocks of running emitters
  /// `indices` have passed, one step at a time in the order of their moments: the same pieces in
  /// the same order, whatever steps the scene was advanced in.
  private mutating func makePassedSteps(of indices: [Int], window: Size, budget: inout Int) {
    while true {
      var next: (index: Int, clock: Seconds)?
      for index in indices where !isSpent(running[index]) {
        let end = Double(running[index].steps + 1) * Self.emissionStep
        guard end <= running[index].local + 1e-9 else { continue }
        let clock = running[index].origin + end
        if clock < next?.clock ?? .infinity { next = (index, clock) }
      }
      guard let (index, clock) = next else { return }
      running[index].steps += 1
      swap(&random, &running[index].random)
      emitStep(
        index, ending: Double(running[index].steps) * Self.emissionStep, at: clock, window: window,
        budget: &budget)
      swap(&random, &running[index].random)
    }
  }

  /// The births of running emitter `index`'s grid step that ends at `end` seconds of its own
  /// time, clock reading `clock`: each cell's due, spread evenly over the step.
  private mutating func emitStep(
    _ index: Int, ending end: Seconds, at clock: Seconds, window: Size, budget: inout Int
  ) {
    let emitter = config.emitters[running[index].emitter]
    for (c, cell) in emitter.cells.enumerated() {
      let due = Int(Self.births(of: cell.birthRate, emission: emitter.emission, by: end))
      let owed = due - running[index].born[c]
      running[index].born[c] = due
      let count = min(owed, budget)
      unmade += max(0, owed - count)
      guard count > 0 else { continue }
      budget -= count
      // Spread evenly over the step, each written with its own birth time.
      let from = end - Self.emissionStep
      for k in 0..<count {
        let local = from + Self.emissionStep * Double(k + 1) / Double(count)
        var fadeAt = Seconds.infinity
        // A fade-out of 0 leaves the particles to live out their own lives.
        if case .timed(let duration, let fadeOut, _) = emitter.emission, fadeOut > 0 {
          fadeAt = duration - local
        }
        let e = running[index].emitter
        let born = particle(
          emitter: e, cell: .emitter(e, c),
          origin: running[index].pointer ?? emitter.origin(in: window), window: window,
          fadeAt: fadeAt)
        ring.append([born], bornAt: clock - (end - local), table: table)
        startSubCells(
          of: [born], cell: .emitter(e, c), bornAt: clock - (end - local), window: window)
      }
    }
  }

  /// Runs a just-started emitter through its prewarm, from `prewarm` seconds before `time` to
  /// `time` in steps of ``prewarmStep``, as a window would have run it.
  private mutating func prewarm(_ index: Int, by prewarm: Seconds, to time: Seconds, window: Size) {
    let start = time - prewarm
    running[index].lastTime = start
    var steps = skippedPrewarmSteps(index, by: prewarm, to: time) + 1
    while running[index].lastTime < time {
      let next = min(time, start + Double(steps) * Self.emissionStep)
      var budget = Self.maximumBirthsPerStep
      moveClock(index, to: next)
      makePassedSteps(of: [index], window: window, budget: &budget)
      steps += 1
    }
  }

  /// How many of a prewarm's first steps would emit only pieces the ring cannot keep: those
  /// whose births are followed by at least a ring's worth more (the oldest make way). They are
  /// passed over (the emitter's clock and counts moved on as if they had run), so that a rate
  /// far beyond the ring costs what the ring holds, not what the prewarm would emit. Where the
  /// whole prewarm fits the ring, none are.
  private mutating func skippedPrewarmSteps(_ index: Int, by prewarm: Seconds, to time: Seconds)
    -> Int
  {
    let emitter = config.emitters[running[index].emitter]
    let local = running[index].local
    let count = Int((prewarm / Self.emissionStep).rounded(.up))
    func due(afterSteps k: Int) -> [Double] {
      let u = local + min(prewarm, Double(k) * Self.emissionStep)
      return emitter.cells.map { Self.births(of: $0.birthRate, emission: emitter.emission, by: u) }
    }
    // From the last step back, what each step appends (at most a step's budget).
    var later = 0
    var after = due(afterSteps: count)
    for k in stride(from: count - 1, through: 0, by: -1) {
      let before = due(afterSteps: k)
      let owed = zip(after, before).map { Int($0) - Int($1) }.reduce(0, +)
      later += min(max(0, owed), Self.maximumBirthsPerStep)
      if later >= ring.capacity {
        guard k > 0 else { return 0 }
        running[index].local = local + Double(k) * Self.emissionStep
        running[index].steps = k
        running[index].lastTime = time - prewarm + Double(k) * Self.emissionStep
        running[index].born = before.map { Int($0) }
        return k
      }
      after = before
    }
    return 0
  }

  /// The grid an emitter's births are decided on, in seconds of its own time, and the steps a
  /// prewarm takes: a frame at 60 Hz.
  public static let emissionStep: Seconds = oneFrame

  /// A ring capacity that holds everything one firing of each of `config`'s emitters has
  /// visible at once, with room to spare: bursts' counts, and each rate times the longest life
  /// (for a timed emitter, no more than it emits in all), each piece with the sub-cells it
  /// starts.
  public static func suggestedCapacity(for config: EffectConfig) -> Int {
    func family(_ cell: CellConfig, generation: Int = 1) -> Double {
      guard generation <= deepestSubCell else { return 1 }
      return cell.starts.reduce(1) { total, name in
        guard let sub = config.subCell(named: name) else { return total }
        let child = config.subCells[sub]
        return total + Double(child.count) * family(child, generation: generation + 1)
      }
    }
    var total = 0.0
    for emitter in config.emitters {
      for cell in emitter.cells {
        let life = cell.lifetime.bounds.upperBound + Double(cell.trail) * cell.trailSpacing
        var pieces: Double
        switch emitter.emission {
        case .burst: pieces = Double(cell.count)
        case .continuous: pieces = cell.birthRate * life
        case .timed(let duration, _, _):
          pieces = min(
            cell.birthRate * life,
            births(of: cell.birthRate, emission: emitter.emission, by: duration))
        }
        total += pieces * family(cell)
      }
    }
    return Int(min(4_000_000, max(1024, (total * 1.25).rounded(.up))))
  }

  /// How many particles an emitter of `rate` per second has owed after `u` seconds of emission:
  /// rate·u; for a timed emission of duration D, rate·min(u, D), or with its taper the integral
  /// of rate·(1 − (u/h)²) with h = D/2, which stops growing at h (rate·D/3 in all).
  public static func births(of rate: PerSecond, emission: Emission, by u: Seconds) -> Double {
    switch emission {
    case .burst: return 0
    case .continuous: return rate * u
    case .timed(let duration, _, let taper):
      guard taper else { return rate * min(u, duration) }
      let h = duration / 2
      let v = min(u, h)
      return rate * (v - v * v * v / (3 * h * h))
    }
  }

  /// The taper: the share of its birth rate a timed emitter of `duration` emits at `u`.
  public static func taper(duration: Seconds, at u: Seconds) -> Double {
    let x = u / (duration / 2)
    return x >= 1 ? 0 : 1 - x * x
  }

  /// `count` particles drawn from every cell of every emitter and every sub-cell in turn (going
  /// on where the last call stopped), each around its emitter's configured position: the
  /// bench's way to load a scene with an effect's particles.
  public mutating func sample(count: Int, window: Size) -> [ConfettiParticle] {
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
  private enum CellKey {
    case emitter(Int, Int)
    case sub(Int)
  }

  private func cell(_ key: CellKey) -> CellConfig {
    switch key {
    case .emitter(let e, let c): config.emitters[e].cells[c]
    case .sub(let i): config.subCells[i]
    }
  }

  /// How many generations of sub-cells a piece may start: a shell, its sparks, their crackle.
  public static let deepestSubCell = 3

  /// The most sub-cell pieces one ``trigger(_:at:window:time:)`` or one
  /// ``advance(to:window:)`` writes, all generations together: more are not written, so that
  /// no configuration can stall the program making them (the ring keeps only its capacity
  /// anyway).
  public static let maximumSubCellBirths = 100_000

  /// Starts the sub-cells of each of `parents` (pieces of `key` born at `time`): those of
  /// ``CellConfig/onDeath`` where and when the piece ends, those of ``CellConfig/alongFlight``
  /// along its way. Everything is known at birth, so the children are written now, each with
  /// its own future birth time: no per-frame tracking, no reading back from the GPU.
  private mutating func startSubCells(
    of parents: [ConfettiParticle], cell key: CellKey, bornAt time: Seconds, window: Size,
    generation: Int = 1
  ) {
    let cell = self.cell(key)
    guard !(cell.onDeath.isEmpty && cell.alongFlight.isEmpty),
      generation <= Self.deepestSubCell
    else { return }
    // The first generation of each parent's children, for what the budget leaves unmade.
    let promised =
      cell.onDeath.compactMap { config.subCell(named: $0) }.map { config.subCells[$0].count }
      .reduce(0, +)
      + cell.alongFlight.compactMap { config.subCell(named: $0) }.map { config.subCells[$0].count }
      .reduce(0, +)
    for parent in parents {
      guard subCellBudget > 0 else {
        unmade += promised
        continue
      }
      var made = 0
      defer { unmade += max(0, promised - made) }
      // The piece as the GPU draws it, and its last visible moment.
      let drawn = parent.packed
      let style = table[drawn.emitter]
      let end = drawn.ownLife(style: style)
      // Each sub-cell, the moments it is born at, and how many at each.
      var starts: [(sub: Int, ages: [Seconds], each: Int)] = []
      for name in cell.onDeath {
        guard let sub = config.subCell(named: name) else { continue }
        starts.append((sub, [end.nextDown], config.subCells[sub].count))
      }
      for name in cell.alongFlight {
        guard let sub = config.subCell(named: name) else { continue }
        let count = config.subCells[sub].count
        let ages = (0..<min(count, subCellBudget)).map { end * (Double($0) + 0.5) / Double(count) }
        starts.append((sub, ages, 1))
      }
      for (sub, ages, each) in starts {
        for age in ages where subCellBudget > 0 {
          let count = min(each, subCellBudget)
          subCellBudget -= count
          made += count
          let moment = time + age
          let clock = Tick(moment)
          guard let state = ConfettiPhysics.state(of: drawn, age: age, style: style, now: clock)
          else { continue }
          let velocity = ConfettiPhysics.velocity(of: drawn, age: age, style: style, now: clock)
          let inherited = velocity * config.subCells[sub].inheritVelocity
          let born = (0..<count).map { _ in
            particle(
              emitter: nil, cell: .sub(sub), origin: state.position, window: window,
              fadeAt: .infinity, inherited: inherited)
          }
          ring.append(born, bornAt: moment, table: table)
          startSubCells(
            of: born, cell: .sub(sub), bornAt: moment, window: window,
            generation: generation + 1)
        }
      }
    }
  }

  /// The table entry and the shapes of `key`'s pieces.
  private func setup(_ key: CellKey) -> CellSetup {
    switch key {
    case .emitter(let e, let c): emitterCells[e][c]
    case .sub(let i): subCellSetups[i]
    }
  }

  /// A piece of `key`, born around `origin` (exactly at it for a sub-cell's, `emitter` nil: no
  /// emitter shape, wind or floor), with `inherited` added to its velocity.
  private mutating func particle(
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
    (p.dragX, p.dragY) = (cell.drag.x, cell.drag.y)
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
      let (line, style) = (floor.line(in: window), table[p.emitter])
      let landing = p.packed.landingTime(onto: line, style: style)
      if landing.isFinite {
        p.endLife(by: landing + floor.restTime + p.fade)
        p.landing = p.shrinksWithLife ? p.packed.landingTime(onto: line, style: style) : landing
      }
    }
    return reduceMotion ? p.reducedMotion(style: table[p.emitter]) : p
  }

  private mutating func place(around origin: Point, shape: EmitterShape, window: Size) -> Point {
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

  private mutating func tinted(_ color: RGBA8, range: SIMD4<Double>) -> RGBA8 {
    guard range != .zero else { return color }
    let base = [color.red, color.green, color.blue, color.alpha]
    let channels = (0..<4).map { i in
      let value = Double(base[i]) / 255 + range[i] * Double.random(in: -1...1, using: &random)
      return UInt8((min(1, max(0, value)) * 255).rounded())
    }
    return RGBA8(red: channels[0], green: channels[1], blue: channels[2], alpha: channels[3])
  }
}

/// An emitter emitting: where, and how far its own clock has run.
private struct RunningEmitter: Sendable {
  var emitter: Int
  /// The click it was started at; nil: where the configuration places it in the window.
  var pointer: Point?
  /// The scene time it was last advanced to.
  var lastTime: Seconds
  /// Seconds of emission so far (its own clock, which skips stalls).
  var local: Seconds = 0
  /// Particles born so far, per cell.
  var born: [Int]
  /// Grid steps (``EffectScene/emissionStep``) of its own time whose births are made.
  var steps = 0
  /// The clock reading of the start of its own time, as its latest move maps it (a stall
  /// moves it on).
  var origin: Seconds { lastTime - local }
  /// Its firing's own random stream.
  var random: SplitMix64

  init(emitter: Int, pointer: Point?, lastTime: Seconds, born: [Int], random: SplitMix64) {
    (self.emitter, self.pointer, self.lastTime, self.born) = (emitter, pointer, lastTime, born)
    self.random = random
  }
}

extension ConfettiParticle {
  /// Ends its life no later than `moment` seconds after its birth, its fade no longer than its
  /// life.
  fileprivate mutating func endLife(by moment: Seconds) {
    lifetime = min(lifetime, moment)
    fade = min(fade, lifetime)
  }

  /// How long a particle lives with reduced motion, at most, in seconds.
  public static let reducedMotionLifetime: Seconds = 1.2

  /// The particle without movement: it appears where its motion would have carried it after a
  /// quarter second (so a burst still reads as a burst), stays there without spinning, tumbling
  /// or growing, and fades out gently over at most ``reducedMotionLifetime``.
  public func reducedMotion(style: CellStyle) -> ConfettiParticle {
    var calm = self
    let glimpse = min(0.25, lifetime / 2)
    var placement = self
    placement.emitterFadeAt = .infinity
    if let state = ConfettiPhysics.state(of: placement, age: glimpse, style: style) {
      calm.origin = state.position
      calm.rotation = state.rotation
    }
    (calm.velocityX, calm.velocityY) = (0, 0)
    (calm.gravity, calm.accelerationX) = (0, 0)
    (calm.dragX, calm.dragY) = (0, 0)
    (calm.spin, calm.spread, calm.scaleSpeed) = (0, 0, 0)
    calm.flutterAmplitude = 0
    calm.flips = false
    calm.shrinksWithLife = false
    calm.trail = 0
    calm.landing = .infinity
    calm.lifetime = min(lifetime, Self.reducedMotionLifetime)
    calm.fade = calm.lifetime
    return calm
  }
}
