import Foundation

/// The seed's closed-form confetti motion, evaluated on the CPU in Double.
///
/// This is the reference the vertex shader (`Shaders/particle.vert`) is tested against: the same
/// formulas, term by term, in the same order. For a particle of age t:
///
///     D = 1 − exp(−k·t)                 the share of the initial velocity spent on drag
///     x = x0 + (vx/k)·D + A·sin(ω·t + φ) + sgn(vx)·S·t²
///     y = y0 + (vy/k)·D + vT·(t − D/k)  with vT = g/k, the terminal velocity
///     rotation = r0 + spin·t
///     width    = w · max(0.15, |cos(ωf·t + φf)|)
///     opacity  = (lifetime − t) / fade in the last `fade` seconds, else 1
public enum ConfettiPhysics {
  /// The seed's gravity, in pt/s².
  public static let gravity: PointsPerSecondSquared = 280
  /// The seed's drag coefficient, in 1/s.
  public static let drag: PerSecond = 1.6
  /// The narrowest a tumbling piece gets, as a share of its width, so it never vanishes edge-on.
  public static let flipFloor = 0.15

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
  /// alive then (age < 0 or age ≥ lifetime).
  public static func state(of particle: ConfettiParticle, age t: Seconds) -> ParticleState? {
    guard t >= 0, t < particle.lifetime else { return nil }
    let p = particle
    let k = p.drag
    let drift = dragFactor(drag: k, age: t)
    let terminal = terminalVelocity(gravity: p.gravity, drag: k)
    let side: Double = p.velocityX >= 0 ? 1 : -1
    let x =
      p.origin.x + (p.velocityX / k) * drift
      + p.flutterAmplitude * sin(p.flutterFrequency * t + p.flutterPhase)
      + side * p.spread * t * t
    let y = p.origin.y + (p.velocityY / k) * drift + terminal * (t - drift / k)
    return ParticleState(
      position: Point(x: x, y: y),
      rotation: p.rotation + p.spin * t,
      widthScale: p.flips ? flipScale(frequency: p.flipFrequency, phase: p.flipPhase, age: t) : 1,
      opacity: opacity(age: t, lifetime: p.lifetime, fade: p.fade)
    )
  }

  /// The reference evaluation of a packed record at the GPU's clock reading `now`: the record is
  /// unpacked exactly as the shader reads it, and the age is the same tick difference.
  public static func state(of record: ParticleRecord, at now: Tick) -> ParticleState? {
    state(of: record.particle, age: now.seconds(since: Tick(rawValue: record.birth)))
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
  /// Opacity in [0, 1].
  public var opacity: Double
}
