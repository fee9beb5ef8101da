import FoundationEssentials
import Glibc

/// The closed-form motion of every particle, evaluated on the CPU in Double.
///
/// This is the reference the vertex shader (`Shaders/particle.vert`) is tested against: the same
/// formulas, term by term, in the same order. Each axis has an initial velocity v, a constant
/// acceleration a and a linear drag k; for a particle of age t:
///
///     E(k, t) = (1 − e^(−k·t)) / k          how far a unit initial velocity carries (t if k = 0)
///     F(k, t) = (t − E(k, t)) / k          how far a unit acceleration carries (t²/2 if k = 0)
///     x = x0 + vx·E(kx) + (ax + kx·wind)·F(kx) + A·sin(ω·t + φ) + sgn(vx)·S·t²
///           + G·kx·E(kx)·sin(Ω·T + ψ)       (gust, T the scene clock)
///     y = y0 + vy·E(ky) + g·F(ky)
///     rotation = r0 + spin·t
///     width    = w · max(0.15, |cos(ωf·t + φf)|) · growth,   height = h · growth
///     growth   = max(0, 1 + scaleSpeed·t) · (remaining / lifetime if it shrinks with life)
///                × (1 + 0.3·twinkle·cos(ωf·t + φf)) for a piece that twinkles
///     colour   = clamp(colour0 + colourSpeed·t, 0, 1), shaded as paper while it tumbles
///     opacity  = (lifetime − t) / fade in the last `fade` seconds, else 1,
///                × min(1, t / fadeIn) × (1 − twinkle·(1 − cos(ωf·t + φf))/2)
///
/// A piece that lands (``ConfettiParticle/landing``, T) stops there: position, rotation, tumble,
/// sway and size are those at min(t, T), the gust's clock stands at the landing. Paper (a piece
/// that tumbles) then settles over ``settleTime``: with e = smoothstep((t − T)/settleTime),
///
///     rotation = r_T + e·turn(r_T)          turn: to the nearest angle with its width upright
///     tumble   = c_T + e·(±0.25 − c_T)      face up or face down, as it was nearer
///     y        = y_T + halfHeight(r_T, c_T) − halfHeight(rotation, tumble)
///
/// so it lies flat, foreshortened, its lowest point on the floor throughout.
///
/// With the classic values (no wind, kx = ky = k) this is the classic formula exactly:
/// vy·E + g·F = (vy/k)·D + (g/k)·(t − D/k) with D = 1 − e^(−k·t).
package enum ConfettiPhysics {
  /// The classic gravity, in pt/s².
  package static let gravity: PointsPerSecondSquared = 280
  /// The classic drag coefficient, in 1/s.
  package static let drag: PerSecond = 1.6
  /// The narrowest a tumbling piece gets, as a share of its width, so it never vanishes edge-on.
  package static let flipFloor = 0.15
  /// How far a twinkling piece's size swings with its twinkle, as a share of its size per unit
  /// of depth: it flares larger at its brightest and shrinks at its dimmest.
  package static let twinklePulse = 0.3
  /// Below this k·t, E and F come from their Taylor series: the closed forms divide by a k
  /// that may be 0, and lose digits to cancellation when k·t is small.
  package static let seriesLimit = 0.25

  /// The speed at which drag balances gravity, in pt/s: g/k (175 pt/s for the classic values).
  package static func terminalVelocity(gravity: PointsPerSecondSquared, drag: PerSecond)
    -> PointsPerSecond
  {
    gravity / drag
  }

  /// D = 1 − exp(−k·t): the fraction of the initial velocity drag has spent after `age` seconds.
  package static func dragFactor(drag: PerSecond, age: Seconds) -> Double {
    1 - exp(-drag * age)
  }

  /// E(k, t) = (1 − e^(−k·t)) / k, in seconds: the distance a unit initial velocity carries
  /// against drag `k` in `t` seconds (t itself when k = 0).
  package static func velocityResponse(drag k: PerSecond, age t: Seconds) -> Seconds {
    let x = k * t
    if x < seriesLimit {
      return t
        * (1 - x / 2
          * (1 - x / 3
            * (1 - x / 4 * (1 - x / 5 * (1 - x / 6 * (1 - x / 7 * (1 - x / 8 * (1 - x / 9))))))))
    }
    return dragFactor(drag: k, age: t) / k
  }

  /// F(k, t) = (t − E(k, t)) / k, in s²: the distance a unit constant acceleration carries
  /// against drag `k` in `t` seconds (t²/2 when k = 0).
  package static func accelerationResponse(drag k: PerSecond, age t: Seconds) -> Double {
    let x = k * t
    if x < seriesLimit {
      return t * t
        * (0.5 - x / 6
          * (1 - x / 4
            * (1 - x / 5 * (1 - x / 6 * (1 - x / 7 * (1 - x / 8 * (1 - x / 9 * (1 - x / 10))))))))
    }
    return (t - dragFactor(drag: k, age: t) / k) / k
  }

  /// Opacity at `age`: 1, then a linear ramp to 0 over the last `fade` seconds of `lifetime`.
  package static func opacity(age: Seconds, lifetime: Seconds, fade: Seconds) -> Double {
    let remaining = lifetime - age
    return remaining < fade ? remaining / fade : 1
  }

  /// The apparent width as a share of the real one while the piece tumbles: max(0.15, |cos θ|).
  package static func flipScale(frequency: PerSecond, phase: Radians, age: Seconds) -> Double {
    flipScale(tumble: cos(frequency * age + phase))
  }

  /// The apparent width share for a tumble cosine `c`: max(0.15, |c|).
  package static func flipScale(tumble c: Double) -> Double {
    max(flipFloor, abs(c))
  }

  /// How long a piece of paper takes to settle once it lands, in seconds: to turn down and lie
  /// flat on its floor.
  package static let settleTime: Seconds = 0.4
  /// The tumble cosine of paper lying flat, face up (or its negative, face down): how much of
  /// its width a viewer slightly above the floor sees, sin 14.5°.
  package static let restingTumble = 0.25

  /// How far a landed piece of paper has settled `s` seconds after landing, 0 → 1 over
  /// ``settleTime``: smoothstep, so that it neither jumps at the landing nor at rest.
  package static func settling(after s: Seconds) -> Double {
    let u = min(max(s / settleTime, 0), 1)
    return u * u * (3 - 2 * u)
  }

  /// The turn, in degrees (−90 … 90), that brings a piece at `rotation` to its nearest resting
  /// angle: its width upright, so that its tumble foreshortens it across the floor.
  package static func restingTurn(from rotation: Degrees) -> Degrees {
    let upright = 90 - rotation
    return upright - 180 * (upright / 180 + 0.5).rounded(.down)
  }

  /// Paper landed at `rotation` and tumble cosine `c`, of `size` (flip not applied), `s` seconds
  /// after landing: its rotation eased to the nearest resting angle, its tumble to face up or
  /// face down as it was nearer (``restingTumble``), and how far its centre moves down so that
  /// its lowest point stays on the floor.
  package static func settle(
    rotation: Degrees, tumble c: Double, size: Size, after s: Seconds, elliptical: Bool
  ) -> (rotation: Degrees, tumble: Double, drop: Points) {
    let e = settling(after: s)
    let turned = rotation + restingTurn(from: rotation) * e
    let resting = c < 0 ? -restingTumble : restingTumble
    let tumble = c + (resting - c) * e
    func halfHeight(_ degrees: Degrees, _ c: Double) -> Double {
      Size(width: size.width * flipScale(tumble: c), height: size.height)
        .turnedHalfExtent(degrees: degrees, elliptical: elliptical).y
    }
    return (turned, tumble, halfHeight(rotation, c) - halfHeight(turned, tumble))
  }

  /// The size share of a piece twinkling `depth` deep at wave `c` (the twinkle's cosine at the
  /// age its motion has reached: a landed piece keeps the size it landed with).
  package static func twinklePulse(_ depth: Double, wave c: Double) -> Double {
    1 + twinklePulse * depth * c
  }

  /// Where and how a particle is drawn at `age` seconds after its birth, or nil when it is not
  /// visible then (age < 0, age ≥ lifetime, or its emitter has faded out). `style` gives its
  /// emitter's wind, colour ramp and fade-out; `now` is the scene clock the gust follows.
  package static func state(
    of particle: ConfettiParticle, age t: Seconds, style: CellStyle = .plain,
    now: Tick = Tick(rawValue: 0)
  ) -> ParticleState? {
    guard t >= 0, t < particle.lifetime else { return nil }
    let p = particle
    let fading = emitterFade(age: t, fadeAt: p.emitterFadeAt, fadeOut: style.fadeOut)
    guard fading > 0 else { return nil }
    // Motion stops where the piece lands; the gust's clock stands still there too.
    let landed = t >= p.landing
    let m = landed ? p.landing : t
    let gustClock = landed ? now.earlier(by: t - p.landing) : now
    let head = position(of: p, age: m, style: style, gustClock: gustClock)
    // A streak reaches back `stretch` seconds of its motion (no further than its birth).
    var tail: Point?
    if style.stretch > 0 {
      let back = min(max(t - style.stretch, 0), m)
      tail = position(of: p, age: back, style: style, gustClock: gustClock.earlier(by: m - back))
    }
    // A landed piece keeps the size it landed with; a twinkling one flares and shrinks.
    let twinkles = style.twinkle > 0 && !p.flips
    let pulseWave = cos(p.flipFrequency * m + p.flipPhase)
    let growth =
      max(0, 1 + p.scaleSpeed * m) * (p.shrinksWithLife ? (p.lifetime - m) / p.lifetime : 1)
      * (twinkles ? twinklePulse(style.twinkle, wave: pulseWave) : 1)
    var wave = cos(p.flipFrequency * (p.flips ? m : t) + p.flipPhase)
    var rotation = p.rotation + p.spin * m
    var position = head
    if landed && p.flips {
      // Paper settles: it turns down to lie flat, its lowest point kept on the floor.
      let size = Size(width: p.size.width * growth, height: p.size.height * growth)
      let rest = settle(
        rotation: rotation, tumble: wave, size: size, after: t - p.landing,
        elliptical: p.shape.isElliptical)
      (rotation, wave) = (rest.rotation, rest.tumble)
      position.y += rest.drop
    }
    let flip = p.flips ? flipScale(tumble: wave) : 1
    let base =
      SIMD4(Double(p.color.red), Double(p.color.green), Double(p.color.blue), Double(p.color.alpha))
      / 255
    var color = (base + style.colorSpeed * t).clamped(lowerBound: .zero, upperBound: .one)
    if p.flips && p.darkensBack {
      let shaded = paperShade(SIMD3(color.x, color.y, color.z), tumble: wave)
      color = SIMD4(shaded.x, shaded.y, shaded.z, color.w)
    }
    var shown = opacity(age: t, lifetime: p.lifetime, fade: p.fade) * fading
    if style.fadeIn > 0 { shown *= min(1, t / style.fadeIn) }
    if twinkles { shown *= 1 - style.twinkle * (1 - wave) / 2 }
    return ParticleState(
      position: position,
      rotation: rotation,
      widthScale: flip,
      size: Size(width: p.size.width * flip * growth, height: p.size.height * growth),
      color: color,
      opacity: shown,
      additive: style.additive,
      tail: tail
    )
  }

  /// Where the closed form puts particle `p` at `age` (its motion's age: landing stops it), with
  /// the gust at clock reading `gustClock`.
  package static func position(
    of p: ConfettiParticle, age m: Seconds, style: CellStyle, gustClock: Tick
  ) -> Point {
    let (kx, ky) = (p.dragX, p.dragY)
    let ex = velocityResponse(drag: kx, age: m)
    let ey = velocityResponse(drag: ky, age: m)
    let fx = accelerationResponse(drag: kx, age: m)
    let fy = accelerationResponse(drag: ky, age: m)
    let side: Double = p.velocityX >= 0 ? 1 : -1
    let x =
      p.origin.x + p.velocityX * ex + (p.accelerationX + kx * style.wind) * fx
      + p.flutterAmplitude * sin(p.flutterFrequency * m + p.flutterPhase)
      + side * p.spread * m * m
      + style.gustAmplitude * kx * ex * sin(style.gustAngle(at: gustClock))
    let y = p.origin.y + p.velocityY * ey + p.gravity * fy
    return Point(x: x, y: y)
  }

  /// The velocity, in pt/s (x right, y down), of a particle at `age` seconds after its birth:
  /// the closed form's derivative, term by term (d/dt E = e^(−k·t), d/dt F = E), so that a
  /// sub-cell's pieces inherit exactly the motion their parent had; zero once it has landed.
  package static func velocity(
    of p: ConfettiParticle, age t: Seconds, style: CellStyle = .plain,
    now: Tick = Tick(rawValue: 0)
  ) -> SIMD2<Double> {
    guard t < p.landing else { return .zero }
    let (kx, ky) = (p.dragX, p.dragY)
    let ex = velocityResponse(drag: kx, age: t)
    let side: Double = p.velocityX >= 0 ? 1 : -1
    let angle = style.gustAngle(at: now)
    let turning = style.gustTurningRate
    let vx =
      p.velocityX * exp(-kx * t) + (p.accelerationX + kx * style.wind) * ex
      + p.flutterAmplitude * p.flutterFrequency * cos(p.flutterFrequency * t + p.flutterPhase)
      + 2 * side * p.spread * t
      + style.gustAmplitude * kx * (exp(-kx * t) * sin(angle) + ex * cos(angle) * turning)
    let vy = p.velocityY * exp(-ky * t) + p.gravity * velocityResponse(drag: ky, age: t)
    return SIMD2(vx, vy)
  }

  /// A bound on a particle's speed over its whole life, in pt/s: each term of ``velocity(of:age:style:now:)``
  /// at its largest (e^(−k·t) ≤ 1, E(k, t) ≤ t). How long a streak may get.
  package static func fastestSpeed(of p: ConfettiParticle, style: CellStyle) -> PointsPerSecond {
    let life = p.lifetime
    let turning = style.gustTurningRate
    let across =
      abs(p.velocityX) + (abs(p.accelerationX) + p.dragX * abs(style.wind)) * life
      + abs(p.flutterAmplitude * p.flutterFrequency) + 2 * abs(p.spread) * life
      + abs(style.gustAmplitude) * p.dragX * (1 + turning * life)
    let down = abs(p.velocityY) + abs(p.gravity) * life
    return across + down
  }

  /// The reference evaluation of a packed record at the GPU's clock reading `now`: the record is
  /// unpacked exactly as the shader reads it, and the age is the same tick difference.
  ///
  /// `trailCopy` k > 0 evaluates the k-th copy of its trail: the particle as it was k trail
  /// spacings earlier, fainter and smaller by ``trailFactor(copy:of:)``; nil beyond its trail.
  package static func state(
    of record: ParticleRecord, at now: Tick, table: CellTable = .plain, trailCopy: Int = 0
  ) -> ParticleState? {
    guard trailCopy <= Int(record.trail) else { return nil }
    let style = table[record.emitter]
    let then = Tick(rawValue: now.rawValue &- UInt32(trailCopy) &* style.trailTicks)
    let age = record.age(at: then)
    guard var state = self.state(of: record.particle, age: age, style: style, now: then) else {
      return nil
    }
    let factor = trailFactor(copy: trailCopy, of: Int(record.trail))
    state.opacity *= factor
    state.size = Size(width: state.size.width * factor, height: state.size.height * factor)
    return state
  }

  /// Trail copy k of n is drawn at (1 − k/(n + 1)) of the particle's opacity and size.
  package static func trailFactor(copy k: Int, of n: Int) -> Double {
    1 - Double(k) / Double(n + 1)
  }

  /// The emitter's fade-out at `age`: 1 until `fadeAt`, then (1 − f)² as f runs 0 → 1 over
  /// `fadeOut` seconds, then 0.
  package static func emitterFade(age t: Seconds, fadeAt: Seconds, fadeOut: Seconds) -> Double {
    guard t >= fadeAt else { return 1 }
    guard fadeOut > 0 else { return 0 }
    let f = (t - fadeAt) / fadeOut
    return f >= 1 ? 0 : (1 - f) * (1 - f)
  }

  /// The light on a tumbling piece's back when it faces the viewer squarely: the front gets 1,
  /// a piece edge-on the mean of the two.
  package static let backLight = 0.56
  /// How much nearer white a piece turns at the peak of its glint, facing the viewer squarely.
  package static let glint = 0.25
  /// How much darker additive light turns where it covers its backdrop wholly
  /// (``CellStyle/cover`` 1): its colour times 1 − this × the share it covers. (Laid over its
  /// backdrop by a light layer, it covers as much as it shines, and a darker colour would cover
  /// less: there it is only made vivid.)
  package static let lightDeepening = 0.25

  /// How light `backdrop` is, for additive light (``CellStyle/vivid``, ``CellStyle/cover``): 0
  /// up to a relative luminance of 0.25 (mid-grey is 0.22), where added light shows, rising
  /// smoothly to 1 at 0.75 and above; its alpha aside.
  package static func backdropLightness(of backdrop: RGBA8) -> Double {
    let u = min(1, max(0, (backdrop.relativeLuminance - 0.25) / 0.5))
    return u * u * (3 - 2 * u)
  }

  /// Paper's colour for tumble cosine `c` (1 facing the viewer, −1 showing its back), in shares
  /// of full scale: lit by l = (1 + b)/2 + (1 − b)/2·c (b = ``backLight``), continuous with the
  /// tilt. The light deepens the colour as paper in shade does, rgb^(1/l)·(1 + l)/2: a bright
  /// channel keeps its brightness longer than a dim one, so yellow turns gold rather than
  /// olive and every colour keeps its hue; and it glints, nearer white by ``glint``·c⁸, as it
  /// turns to face the viewer.
  package static func paperShade(_ rgb: SIMD3<Double>, tumble c: Double) -> SIMD3<Double> {
    let light = (1 + backLight) / 2 + (1 - backLight) / 2 * c
    let lit = SIMD3(pow(rgb.x, 1 / light), pow(rgb.y, 1 / light), pow(rgb.z, 1 / light))
    let shaded = lit * ((1 + light) / 2)
    let facing = max(c, 0)
    let sheen = glint * pow(facing, 8)
    return shaded + (SIMD3(repeating: 1) - shaded) * sheen
  }
}

