/// The initial conditions of one piece of confetti: everything the closed form needs, in Double.
///
/// Spawners produce these; ``ParticleRecord`` packs one into the 64 bytes the GPU reads, and
/// ``ParticleRecord/particle`` unpacks it again, so the CPU reference can evaluate exactly what the
/// GPU evaluates, quantisation included.
public struct ConfettiParticle: Equatable, Sendable {
  /// Where the particle starts, in points. Default: the origin.
  public var origin = Point(x: 0, y: 0)
  /// Initial horizontal speed in pt/s. Also picks the side of the outward spread.
  public var velocityX: PointsPerSecond = 0
  /// Initial vertical speed in pt/s; negative is up.
  public var velocityY: PointsPerSecond = 0
  /// Downward acceleration in pt/s² (negative pulls up). Default 280, the seed's gravity.
  public var gravity: PointsPerSecondSquared = ConfettiPhysics.gravity
  /// Sideways acceleration in pt/s² (CAEmitterCell's xAcceleration). Default 0.
  public var accelerationX: PointsPerSecondSquared = 0
  /// Horizontal air drag in 1/s: velocity decays as e^(−k·t). 0 is ballistic. Default 1.6.
  public var dragX: PerSecond = ConfettiPhysics.drag
  /// Vertical air drag in 1/s; with gravity it sets the terminal velocity g/k. Default 1.6.
  public var dragY: PerSecond = ConfettiPhysics.drag
  /// Growth of the size per second, as a share of the size at birth (CAEmitterCell's
  /// scaleSpeed over its scale): size × max(0, 1 + scaleSpeed·t). Default 0.
  public var scaleSpeed: PerSecond = 0
  /// Whether the size follows the remaining life, 1 → 0 (the tap-burst seed's r = base·life).
  public var shrinksWithLife = false
  /// Which entry of the ``EmitterTable`` (wind, colour ramp) this particle follows. Default 0.
  public var emitter: UInt8 = 0
  /// How long the particle lives, in seconds. Default 1.5, the seed's.
  public var lifetime: Seconds = 1.5
  /// The closing stretch of the lifetime over which opacity ramps to 0, in seconds. Default 0.4.
  public var fade: Seconds = 0.4
  /// The unflipped size in points. Default 10×10, the seed's square piece.
  public var size = Size(width: 10, height: 10)
  /// Fill colour. Default: the seed's red.
  public var color = RGBA8.red
  /// Rotation at birth, in degrees, clockwise on screen.
  public var rotation: Degrees = 0
  /// Rotation speed, in degrees per second.
  public var spin: Double = 0
  /// Flutter (horizontal sway) amplitude in points. Seed: 25–45.
  public var flutterAmplitude: Points = 0
  /// Flutter rate, applied directly inside sin() as the seed does: the seed's "4–7 Hz" are rad/s.
  public var flutterFrequency: PerSecond = 0
  /// Flutter phase at birth, in radians.
  public var flutterPhase: Radians = 0
  /// Tumble rate of the fake 3D flip, inside cos() like the flutter. Seed: 3–6.
  public var flipFrequency: PerSecond = 0
  /// Tumble phase at birth, in radians.
  public var flipPhase: Radians = 0
  /// Whether the piece tumbles (its width follows |cos|); false draws it flat.
  public var flips = true
  /// Outward drift in pt/s², growing as t², to the side the horizontal velocity points. Seed: 8–18.
  public var spread: PointsPerSecondSquared = 0
  /// The outline drawn.
  public var shape = ParticleShape.rectangle

  public init() {}

  /// Air drag on both axes, in 1/s.
  public var drag: PerSecond {
    get { dragY }
    set { (dragX, dragY) = (newValue, newValue) }
  }
}

/// The outline a particle is drawn with.
public enum ParticleShape: UInt8, CaseIterable, Sendable {
  /// A w×h rectangle, the seed's paper piece.
  case rectangle = 0
  /// An ellipse inscribed in the w×h rectangle.
  case circle = 1
}
