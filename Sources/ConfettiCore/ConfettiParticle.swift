/// The initial conditions of one piece of confetti: everything the closed form needs, in Double.
///
/// Spawners produce these; ``ParticleRecord`` packs one into the 68 bytes the GPU reads, and
/// ``ParticleRecord/particle`` unpacks it again, so the CPU reference can evaluate exactly what the
/// GPU evaluates, quantisation included.
package struct ConfettiParticle: Equatable, Sendable {
  /// Where the particle starts, in points. Default: the origin.
  package var origin = Point(x: 0, y: 0)
  /// Initial horizontal speed in pt/s. Also picks the side of the outward spread.
  package var velocityX: PointsPerSecond = 0
  /// Initial vertical speed in pt/s; negative is up.
  package var velocityY: PointsPerSecond = 0
  /// Downward acceleration in pt/s² (negative pulls up). Default 280, the classic gravity.
  package var gravity: PointsPerSecondSquared = ConfettiPhysics.gravity
  /// Sideways acceleration in pt/s² (CAEmitterCell's xAcceleration). Default 0.
  package var accelerationX: PointsPerSecondSquared = 0
  /// Horizontal air drag in 1/s: velocity decays as e^(−k·t). 0 is ballistic. Default 1.6.
  package var dragX: PerSecond = ConfettiPhysics.drag
  /// Vertical air drag in 1/s; with gravity it sets the terminal velocity g/k. Default 1.6.
  package var dragY: PerSecond = ConfettiPhysics.drag
  /// Growth of the size per second, as a share of the size at birth (CAEmitterCell's
  /// scaleSpeed over its scale): size × max(0, 1 + scaleSpeed·t). Default 0.
  package var scaleSpeed: PerSecond = 0
  /// Whether the size follows the remaining life, 1 → 0 (the tap-burst effect's r = base·life).
  package var shrinksWithLife = false
  /// Which entry of the ``CellTable`` (wind, colour ramp) this particle follows. Default 0.
  package var emitter: UInt8 = 0
  /// How long the particle lives, in seconds. Default 1.5, the classic cannon's.
  package var lifetime: Seconds = 1.5
  /// The closing stretch of the lifetime over which opacity ramps to 0, in seconds. Default 0.4.
  package var fade: Seconds = 0.4
  /// The unflipped size in points. Default 10×10, the classic square piece.
  package var size = Size(width: 10, height: 10)
  /// Fill colour. Default: the classic red.
  package var color = RGBA8.red
  /// Rotation at birth, in degrees, clockwise on screen.
  package var rotation: Degrees = 0
  /// Rotation speed, in degrees per second.
  package var spin: Double = 0
  /// Flutter (horizontal sway) amplitude in points. Classic: 25–45.
  package var flutterAmplitude: Points = 0
  /// Flutter rate, applied directly inside sin() as the classic confetti does: its "4–7 Hz" are rad/s.
  package var flutterFrequency: PerSecond = 0
  /// Flutter phase at birth, in radians.
  package var flutterPhase: Radians = 0
  /// Tumble rate of the fake 3D flip, inside cos() like the flutter. Classic: 3–6.
  package var flipFrequency: PerSecond = 0
  /// Tumble phase at birth, in radians.
  package var flipPhase: Radians = 0
  /// Whether the piece tumbles (its width follows |cos|); false draws it flat.
  package var flips = true
  /// Whether the piece looks darker while its back faces the viewer (cos of the tumble < 0).
  package var darkensBack = false
  /// Outward drift in pt/s², growing as t², to the side the horizontal velocity points. Classic: 8–18.
  package var spread: PointsPerSecondSquared = 0
  /// The outline drawn.
  package var shape = ParticleShape.rectangle
  /// Earlier positions drawn behind the particle, fading: 0 to ``maximumTrail``. Their spacing in
  /// time is the emitter's (``CellStyle/trailSpacing``).
  package var trail: UInt8 = 0
  /// Seconds after birth when the particle's emitter starts to fade out (over the emitter's
  /// ``CellStyle/fadeOut``), taking the particle with it. Infinity: never.
  package var emitterFadeAt: Seconds = .infinity
  /// Seconds after birth when the piece lands on its emitter's floor and stops there: its
  /// position, spin, tumble, sway and size stay as they were at that moment, except that paper
  /// then settles flat (``ConfettiPhysics/settle(rotation:tumble:size:after:elliptical:)``);
  /// colour and opacity go on. Infinity: it never lands. Solved once, at birth (``landingTime(onto:)``).
  package var landing: Seconds = .infinity

  package init() {}

  /// Air drag on both axes, in 1/s.
  package var drag: PerSecond {
    get { dragY }
    set { (dragX, dragY) = (newValue, newValue) }
  }
}