/// What the closed form yields for one particle at one moment.
package struct ParticleState: Equatable, Sendable {
  /// The centre of the piece, in points.
  package var position: Point
  /// Clockwise rotation on screen, in degrees.
  package var rotation: Degrees
  /// The apparent width as a share of the real width (the fake 3D flip), in [0.15, 1].
  package var widthScale: Double
  /// The apparent size in points: flip, growth and shrinking applied.
  package var size: Size
  /// Red, green, blue, alpha in [0, 1], after the emitter's colour ramp.
  package var color: SIMD4<Double>
  /// Opacity in [0, 1].
  package var opacity: Double
  /// Whether its light adds to what is behind it (``CellStyle/additive``).
  package var additive = false
  /// For a streak (``CellStyle/stretch``), where it was `stretch` seconds ago: it is drawn
  /// from there to ``position``; nil otherwise.
  package var tail: Point?

  /// How a streak is drawn: a capsule from ``tail`` to ``position`` as thick as the piece is
  /// tall, as a centre, a clockwise angle in degrees and a size in points (its length with both
  /// round ends, its thickness); nil for a piece that is not a streak, or one standing still.
  package var streak: (centre: Point, rotation: Degrees, size: Size)? {
    guard let tail else { return nil }
    let (dx, dy) = (position.x - tail.x, position.y - tail.y)
    let length = (dx * dx + dy * dy).squareRoot()
    guard length > Self.shortestStreak else { return nil }
    return (
      Point(x: (position.x + tail.x) / 2, y: (position.y + tail.y) / 2),
      atan2(dy, dx) * 180 / .pi, Size(width: length + size.height, height: size.height)
    )
  }

  /// The box the piece is drawn in: its streak's capsule, or the piece itself (centre,
  /// clockwise angle in degrees, size in points).
  package var drawnBox: (centre: Point, rotation: Degrees, size: Size) {
    streak ?? (position, rotation, size)
  }

  /// Streaks shorter than this, in points, are drawn as the piece itself.
  package static let shortestStreak: Points = 1e-3
}

