import Foundation

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
///     colour   = clamp(colour0 + colourSpeed·t, 0, 1)
///     opacity  = (lifetime − t) / fade in the last `fade` seconds, else 1
///
/// With the seed's values (no wind, kx = ky = k) this is the seed's formula exactly:
/// vy·E + g·F = (vy/k)·D + (g/k)·(t − D/k) with D = 1 − e^(−k·t).
public enum ConfettiPhysics {
  /// The seed's gravity, in pt/s².
  public static let gravity: PointsPerSecondSquared = 280
  /// The seed's drag coefficient, in 1/s.
  public static let drag: PerSecond = 1.6
  /// The narrowest a tumbling piece gets, as a share of its width, so it never vanishes edge-on.
  public static let flipFloor = 0.15
  /// Below this k·t, E and F come from their Taylor series: the closed forms divide by a k
  /// that may be 0, and lose digits to cancellation when k·t is small.
  public static let seriesLimit = 0.25

  /// The speed at which drag balances gravity, in pt/s: g/k (175 pt/s for the seed's values).
  public static func terminalVelocity(gravity: PointsPerSecondSquared, drag: PerSecond)
    -> PointsPerSecond
  {
    gravity / drag
  }

  /// D = 1 − exp(−k·t): the fraction of the initial velocity drag has spent after `age` seconds.
  public static func dragFactor(drag: PerSecond, age: Seconds) -> Double {
    1 - exp(-drag * age)
  }

  /// E(k, t) = (1 − e^(−k·t)) / k, in seconds: the distance a unit initial velocity carries
  /// against drag `k` in `t` seconds (t itself when k = 0).
  public static func velocityResponse(drag k: PerSecond, age t: Seconds) -> Seconds {
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
  public static func accelerationResponse(drag k: PerSecond, age t: Seconds) -> Double {
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
  public static func opacity(age: Seconds, lifetime: Seconds, fade: Seconds) -> Double {
    let remaining = lifetime - age
    return remaining < fade ? remaining / fade : 1
  }

  /// The apparent width as a share of the real one while the piece tumbles: max(0.15, |cos θ|).
  public static func flipScale(frequency: PerSecond, phase: Radians, age: Seconds) -> Double {
    max(flipFloor, abs(cos(frequency * age + phase)))
  }

  /// Where and how a particle is drawn at `age` seconds after its birth, or nil when it is not
  /// alive then (age < 0 or age ≥ lifetime). `style` gives its emitter's wind and colour ramp;
  /// `now` is the scene clock the gust follows.
  public static func state(
    of particle: ConfettiParticle, age t: Seconds, style: EmitterStyle = .plain,
    now: Tick = Tick(rawValue: 0)
  ) -> ParticleState? {
    guard t >= 0, t < particle.lifetime else { return nil }
    let p = particle
    let (kx, ky) = (p.dragX, p.dragY)
    let ex = velocityResponse(drag: kx, age: t)
    let ey = velocityResponse(drag: ky, age: t)
    let fx = accelerationResponse(drag: kx, age: t)
    let fy = accelerationResponse(drag: ky, age: t)
    let side: Double = p.velocityX >= 0 ? 1 : -1
    let x =
      p.origin.x + p.velocityX * ex + (p.accelerationX + kx * style.wind) * fx
      + p.flutterAmplitude * sin(p.flutterFrequency * t + p.flutterPhase)
      + side * p.spread * t * t
      + style.gustAmplitude * kx * ex * sin(style.gustAngle(at: now))
    let y = p.origin.y + p.velocityY * ey + p.gravity * fy
    let remaining = p.lifetime - t
    let growth = max(0, 1 + p.scaleSpeed * t) * (p.shrinksWithLife ? remaining / p.lifetime : 1)
    let flip = p.flips ? flipScale(frequency: p.flipFrequency, phase: p.flipPhase, age: t) : 1
    let base =
      SIMD4(Double(p.color.red), Double(p.color.green), Double(p.color.blue), Double(p.color.alpha))
      / 255
    let color = (base + style.colorSpeed * t).clamped(lowerBound: .zero, upperBound: .one)
    return ParticleState(
      position: Point(x: x, y: y),
      rotation: p.rotation + p.spin * t,
      widthScale: flip,
      size: Size(width: p.size.width * flip * growth, height: p.size.height * growth),
      color: color,
      opacity: opacity(age: t, lifetime: p.lifetime, fade: p.fade)
    )
  }

  /// The reference evaluation of a packed record at the GPU's clock reading `now`: the record is
  /// unpacked exactly as the shader reads it, and the age is the same tick difference.
  public static func state(
    of record: ParticleRecord, at now: Tick, table: EmitterTable = .plain
  ) -> ParticleState? {
    state(
      of: record.particle, age: now.seconds(since: Tick(rawValue: record.birth)),
      style: table[record.emitter], now: now)
  }
}

/// What the closed form yields for one particle at one moment.
public struct ParticleState: Equatable, Sendable {
  /// The centre of the piece, in points.
  public var position: Point
  /// Clockwise rotation on screen, in degrees.
  public var rotation: Degrees
  /// The apparent width as a share of the real width (the fake 3D flip), in [0.15, 1].
  public var widthScale: Double
  /// The apparent size in points: flip, growth and shrinking applied.
  public var size: Size
  /// Red, green, blue, alpha in [0, 1], after the emitter's colour ramp.
  public var color: SIMD4<Double>
  /// Opacity in [0, 1].
  public var opacity: Double
}
