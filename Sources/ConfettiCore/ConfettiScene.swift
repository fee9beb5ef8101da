/// The window's and the renderer's particle world: a ring of records and the bursts that fill it.
///
/// Pure: time and randomness come in from outside, so a test drives it with a fixed clock and a
/// seeded generator and gets the same records every time.
public struct ConfettiScene: Sendable {
  /// The records, their upload and their drawn span.
  public var ring: ParticleRing
  /// The seed's bottom-edge cannon.
  public var cannon = CannonBurst()
  /// The burst a click throws at the pointer.
  public var pointerBurst = PointerBurst()
  /// Where every random draw comes from.
  public var random: SplitMix64

  /// A scene holding at most `capacity` particles at once, drawing randomness from `seed`.
  public init(capacity: Int, seed: UInt64) {
    ring = ParticleRing(capacity: capacity)
    random = SplitMix64(seed: seed)
  }

  /// Fires the seed's cannon from the bottom edge of a window of `size` points at clock `time`.
  public mutating func fireCannon(in size: Size, at time: Seconds) {
    ring.append(cannon.spawn(in: size, using: &random), bornAt: time)
  }

  /// Throws a burst at `point` at clock `time`.
  public mutating func burst(at point: Point, at time: Seconds) {
    ring.append(pointerBurst.spawn(at: point, using: &random), bornAt: time)
  }
}

extension ConfettiScene {
  /// The clock reading at which ``cannonShot(count:seed:window:)`` fires: a second in, so that
  /// "time 0" of the shot is a valid instant with room before it.
  public static let shotTime: Seconds = 1

  /// The scene `confetti render` draws: one shot of the seed's cannon, `count` pieces, fired at
  /// ``shotTime`` in a window of `window` points.
  public static func cannonShot(count: Int = 30, seed: UInt64, window: Size) -> ConfettiScene {
    var scene = ConfettiScene(capacity: count, seed: seed)
    scene.cannon.count = count
    scene.fireCannon(in: window, at: shotTime)
    return scene
  }
}
