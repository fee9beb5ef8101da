@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiImage

/// Draws a ``ParticleRing`` with the closed-form vertex shader, one point sprite per particle.
///
/// The GPU buffer mirrors the ring slot for slot and is allocated once. Per frame the renderer
/// sends new records (only those), sets one uniform (the clock) and issues one draw per
/// contiguous live span: two across the wrap, none when nothing is alive.
public final class ParticleRenderer {
  /// How many records the GPU buffer holds.
  public let capacity: Int
  /// What has been sent to the GPU since the last ``resetMeter()``.
  public private(set) var meter = UploadMeter()

  private let sprites: SpriteProgram
  private var program: ShaderProgram { sprites.program }
  private var vertexArray: GLuint = 0
  private var recordBuffer: GLuint = 0
  private var feedbackBuffer: GLuint = 0
  private var feedbackBytes = 0
  private var nowUniform: GLint
  private var emitterTable = EmitterTable()

  /// The vertex outputs transform feedback captures: eleven floats per particle.
  static let capturedOutputs = [
    "v_position", "v_rotation", "v_widthScale", "v_opacity", "v_size", "v_rgba",
  ]
  private static let capturedFloats = 11

  /// The most particles one renderer holds: its records must fit one GL buffer (2 GiB).
  public static let maximumCapacity = Int(Int32.max) / MemoryLayout<ParticleRecord>.stride

  /// Throws unless `capacity` records fit one GL buffer. Call it before building a ring that big.
  public static func check(capacity: Int) throws {
    guard (1...maximumCapacity).contains(capacity) else {
      throw GLError.tooLarge(
        "\(capacity) particles do not fit: the records of 1 to \(maximumCapacity) particles "
          + "fit one GL buffer")
    }
  }

  /// A renderer for rings of `capacity` records, on the current context.
  public init(capacity: Int, info: GLInfo) throws {
    try Self.check(capacity: capacity)
    self.capacity = capacity
    var setup = UploadMeter()
    sprites = try SpriteProgram(
      vertex: .embedded("particle.vert"), attributes: ParticleRecord.attributes,
      feedbackVaryings: Self.capturedOutputs, info: info, meter: &setup)
    nowUniform = sprites.program.uniform("u_now")

    epoxy_glGenVertexArrays(1, &vertexArray)
    epoxy_glBindVertexArray(vertexArray)
    recordBuffer = try allocateBuffer(
      bytes: capacity * MemoryLayout<ParticleRecord>.stride, usage: GL_DYNAMIC_DRAW,
      what: "\(capacity) particles")
    for attribute in ParticleRecord.attributes {
      pointAttribute(attribute, stride: MemoryLayout<ParticleRecord>.stride)
    }
    try checkGL("setting up the particle renderer")
  }

  deinit {
    epoxy_glDeleteVertexArrays(1, &vertexArray)
    epoxy_glDeleteBuffers(1, &recordBuffer)
    if feedbackBuffer != 0 { epoxy_glDeleteBuffers(1, &feedbackBuffer) }
  }

  /// Starts counting uploads afresh.
  public func resetMeter() {
    meter = UploadMeter()
  }

  /// Sends the records appended to `ring` since the last upload: one write per contiguous range.
  public func upload(from ring: inout ParticleRing) throws {
    precondition(ring.capacity == capacity, "the ring and the GPU buffer must match slot for slot")
    try uploadPendingRecords(of: &ring, into: recordBuffer, meter: &meter)
  }

  /// Sends the shape table (polygons, and the images decoded from its paths, in order) if it
  /// differs from the last one sent.
  public func setShapeTable(_ table: ShapeTable, images: [RGBAImage]) throws {
    try sprites.setShapeTable(table, images: images, meter: &meter)
  }

  /// Sends the emitter table (wind, colour ramps, fade-outs, trail spacing) if it differs from
  /// the last one sent: a steady frame sends nothing.
  public func setEmitterTable(_ table: EmitterTable) {
    guard table != emitterTable else { return }
    emitterTable = table
    sendEmitterTable()
  }

