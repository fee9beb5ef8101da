/// One particle's initial conditions as the GPU reads them: 68 bytes, written once at birth.
///
/// The vertex shader evaluates the closed form from these fields, the time uniform and the
/// emitter table alone; the CPU reference evaluates it from the same fields (``particle`` unpacks
/// them), so whatever the packing rounds away is rounded away for both.
///
/// Layout, byte by byte (asserted by `ParticleRecordLayoutTests`):
///
///     offset size  field                                           type            attribute
///      0     8     originX, originY (pt)                           2 × Float32     a_origin
///      8     8     velocityX, velocityY (pt/s)                     2 × Float32     a_velocity
///     16     4     birth (ticks)                                   UInt32          a_birth
///     20     4     accelerationX, gravity (pt/s²)                  2 × Float16     a_accel
///     24     4     dragX, dragY (1/s)                              2 × Float16     a_drag
///     28     4     red, green, blue, alpha                         4 × UInt8 norm. a_color
///     32     8     lifetime s, fade s, width pt, height pt         4 × Float16     a_lifeSize
///     40     8     rotation °, spin °/s, spread pt/s², flutterAmplitude pt   4 × Float16  a_spin
///     48     8     flutterFrequency, flutterPhase, flipFrequency, flipPhase  4 × Float16  a_waves
///     56     4     shape, flags, emitter, trail                    4 × UInt8       a_style
///     60     4     scaleSpeed (1/s), emitterFadeAt (s)             2 × Float16     a_growth
///     64     4     landing (s after birth; infinity: never)         Float32         a_landing
///
/// Positions and velocities stay 32-bit: a half float's step at 1000 pt is half a point.
/// Everything else is bounded and small, where a half float's 11 significant bits are plenty,
/// but the landing time: the piece must stop on its floor, neither above it nor below, and a half
/// float's step at 8 s is 4 ms, a point and more of fall.
package struct ParticleRecord: Equatable, Sendable {
  package var originX: Float
  package var originY: Float
  package var velocityX: Float
  package var velocityY: Float
  /// The birth instant as a ``Tick`` raw value.
  package var birth: UInt32
  package var accelerationX: Float16
  package var gravity: Float16
  package var dragX: Float16
  package var dragY: Float16
  package var red: UInt8
  package var green: UInt8
  package var blue: UInt8
  package var alpha: UInt8
  package var lifetime: Float16
  package var fade: Float16
  package var width: Float16
  package var height: Float16
  package var rotation: Float16
  package var spin: Float16
  package var spread: Float16
  package var flutterAmplitude: Float16
  package var flutterFrequency: Float16
  package var flutterPhase: Float16
  package var flipFrequency: Float16
  package var flipPhase: Float16
  package var shape: UInt8
  package var flags: UInt8
  /// The index of the particle's entry in the ``CellTable``.
  package var emitter: UInt8
  package var trail: UInt8
  package var scaleSpeed: Float16
  package var emitterFadeAt: Float16
  package var landing: Float

  /// Bit 0 of ``flags``: the piece tumbles (fake 3D flip).
  package static let flipsFlag: UInt8 = 1
  /// Bit 1 of ``flags``: the size follows the remaining life.
  package static let shrinksFlag: UInt8 = 2
  /// Bit 2 of ``flags``: the back face is drawn darker.
  package static let darkensBackFlag: UInt8 = 4

  /// The longest lifetime a record may carry, in seconds: far below half the tick wrap
  /// (2³¹ ticks ≈ 34 minutes), so a particle's age is never ambiguous.
  package static let maximumLifetime: Seconds = 600

  /// Packs a particle born at `birth`.
  package init(_ p: ConfettiParticle, birth: Tick) {
    precondition(p.dragX >= 0 && p.dragY >= 0, "drag cannot be negative")
    precondition(p.lifetime > 0 && p.lifetime <= Self.maximumLifetime, "lifetime out of range")
    originX = Float(p.origin.x)
    originY = Float(p.origin.y)
    velocityX = Float(p.velocityX)
    velocityY = Float(p.velocityY)
    self.birth = birth.rawValue
    accelerationX = Float16(p.accelerationX)
    gravity = Float16(p.gravity)
    dragX = Float16(p.dragX)
    dragY = Float16(p.dragY)
    red = p.color.red
    green = p.color.green
    blue = p.color.blue
    alpha = p.color.alpha
    lifetime = Float16(p.lifetime)
    fade = Float16(p.fade)
    width = Float16(p.size.width)
    height = Float16(p.size.height)
    rotation = Float16(p.rotation)
    spin = Float16(p.spin)
    spread = Float16(p.spread)
    flutterAmplitude = Float16(p.flutterAmplitude)
    flutterFrequency = Float16(p.flutterFrequency)
    flutterPhase = Float16(p.flutterPhase)
    flipFrequency = Float16(p.flipFrequency)
    flipPhase = Float16(p.flipPhase)
    shape = p.shape.rawValue
    flags =
      (p.flips ? Self.flipsFlag : 0) | (p.shrinksWithLife ? Self.shrinksFlag : 0)
      | (p.darkensBack ? Self.darkensBackFlag : 0)
    emitter = p.emitter
    trail = min(p.trail, ConfettiParticle.maximumTrail)
    scaleSpeed = Float16(p.scaleSpeed)
    // Rounded down, so the packed fade never starts later than the emitter's.
    let fadeAt = Float16(p.emitterFadeAt)
    emitterFadeAt = Double(fadeAt) > p.emitterFadeAt ? fadeAt.nextDown : fadeAt
    landing = Float(p.landing)
  }

  /// The longest diagonal, in points, the piece reaches over its life: its size grown by its
  /// scale speed until it dies (shrinking and trail copies only make it smaller).
  package var largestDiagonal: Points {
    let (w, h) = (Double(width), Double(height))
    return (w * w + h * h).squareRoot() * max(1, 1 + Double(scaleSpeed) * Double(lifetime))
  }

  /// The particle exactly as the shader sees it: every field widened from its packed form.
  package var particle: ConfettiParticle {
    var p = ConfettiParticle()
    p.origin = Point(x: Double(originX), y: Double(originY))
    p.velocityX = Double(velocityX)
    p.velocityY = Double(velocityY)
    p.accelerationX = Double(accelerationX)
    p.gravity = Double(gravity)
    p.dragX = Double(dragX)
    p.dragY = Double(dragY)
    p.lifetime = Double(lifetime)
    p.fade = Double(fade)
    p.size = Size(width: Double(width), height: Double(height))
    p.color = RGBA8(red: red, green: green, blue: blue, alpha: alpha)
    p.rotation = Double(rotation)
    p.spin = Double(spin)
    p.spread = Double(spread)
    p.flutterAmplitude = Double(flutterAmplitude)
    p.flutterFrequency = Double(flutterFrequency)
    p.flutterPhase = Double(flutterPhase)
    p.flipFrequency = Double(flipFrequency)
    p.flipPhase = Double(flipPhase)
    p.flips = flags & Self.flipsFlag != 0
    p.shrinksWithLife = flags & Self.shrinksFlag != 0
    p.darkensBack = flags & Self.darkensBackFlag != 0
    p.shape = ParticleShape(rawValue: shape)
    p.emitter = emitter
    p.trail = trail
    p.scaleSpeed = Double(scaleSpeed)
    p.emitterFadeAt = Double(emitterFadeAt)
    p.landing = Double(landing)
    return p
  }
}