/// The outline a particle is drawn with: a built-in shape, one of the scene's polygons, or one of
/// its images (a cell of the texture atlas). One byte in the record.
public struct ParticleShape: Hashable, Sendable, CustomStringConvertible {
  /// Its code: the byte the record stores.
  public var rawValue: UInt8

  /// The shape whose code is `rawValue`.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// A rectangle of the piece's size: paper confetti.
  public static let rectangle = ParticleShape(rawValue: 0)
  /// An ellipse filling the piece's size.
  public static let circle = ParticleShape(rawValue: 1)
  /// A triangle pointing up.
  public static let triangle = ParticleShape(rawValue: 2)
  /// A five-pointed star.
  public static let star = ParticleShape(rawValue: 3)
  /// A soft glow: an ellipse whose light falls smoothly from full at its centre to nothing at its
  /// edge, (1 − r²)², for fire, sparks and light (best with additive blending).
  public static let glow = ParticleShape(rawValue: 4)
  /// What a stretched piece is drawn as (``CellStyle/stretch``): a capsule along its path,
  /// from transparent at its tail to full at its head. Not a shape cells choose.
  package static let streak = ParticleShape(rawValue: 5)
  /// The built-in shapes by name, as configuration files spell them.
  public static let named: [(String, ParticleShape)] = [
    ("rectangle", .rectangle), ("circle", .circle), ("triangle", .triangle), ("star", .star),
    ("glow", .glow),
  ]

  /// How many polygons of its own (besides the built-in triangle and star:
  /// `ShapeTable.outlineCapacity` in all) and images one scene may use (the shader's tables).
  package static let polygonCapacity = 8
  package static let imageCapacity = 16
  /// The first code of a scene's own polygons, then of its images (the shader's too).
  package static let firstPolygon: UInt8 = 16
  package static let firstImage: UInt8 = 64

  /// The scene's polygon `index` (``ShapeTable/polygons``).
  package static func polygon(_ index: Int) -> ParticleShape {
    precondition((0..<polygonCapacity).contains(index), "polygon index out of range")
    return ParticleShape(rawValue: firstPolygon + UInt8(index))
  }

  /// The scene's image `index` (``ShapeTable/images``).
  package static func image(_ index: Int) -> ParticleShape {
    precondition((0..<imageCapacity).contains(index), "image index out of range")
    return ParticleShape(rawValue: firstImage + UInt8(index))
  }

  /// Whether its sprite is bounded by an ellipse (a circle, a glow) rather than a rectangle.
  package var isElliptical: Bool { self == .circle || self == .glow }

  /// What the shaders must compute to cut this shape, beyond a rectangle.
  package var features: ShaderFeatures {
    if rawValue >= Self.firstImage { return .images }
    if rawValue >= Self.firstPolygon || self == .triangle || self == .star { return .polygons }
    switch self {
    case .circle: return .circles
    case .glow: return .glows
    case .streak: return .streaks
    default: return []
    }
  }

  public var description: String {
    if let name = Self.named.first(where: { $0.1 == self })?.0 { return name }
    if rawValue >= Self.firstImage { return "image \(rawValue - Self.firstImage)" }
    if rawValue >= Self.firstPolygon { return "polygon \(rawValue - Self.firstPolygon)" }
    return "shape \(rawValue)"
  }
}

extension ConfettiParticle {
  /// The most trail copies a particle may have.
  package static let maximumTrail: UInt8 = 16

  /// How long after its birth the particle (and its trail) can last be seen, given its emitter.
  package func visibleSpan(style: CellStyle) -> Seconds {
    ownLife(style: style) + Double(trail) * style.trailSpacing
  }

  /// How long after its birth the particle itself (its trail aside) can last be seen: its life,
  /// or its emitter's fade-out, whichever ends first.
  package func ownLife(style: CellStyle) -> Seconds {
    min(lifetime, emitterFadeAt + style.fadeOut)
  }
}
