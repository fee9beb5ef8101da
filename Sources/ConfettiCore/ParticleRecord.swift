/// One particle's initial conditions as the GPU reads them: 64 bytes, written once at birth.
///
/// The vertex shader evaluates the closed form from these fields and the time uniform alone; the
/// CPU reference evaluates it from the same fields (``particle`` unpacks them), so whatever the
/// packing rounds away is rounded away for both.
///
/// Layout, byte by byte (asserted by `ParticleRecordLayoutTests`):
///
///     offset size  field                                  type            shader attribute
///      0     8     originX, originY            pt         2 × Float32     a_origin    vec2
///      8     8     velocityX, velocityY        pt/s       2 × Float32     a_velocity  vec2
///     16     4     birth                       ticks      UInt32          a_birth     uint
///     20     8     gravity pt/s², drag 1/s                2 × Float32     a_forces    vec2
///     28     4     red, green, blue, alpha                4 × UInt8 norm. a_color     vec4
///     32     8     lifetime s, fade s, width pt, height pt            4 × Float16     a_lifeSize  vec4
///     40     8     rotation °, spin °/s, spread pt/s², flutterAmplitude pt 4 × Float16 a_spin vec4
///     48     8     flutterFrequency, flutterPhase, flipFrequency, flipPhase   4 × Float16 a_waves vec4
///     56     4     shape, flags, 2 reserved               4 × UInt8       a_style     uvec4
///     60     4     reserved (keeps the stride at 64, a cache line)
///
/// Positions, velocities and forces stay 32-bit: a half float's step at 1000 pt is half a point.
/// Everything else is bounded and small, where a half float's 11 significant bits are plenty.
public struct ParticleRecord: Equatable, Sendable {
  public var originX: Float
  public var originY: Float
  public var velocityX: Float
  public var velocityY: Float
  /// The birth instant as a ``Tick`` raw value.
  public var birth: UInt32
  public var gravity: Float
  public var drag: Float
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8
  public var alpha: UInt8
  public var lifetime: Float16
  public var fade: Float16
  public var width: Float16
  public var height: Float16
  public var rotation: Float16
  public var spin: Float16
  public var spread: Float16
  public var flutterAmplitude: Float16
  public var flutterFrequency: Float16
  public var flutterPhase: Float16
  public var flipFrequency: Float16
  public var flipPhase: Float16
  public var shape: UInt8
  public var flags: UInt8
  public var reserved0: UInt8 = 0
  public var reserved1: UInt8 = 0
  public var reserved2: UInt32 = 0

  /// Bit 0 of ``flags``: the piece tumbles (fake 3D flip).
  public static let flipsFlag: UInt8 = 1

  /// The longest lifetime a record may carry, in seconds: far below half the tick wrap
  /// (2³¹ ticks ≈ 34 minutes), so a particle's age is never ambiguous.
  public static let maximumLifetime: Seconds = 600

  /// Packs a particle born at `birth`.
  public init(_ p: ConfettiParticle, birth: Tick) {
    precondition(p.drag > 0, "the closed form needs a positive drag")
    precondition(p.lifetime > 0 && p.lifetime <= Self.maximumLifetime, "lifetime out of range")
    originX = Float(p.origin.x)
    originY = Float(p.origin.y)
    velocityX = Float(p.velocityX)
    velocityY = Float(p.velocityY)
    self.birth = birth.rawValue
    gravity = Float(p.gravity)
    drag = Float(p.drag)
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
    flags = p.flips ? Self.flipsFlag : 0
  }

  /// The particle exactly as the shader sees it: every field widened from its packed form.
  public var particle: ConfettiParticle {
    var p = ConfettiParticle()
    p.origin = Point(x: Double(originX), y: Double(originY))
    p.velocityX = Double(velocityX)
    p.velocityY = Double(velocityY)
    p.gravity = Double(gravity)
    p.drag = Double(drag)
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
    p.shape = ParticleShape(rawValue: shape) ?? .rectangle
    return p
  }
}

/// How one shader attribute is read from a ``ParticleRecord``.
public struct RecordAttribute: Equatable, Sendable {
  /// The element type of each component in the record.
  public enum Component: Equatable, Sendable {
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
  public var name: String
  /// The attribute location the GL layer binds that name to before linking.
  public var location: UInt32
  public var component: Component
  public var count: Int
  /// Byte offset within the record.
  public var offset: Int

  public init(name: String, location: UInt32, component: Component, count: Int, offset: Int) {
    (self.name, self.location, self.component) = (name, location, component)
    (self.count, self.offset) = (count, offset)
  }
}

extension ParticleRecord {
  /// The record's attributes: the one place their names, locations and offsets are written.
  /// The GL layer binds these names to these locations before it links any program.
  public static let attributes: [RecordAttribute] = [
    RecordAttribute(name: "a_origin", location: 0, component: .float32, count: 2, offset: 0),
    RecordAttribute(name: "a_velocity", location: 1, component: .float32, count: 2, offset: 8),
    RecordAttribute(name: "a_birth", location: 2, component: .uint32, count: 1, offset: 16),
    RecordAttribute(name: "a_forces", location: 3, component: .float32, count: 2, offset: 20),
    RecordAttribute(
      name: "a_color", location: 4, component: .normalizedUInt8, count: 4, offset: 28),
    RecordAttribute(name: "a_lifeSize", location: 5, component: .float16, count: 4, offset: 32),
    RecordAttribute(name: "a_spin", location: 6, component: .float16, count: 4, offset: 40),
    RecordAttribute(name: "a_waves", location: 7, component: .float16, count: 4, offset: 48),
    RecordAttribute(name: "a_style", location: 8, component: .uint8, count: 4, offset: 56),
  ]
}
