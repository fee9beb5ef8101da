import ConfettiCore
import FoundationEssentials
import Glibc

/// The strong CPU baseline: the closed form as a careful engineer would write it for the CPU
/// instead of a shader. It evaluates what `Shaders/particle.vert` evaluates, line for line, in
/// Float from the same packed records, eight particles at a time in SIMD lanes (and, through
/// ``PlacementEvaluator``, on every core), and writes the same sprites as the reference
/// evaluator.
struct LaneEvaluator {
  /// The cell table, field by field, in Float.
  private var wind = [Float](), gustAmplitude = [Float](), gustPhase = [Float]()
  private var fadeOut = [Float](), fadeIn = [Float](), twinkle = [Float](), stretch = [Float]()
  private var gustCycles = [UInt32](), trailTicks = [UInt32]()
  private var colorSpeed = [[Float]](repeating: [], count: 4), additive = [UInt8]()

  /// Every index a record's byte can hold (the default style past the table's end).
  init(table: CellTable) {
    for index in 0...255 {
      let style = table[UInt8(index)]
      wind.append(Float(style.wind))
      gustAmplitude.append(Float(style.gustAmplitude))
      gustPhase.append(Float(style.gustPhase))
      fadeOut.append(Float(style.fadeOut))
      fadeIn.append(Float(style.fadeIn))
      twinkle.append(Float(style.twinkle))
      stretch.append(Float(style.stretch))
      gustCycles.append(style.gustCycles)
      trailTicks.append(style.trailTicks)
      for channel in 0..<4 { colorSpeed[channel].append(Float(style.colorSpeed[channel])) }
      additive.append(style.additive ? 1 : 0)
    }
  }

  /// Eight particles from `records`; lanes past `count` (the next slots', or the zeros the
  /// arrays end with) are computed but never written.
  private struct Batch {
    var count: Int
    var originX, originY, velocityX, velocityY, accelerationX, gravity, dragX, dragY: Lanes
    var red, green, blue, alpha, lifetime, fade, width, height: Lanes
    var rotation, spin, spread, flutterAmplitude, flutterFrequency, flutterPhase: Lanes
    var flipFrequency, flipPhase, scaleSpeed, emitterFadeAt, landing: Lanes
    var birth: SIMD8<UInt32>
    var trail: SIMD8<Int32>
    var flips, shrinks, darkensBack: LaneMask
    var shape, emitter: SIMD8<UInt32>

    @inline(__always)
    init(_ records: LaneRecords, _ slots: Range<Int>) {
      count = slots.count
      let slot = slots.lowerBound
      func load(_ field: LaneRecords.Field) -> Lanes { records.lanes(field, at: slot) }
      (originX, originY) = (load(.originX), load(.originY))
      (velocityX, velocityY) = (load(.velocityX), load(.velocityY))
      (accelerationX, gravity) = (load(.accelerationX), load(.gravity))
      (dragX, dragY) = (load(.dragX), load(.dragY))
      (red, green, blue, alpha) = (load(.red), load(.green), load(.blue), load(.alpha))
      (lifetime, fade, width, height) = (load(.lifetime), load(.fade), load(.width), load(.height))
      (rotation, spin, spread) = (load(.rotation), load(.spin), load(.spread))
      (flutterAmplitude, flutterFrequency) = (load(.flutterAmplitude), load(.flutterFrequency))
      (flutterPhase, flipFrequency) = (load(.flutterPhase), load(.flipFrequency))
      (flipPhase, scaleSpeed) = (load(.flipPhase), load(.scaleSpeed))
      (emitterFadeAt, landing) = (load(.emitterFadeAt), load(.landing))
      birth = records.words(.birth, at: slot)
      trail = SIMD8<Int32>(truncatingIfNeeded: records.words(.trail, at: slot))
      let flags = records.words(.flags, at: slot)
      func has(_ flag: UInt8) -> LaneMask {
        let bit = (flags & UInt32(flag)) &>> UInt32(flag.trailingZeroBitCount)
        return 0 &- SIMD8<Int32>(truncatingIfNeeded: bit)
      }
      flips = has(ParticleRecord.flipsFlag)
      shrinks = has(ParticleRecord.shrinksFlag)
      darkensBack = has(ParticleRecord.darkensBackFlag)
      (shape, emitter) = (records.words(.shape, at: slot), records.words(.emitter, at: slot))
    }
  }