extension ConfettiParticle {
  /// The moment, in seconds after birth, when the piece's lowest point comes down to `floor` (a
  /// y in points, down positive) within its life, after being wholly above it: its centre plus
  /// the half height of the turned, tumbled, grown piece (of its ellipse for circles and glows,
  /// of its rectangle for the rest; with its twinkle's pulse, from `style`). Infinity when it
  /// never does, or when its centre is born on or below `bornAbove` (the floor itself, unless
  /// given: a floor's band lands a piece on a line of its own above the floor, which a piece
  /// thrown up from the floor rises through and comes back down to). Solved once, at birth, in
  /// Double, from the particle as given (use ``packed`` for the record's values): the first of
  /// 64 steps across the life that ends at or below the floor after one above it holds a
  /// crossing, which bisection finds to a microsecond.
  package func landingTime(
    onto floor: Points, bornAbove base: Points? = nil, style: CellStyle = .plain
  ) -> Seconds {
    var free = self
    free.landing = .infinity
    free.emitterFadeAt = .infinity
    let elliptical = shape.isElliptical
    func state(_ t: Seconds) -> ParticleState? {
      ConfettiPhysics.state(of: free, age: t, style: style)
    }
    func below(_ t: Seconds) -> Bool {
      state(t).map { $0.lowestPoint(elliptical: elliptical) >= floor } ?? false
    }
    // Born with its centre on or below the floor: no floor for it.
    guard lifetime > 0, let born = state(0), born.position.y < (base ?? floor) else {
      return .infinity
    }
    // The first time it comes down to the floor after being wholly above it (a piece born
    // touching it, thrown up from a cannon at the bottom edge, lands when it comes back).
    let steps = 64
    var above: Seconds? = below(0) ? nil : 0
    for step in 1...steps {
      let t = min(lifetime * Double(step) / Double(steps), lifetime.nextDown)
      guard below(t) else {
        above = t
        continue
      }
      guard var clear = above else { continue }
      var reached = t
      while reached - clear > 1e-6 {
        let middle = (clear + reached) / 2
        if below(middle) { reached = middle } else { clear = middle }
      }
      return reached
    }
    return .infinity
  }
}