  /// Sets the uniforms of ``emitterTable`` on the current program.
  private func sendEmitterTable() {
    let table = emitterTable
    var wind: [GLfloat] = []
    var cycles: [GLuint] = []
    var colorSpeed: [GLfloat] = []
    var trailTicks: [GLuint] = []
    for index in 0..<EmitterTable.capacity {
      let style = table[UInt8(index)]
      wind += [style.wind, style.gustAmplitude, style.gustPhase, style.fadeOut].map { GLfloat($0) }
      cycles.append(style.gustCycles)
      colorSpeed += (0..<4).map { GLfloat(style.colorSpeed[$0]) }
      trailTicks.append(style.trailTicks)
    }
    epoxy_glUseProgram(program.id)
    epoxy_glUniform4fv(program.uniform("u_wind"), GLsizei(EmitterTable.capacity), wind)
    epoxy_glUniform1uiv(program.uniform("u_gustCycles"), GLsizei(EmitterTable.capacity), cycles)
    epoxy_glUniform4fv(
      program.uniform("u_colorSpeed"), GLsizei(EmitterTable.capacity), colorSpeed)
    epoxy_glUniform1uiv(
      program.uniform("u_trailTicks"), GLsizei(EmitterTable.capacity), trailTicks)
    meter.uniformBytes += 4 * (wind.count + cycles.count + colorSpeed.count + trailTicks.count)
    meter.uniformWrites += 4
  }

  /// Maps a window of `window` points onto a framebuffer of `width × height` pixels. Cheap to
  /// call every frame: the GL is touched only when something changed.
  public func setViewport(width: Int, height: Int, window: Size) {
    sprites.setViewport(width: width, height: height, window: window, meter: &meter)
  }

  /// Draws every particle of `ring` that may be alive at clock reading `now`.
  public func draw(_ ring: ParticleRing, at now: Tick) throws {
    if try sprites.prepare(for: ring, meter: &meter) {
      // A new program, built for more shapes: it needs the clock's location and the table.
      nowUniform = program.uniform("u_now")
      sendEmitterTable()
    }
    let clock = nowUniform
    try drawSprites(of: ring, program: program, vertexArray: vertexArray, meter: &meter) {
      epoxy_glUniform1ui(clock, now.rawValue)
      return MemoryLayout<UInt32>.size
    }
  }

  /// Runs the vertex shader over `slots` at clock `now` and returns what it computed for each
  /// slot: the GPU half of the parity tests. Nothing is rasterised. With `trailCopies` k > 0,
  /// every slot is also run as trail copies 1…k: copy c of slot s is at c · slots.count + s.
  public func capture(slots: Range<Int>, at now: Tick, trailCopies: Int = 0) throws
    -> [CapturedParticle]
  {
    precondition(slots.lowerBound >= 0 && slots.upperBound <= capacity, "slots out of range")
    let instances = trailCopies + 1
    let bytes = instances * slots.count * Self.capturedFloats * MemoryLayout<Float>.stride
    if bytes > feedbackBytes {
      if feedbackBuffer == 0 { epoxy_glGenBuffers(1, &feedbackBuffer) }
      epoxy_glBindBuffer(GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), feedbackBuffer)
      epoxy_glBufferData(
        GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), GLsizeiptr(bytes), nil, GLenum(GL_STREAM_READ))
      feedbackBytes = bytes
    }
    epoxy_glUseProgram(program.id)
    epoxy_glBindVertexArray(vertexArray)
    setClock(now)
    epoxy_glBindBufferBase(GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), 0, feedbackBuffer)
    epoxy_glEnable(GLenum(GL_RASTERIZER_DISCARD))
    epoxy_glBeginTransformFeedback(GLenum(GL_POINTS))
    epoxy_glDrawArraysInstanced(
      GLenum(GL_POINTS), GLint(slots.lowerBound), GLsizei(slots.count), GLsizei(instances))
    epoxy_glEndTransformFeedback()
    epoxy_glDisable(GLenum(GL_RASTERIZER_DISCARD))
    var floats = [Float](repeating: .nan, count: instances * slots.count * Self.capturedFloats)
    epoxy_glBindBuffer(GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), feedbackBuffer)
    epoxy_glGetBufferSubData(GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), 0, GLsizeiptr(bytes), &floats)
    try checkGL("capturing \(slots.count) particles with transform feedback")
    let v = floats.map(Double.init)
    return stride(from: 0, to: v.count, by: Self.capturedFloats).map { i in
      let position = Point(x: v[i], y: v[i + 1])
      let size = Size(width: v[i + 5], height: v[i + 6])
      return CapturedParticle(
        position: position, rotation: v[i + 2], widthScale: v[i + 3], opacity: v[i + 4],
        size: size, color: SIMD4(v[i + 7], v[i + 8], v[i + 9], v[i + 10]))
    }
  }

  private func setClock(_ now: Tick) {
    epoxy_glUniform1ui(nowUniform, now.rawValue)
    meter.uniformBytes += MemoryLayout<UInt32>.size
    meter.uniformWrites += 1
  }
}

/// What the vertex shader computed for one particle, read back by transform feedback.
public struct CapturedParticle: Equatable, Sendable {
  public var position: Point
  public var rotation: Degrees
  public var widthScale: Double
  public var opacity: Double
  /// The apparent size in points.
  public var size: Size
  /// Red, green, blue, alpha after the emitter's colour ramp.
  public var color: SIMD4<Double>
}