  /// Gathers a table field for each lane's emitter.
  @inline(__always)
  private func gather<T: SIMDScalar>(_ field: [T], _ emitter: SIMD8<UInt32>) -> SIMD8<T> {
    var lanes = SIMD8<T>()
    for lane in 0..<8 { lanes[lane] = field[Int(emitter[lane])] }
    return lanes
  }

  /// E(k, t) and F(k, t) (ConfettiPhysics.velocityResponse, accelerationResponse): a series
  /// where k·t is small, the exponential form elsewhere, as the shader.
  @inline(__always)
  private static func responses(_ k: Lanes, _ t: Lanes) -> (e: Lanes, f: Lanes) {
    let x = k * t
    let series = x.less(than: Float(ConfettiPhysics.seriesLimit))
    // 1 − x/d₁·(1 − x/d₂·(1 − …)), innermost first.
    func nested(_ divisors: [Float]) -> Lanes {
      var sum = Lanes(repeating: 1)
      for d in divisors.reversed() { sum = 1 - x / d * sum }
      return sum
    }
    let e: Lanes = t * nested([2, 3, 4, 5, 6, 7, 8, 9])
    let inner: Lanes = nested([4, 5, 6, 7, 8, 9, 10])
    let f: Lanes = t * t * (0.5 - x / 6 * inner)
    let spent = 1 - LaneMath.exp(-x)
    let exact = (spent / k, (t - spent / k) / k)
    return (LaneMath.select(exact.0, e, where: series), LaneMath.select(exact.1, f, where: series))
  }

  /// particle.vert's positionAt: where the closed form puts each lane at motion age `m`, the
  /// gust at clock reading `clock`.
  @inline(__always)
  private func position(
    _ b: Batch, _ m: Lanes, _ clock: SIMD8<UInt32>, wind: Lanes, gustAmplitude: Lanes,
    gustCycles: SIMD8<UInt32>, gustPhase: Lanes
  ) -> (x: Lanes, y: Lanes) {
    let (ex, fx) = Self.responses(b.dragX, m)
    let (ey, fy) = Self.responses(b.dragY, m)
    let side = LaneMath.select(
      Lanes(repeating: 1), Lanes(repeating: -1), where: b.velocityX.less(than: 0))
    let turns = Lanes(gustCycles &* clock) * Float(CellStyle.radiansPerTurnFraction)
    let waves = LaneMath.sinCos(b.flutterFrequency * m + b.flutterPhase).sin
    let gust = LaneMath.sinCos(turns + gustPhase).sin
    var x = b.originX + b.velocityX * ex + (b.accelerationX + b.dragX * wind) * fx
    x += b.flutterAmplitude * waves + side * b.spread * m * m
    x += gustAmplitude * b.dragX * ex * gust
    return (x, b.originY + b.velocityY * ey + b.gravity * fy)
  }

  /// The clock reading `seconds` before `clock` in whole ticks (Tick.earlier(by:)). Lanes that
  /// are not drawn may ask for any number; they get some reading, not a trap.
  private static func earlier(_ clock: SIMD8<UInt32>, _ seconds: Lanes) -> SIMD8<UInt32> {
    let longest = Lanes(repeating: Float(ParticleRecord.maximumLifetime))
    // (NaN compares false: it becomes 0.)
    let positive = LaneMath.select(.zero, seconds, where: seconds.greater(than: 0))
    let ticks = LaneMath.min(positive, longest) * Float(Tick.perSecond)
    var whole = SIMD8<UInt32>()
    for lane in 0..<8 { whole[lane] = UInt32(ticks[lane]) }
    return clock &- whole
  }