extension ParticleRecord {
  /// Seconds since its birth at clock reading `now`: the tick difference, exact across the
  /// clock's wrap (an unborn record's wraps huge), as the shader takes it.
  package func age(at now: Tick) -> Seconds { Double(now.rawValue &- birth) / Tick.perSecond }

  /// Whether at `now` it is paper that has landed and is still turning down to lie flat
  /// (``ConfettiPhysics/settle(rotation:tumble:size:after:elliptical:)``).
  package func isSettling(at now: Tick) -> Bool {
    let since = age(at: now) - Double(landing)
    return flags & Self.flipsFlag != 0 && since > 0 && since < ConfettiPhysics.settleTime
  }
}

extension ConfettiParticle {
  /// Seconds after birth when the piece reaches the top of its climb, its upward speed spent
  /// against gravity and drag (vy·e^(−k·t) + g·E(k, t) = 0): ln(1 − vy·k/g)/k, or −vy/g without
  /// drag. Nil when it never climbs (already falling, or nothing pulls it down).
  package var apexTime: Seconds? {
    guard velocityY < 0, gravity > 0 else { return nil }
    let k = dragY
    return k == 0 ? -velocityY / gravity : log1p(-velocityY * k / gravity) / k
  }

  /// The particle exactly as its record keeps it (half floats and all): what the GPU draws.
  package var packed: ConfettiParticle { ParticleRecord(self, birth: Tick(rawValue: 0)).particle }
}

extension ParticleState {
  /// The y of the piece's lowest point, in points: its centre plus half the height of its
  /// turned outline, an ellipse's when `elliptical`, else a rectangle's.
  package func lowestPoint(elliptical: Bool) -> Points {
    position.y + size.turnedHalfExtent(degrees: rotation, elliptical: elliptical).y
  }
}

extension Size {
  /// Half the width and half the height of the box around this size turned `degrees`
  /// clockwise: around the ellipse it bounds when `elliptical`, else around the rectangle (as
  /// `Shaders/sprite.glsl` sizes a point sprite).
  package func turnedHalfExtent(degrees: Degrees, elliptical: Bool) -> (x: Double, y: Double) {
    let angle = degrees * .pi / 180
    let (c, s) = (abs(cos(angle)), abs(sin(angle)))
    let (hx, hy) = (width / 2, height / 2)
    guard elliptical else { return (c * hx + s * hy, s * hx + c * hy) }
    return (
      ((c * hx) * (c * hx) + (s * hy) * (s * hy)).squareRoot(),
      ((s * hx) * (s * hx) + (c * hy) * (c * hy)).squareRoot()
    )
  }
}