/// How one shader attribute is read from a ``ParticleRecord``.
package struct RecordAttribute: Equatable, Sendable {
  /// The element type of each component in the record.
  package enum Component: Equatable, Sendable {
    /// 32-bit float, read as float.
    case float32
    /// 16-bit float, read as float.
    case float16
    /// 8-bit unsigned, normalised to [0, 1].
    case normalizedUInt8
    /// 8-bit unsigned, read as an integer (uvec).
    case uint8
    /// 32-bit unsigned, read as an integer (uint).
    case uint32
  }

  /// The `in` variable's name in the vertex shader.
  package var name: String
  /// The attribute location the GL layer binds that name to before linking.
  package var location: UInt32
  package var component: Component
  package var count: Int
  /// Byte offset within the record.
  package var offset: Int

  package init(name: String, location: UInt32, component: Component, count: Int, offset: Int) {
    (self.name, self.location, self.component) = (name, location, component)
    (self.count, self.offset) = (count, offset)
  }
}

extension ParticleRecord {
  /// The record's attributes: the one place their names, locations and offsets are written.
  /// The GL layer binds these names to these locations before it links any program.
  package static let attributes: [RecordAttribute] = [
    RecordAttribute(name: "a_origin", location: 0, component: .float32, count: 2, offset: 0),
    RecordAttribute(name: "a_velocity", location: 1, component: .float32, count: 2, offset: 8),
    RecordAttribute(name: "a_birth", location: 2, component: .uint32, count: 1, offset: 16),
    RecordAttribute(name: "a_accel", location: 3, component: .float16, count: 2, offset: 20),
    RecordAttribute(name: "a_drag", location: 4, component: .float16, count: 2, offset: 24),
    RecordAttribute(
      name: "a_color", location: 5, component: .normalizedUInt8, count: 4, offset: 28),
    RecordAttribute(name: "a_lifeSize", location: 6, component: .float16, count: 4, offset: 32),
    RecordAttribute(name: "a_spin", location: 7, component: .float16, count: 4, offset: 40),
    RecordAttribute(name: "a_waves", location: 8, component: .float16, count: 4, offset: 48),
    RecordAttribute(name: "a_style", location: 9, component: .uint8, count: 4, offset: 56),
    RecordAttribute(name: "a_growth", location: 10, component: .float16, count: 2, offset: 60),
    RecordAttribute(name: "a_landing", location: 11, component: .float32, count: 1, offset: 64),
  ]
}