  /// Landed paper settling at age `t` (ConfettiPhysics.settle): its rotation, tumble cosine and
  /// how far its centre moves down, for every lane (only the landed paper's are used).
  private static func settle(
    _ b: Batch, rotation: Lanes, tumble c: Lanes, growth: Lanes, age t: Lanes
  ) -> (rotation: Lanes, tumble: Lanes, drop: Lanes) {
    let u = LaneMath.min(
      LaneMath.max((t - b.landing) / Float(ConfettiPhysics.settleTime), .zero), .one)
    let e = u * u * (3 - 2 * u)
    let upright = 90 - rotation
    let turn = upright - 180 * (upright / 180 + 0.5).rounded(.down)
    let turned = rotation + turn * e
    let rest = Lanes(repeating: Float(ConfettiPhysics.restingTumble))
    let resting = LaneMath.select(rest, -rest, where: c.less(than: 0))
    let tumble = c + (resting - c) * e
    var elliptical = LaneMask()
    for lane in 0..<8 {
      let shape = ParticleShape(rawValue: UInt8(truncatingIfNeeded: b.shape[lane]))
      elliptical[lane] = shape.isElliptical ? -1 : 0
    }
    let floor = Lanes(repeating: Float(ConfettiPhysics.flipFloor))
    func halfHeight(_ degrees: Lanes, _ c: Lanes) -> Lanes {
      let hx = b.width * growth * LaneMath.max(LaneMath.max(c, -c), floor) / 2
      let hy = b.height * growth / 2
      let turn = LaneMath.sinCos(degrees * (.pi / 180))
      let (across, up) = (
        LaneMath.max(turn.sin, -turn.sin) * hx, LaneMath.max(turn.cos, -turn.cos) * hy
      )
      return LaneMath.select(
        across + up, (across * across + up * up).squareRoot(), where: elliptical)
    }
    return (turned, tumble, halfHeight(rotation, c) - halfHeight(turned, tumble))
  }

  /// Evaluates trail copy `copy` of each lane at clock `now` (a lane whose copy is negative or
  /// beyond its trail is not drawn) and calls `emit` with each lane's sprite, or nil.
  private func evaluate(
    _ b: Batch, copy: SIMD8<Int32>, at now: UInt32, emit: (Int, PlacedSprite?) -> Void
  ) {
    let e = b.emitter
    // 0 ≤ copy ≤ trail: neither copy nor trail − copy has its sign bit set.
    let drawn = ~((copy | (b.trail &- copy)) &>> 31)
    let copies = copy & drawn
    let then =
      SIMD8<UInt32>(repeating: now) &- SIMD8<UInt32>(truncatingIfNeeded: copies)
      &* gather(trailTicks, e)
    // Unsigned subtraction is exact across the clock's wrap; an unborn age wraps huge.
    let t = Lanes(then &- b.birth) * Float(1 / Tick.perSecond)
    let (wind, amplitude) = (gather(self.wind, e), gather(gustAmplitude, e))
    let (cycles, phase) = (gather(gustCycles, e), gather(gustPhase, e))

    // Motion stops where the piece lands.
    let landed = t.atLeast(b.landing) & t.less(than: b.lifetime)
    let m = LaneMath.select(t, b.landing, where: landed)
    var gustClock = then
    if landed.anySet {
      gustClock = Self.earlier(then, LaneMath.select(.zero, t - b.landing, where: landed))
    }
    var head = position(
      b, m, gustClock, wind: wind, gustAmplitude: amplitude, gustCycles: cycles, gustPhase: phase)
    let stretch = gather(self.stretch, e)
    var tail = head
    let streaks = stretch.greater(than: 0)
    if streaks.anySet {
      let reach = LaneMath.min(LaneMath.max(t - stretch, .zero), m)
      let earlier = position(
        b, reach, Self.earlier(gustClock, m - reach), wind: wind, gustAmplitude: amplitude,
        gustCycles: cycles, gustPhase: phase)
      tail.x = LaneMath.select(tail.x, earlier.x, where: streaks)
      tail.y = LaneMath.select(tail.y, earlier.y, where: streaks)
    }

    // The emitter's fade-out.
    let fadeOut = gather(self.fadeOut, e)
    let f = LaneMath.select((t - b.emitterFadeAt) / fadeOut, .one, where: ~fadeOut.greater(than: 0))
    let ease = (1 - f) * (1 - f)
    let fading = t.atLeast(b.emitterFadeAt)
    var emitterFade = LaneMath.select(.one, ease, where: fading)
    emitterFade = LaneMath.select(emitterFade, .zero, where: fading & f.atLeast(1))
    let alive = t.less(than: b.lifetime) & emitterFade.greater(than: 0) & drawn
    guard alive.anySet else {
      for lane in 0..<b.count { emit(lane, nil) }
      return
    }
    let copyCount = Lanes(copies)
    let trailFactor: Lanes = 1 - copyCount / (Lanes(b.trail) + 1)
    let life = LaneMath.select(.one, (b.lifetime - m) / b.lifetime, where: b.shrinks)
    var growth = LaneMath.max(1 + b.scaleSpeed * m, .zero) * life
    let twinkle = gather(self.twinkle, e)
    let twinkles = twinkle.greater(than: 0) & ~b.flips
    if twinkles.anySet {
      // A twinkling piece flares larger at its brightest and shrinks at its dimmest.
      let pulseWave = LaneMath.sinCos(b.flipFrequency * m + b.flipPhase).cos
      let pulse = 1 + Float(ConfettiPhysics.twinklePulse) * twinkle * pulseWave
      growth = LaneMath.select(growth, growth * pulse, where: twinkles)
    }
    // The tumble, or for a piece that does not tumble, its twinkle.
    let tumbleAge = LaneMath.select(t, m, where: b.flips)
    var wave = LaneMath.sinCos(b.flipFrequency * tumbleAge + b.flipPhase).cos
    var rotation = b.rotation + b.spin * m
    let settling = landed & b.flips
    if settling.anySet {
      let rest = Self.settle(b, rotation: rotation, tumble: wave, growth: growth, age: t)
      rotation = LaneMath.select(rotation, rest.rotation, where: settling)
      wave = LaneMath.select(wave, rest.tumble, where: settling)
      head.y = LaneMath.select(head.y, head.y + rest.drop, where: settling)
    }
    let floor = Lanes(repeating: Float(ConfettiPhysics.flipFloor))
    let widthScale = LaneMath.select(
      .one, LaneMath.max(LaneMath.max(wave, -wave), floor), where: b.flips)
    let width = b.width * widthScale * growth * trailFactor
    let height = b.height * growth * trailFactor
    func ramped(_ base: Lanes, _ channel: Int) -> Lanes {
      LaneMath.min(LaneMath.max(base + gather(colorSpeed[channel], e) * t, .zero), .one)
    }
    var (red, green, blue) = (ramped(b.red, 0), ramped(b.green, 1), ramped(b.blue, 2))
    let alpha = ramped(b.alpha, 3)
    let paper = b.flips & b.darkensBack
    if paper.anySet {
      // Paper: lit by the tilt, deepening in shade without losing its hue, glinting face on.
      let backLight = Float(ConfettiPhysics.backLight)
      let light = (1 + backLight) / 2 + (1 - backLight) / 2 * wave
      let facing = LaneMath.max(wave, .zero)
      let f2 = facing * facing
      let f4 = f2 * f2
      let sheen = Float(ConfettiPhysics.glint) * f4 * f4
      func shade(_ c: Lanes) -> Lanes {
        let shaded = LaneMath.pow(c, 1 / light) * ((1 + light) / 2)
        return (shaded + (1 - shaded) * sheen)
      }
      red = LaneMath.select(red, shade(red), where: paper)
      green = LaneMath.select(green, shade(green), where: paper)
      blue = LaneMath.select(blue, shade(blue), where: paper)
    }
    let remaining = b.lifetime - t
    var shown =
      LaneMath.select(remaining / b.fade, .one, where: remaining.atLeast(b.fade)) * emitterFade
    let fadeIn = gather(self.fadeIn, e)
    let risen = LaneMath.min(Lanes(repeating: 1), t / fadeIn)
    shown = LaneMath.select(shown, shown * risen, where: fadeIn.greater(than: 0))
    shown = LaneMath.select(shown, shown * (1 - twinkle * (1 - wave) / 2), where: twinkles)
    let opacity = shown * trailFactor

    for lane in 0..<b.count {
      guard alive[lane] != 0 else {
        emit(lane, nil)
        continue
      }
      var sprite = PlacedSprite()
      (sprite.x, sprite.y, sprite.rotation) = (head.x[lane], head.y[lane], rotation[lane])
      (sprite.width, sprite.height, sprite.opacity) = (width[lane], height[lane], opacity[lane])
      sprite.red = Self.byte(red[lane])
      sprite.green = Self.byte(green[lane])
      sprite.blue = Self.byte(blue[lane])
      sprite.alpha = Self.byte(alpha[lane])
      sprite.shape = UInt8(truncatingIfNeeded: b.shape[lane])
      sprite.additive = additive[Int(e[lane])]
      if streaks[lane] != 0 {
        // A capsule from the tail to the head, as thick as the piece is tall.
        let (dx, dy) = (head.x[lane] - tail.x[lane], head.y[lane] - tail.y[lane])
        let length = (dx * dx + dy * dy).squareRoot()
        if length > Float(ParticleState.shortestStreak) {
          sprite.x = (head.x[lane] + tail.x[lane]) / 2
          sprite.y = (head.y[lane] + tail.y[lane]) / 2
          sprite.rotation = Float(atan2(Double(dy), Double(dx)) * 180 / .pi)
          (sprite.width, sprite.height) = (length + height[lane], height[lane])
          sprite.shape = ParticleShape.streak.rawValue
        }
      }
      emit(lane, sprite)
    }
  }

  /// A share of full scale as a byte, rounded to nearest (PlacedSprite's rounding).
  @inline(__always)
  private static func byte(_ share: Float) -> UInt8 { UInt8(share * 255 + 0.5) }

  /// Writes the sprites of `slots` of `records` at clock `now` from the start of `output`, in
  /// the reference evaluator's order: with `step` nil, each particle's copies from its oldest
  /// to itself; otherwise only the copy `step` places after each particle's oldest. Returns
  /// how many it wrote (the dead and unborn are left out).
  func place(
    _ records: LaneRecords, slots: Range<Int>, at now: Tick, step: Int?,
    into output: UnsafeMutableBufferPointer<PlacedSprite>
  ) -> Int {
    var written = 0
    func write(_ sprite: PlacedSprite?) {
      guard let sprite else { return }
      output[written] = sprite
      written += 1
    }
    for start in stride(from: slots.lowerBound, to: slots.upperBound, by: 8) {
      let batch = Batch(records, start..<min(start + 8, slots.upperBound))
      let oldest = Int(batch.trail.max())
      if let step {
        evaluate(batch, copy: batch.trail &- Int32(step), at: now.rawValue) { write($1) }
      } else if oldest == 0 {
        evaluate(batch, copy: .zero, at: now.rawValue) { write($1) }
      } else {
        // Held until every copy is known: each particle's copies go out together.
        var held = [PlacedSprite?](repeating: nil, count: 8 * (oldest + 1))
        for copy in stride(from: oldest, through: 0, by: -1) {
          evaluate(batch, copy: SIMD8(repeating: Int32(copy)), at: now.rawValue) {
            held[$0 * (oldest + 1) + oldest - copy] = $1
          }
        }
        held.forEach(write)
      }
    }
    return written
  }
}
