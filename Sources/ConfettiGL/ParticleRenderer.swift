@preconcurrency import CEpoxy
import ConfettiCore

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

  private let info: GLInfo
  private let program: ShaderProgram
  private var vertexArray: GLuint = 0
  private var recordBuffer: GLuint = 0
  private var feedbackBuffer: GLuint = 0
  private var feedbackBytes = 0
  private let nowUniform: GLint
  private let pointsToClipUniform: GLint
  private let pixelsPerPointUniform: GLint
  private var projection: Projection?

  /// The vertex outputs transform feedback captures: five floats per particle.
  static let capturedOutputs = ["v_position", "v_rotation", "v_widthScale", "v_opacity"]
  private static let capturedFloats = 5
  private static let recordStride = MemoryLayout<ParticleRecord>.stride

  /// A renderer for rings of `capacity` records, on the current context.
  public init(capacity: Int, info: GLInfo) throws {
    let bytes = capacity.multipliedReportingOverflow(by: Self.recordStride)
    guard capacity > 0, !bytes.overflow, bytes.partialValue <= Int(Int32.max) else {
      throw GLError.tooLarge(
        "\(capacity) particles need more than the 2 GiB one GL buffer can hold; "
          + "use at most \(Int(Int32.max) / Self.recordStride)")
    }
    self.capacity = capacity
    self.info = info
    program = try ShaderProgram(
      vertex: .embedded("particle.vert"), fragment: .embedded("particle.frag"),
      attributes: ParticleRecord.attributes, feedbackVaryings: Self.capturedOutputs)
    nowUniform = program.uniform("u_now")
    pointsToClipUniform = program.uniform("u_pointsToClip")
    pixelsPerPointUniform = program.uniform("u_pixelsPerPoint")

    epoxy_glGenVertexArrays(1, &vertexArray)
    epoxy_glBindVertexArray(vertexArray)
    epoxy_glGenBuffers(1, &recordBuffer)
    epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), recordBuffer)
    _ = epoxy_glGetError()
    epoxy_glBufferData(
      GLenum(GL_ARRAY_BUFFER), GLsizeiptr(bytes.partialValue), nil, GLenum(GL_DYNAMIC_DRAW))
    // Checked in every build: running out of GPU memory is an input error, not a bug.
    guard epoxy_glGetError() != GLenum(GL_OUT_OF_MEMORY) else {
      throw GLError.tooLarge(
        "the GPU has no room for \(capacity) particles (\(bytes.partialValue / 1_048_576) MiB)")
    }
    for attribute in ParticleRecord.attributes {
      Self.point(attribute)
    }

    epoxy_glUseProgram(program.id)
    epoxy_glUniform1f(program.uniform("u_maxPointSize"), info.maxPointSize)
    epoxy_glEnable(GLenum(GL_PROGRAM_POINT_SIZE))
    epoxy_glEnable(GLenum(GL_BLEND))
    // The fragment shader writes premultiplied colour.
    epoxy_glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
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
    let ranges = ring.pendingUploadRanges
    guard !ranges.isEmpty else { return }
    epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), recordBuffer)
    ring.records.withUnsafeBytes { records in
      for range in ranges {
        let offset = range.lowerBound * Self.recordStride
        let length = range.count * Self.recordStride
        epoxy_glBufferSubData(
          GLenum(GL_ARRAY_BUFFER), GLintptr(offset), GLsizeiptr(length),
          records.baseAddress! + offset)
        meter.bufferBytes += length
        meter.bufferWrites += 1
      }
    }
    ring.markUploaded()
    try checkGL("uploading \(ranges.count) record ranges")
  }

  /// Maps a window of `window` points onto a framebuffer of `width × height` pixels.
  ///
  /// Cheap to call every frame: the GL is touched only when something changed. The viewport
  /// reaches a margin beyond the framebuffer on every side, because GL discards a point sprite
  /// whose centre is outside the viewport: without it, pieces would pop in and out at the edges.
  public func setViewport(width: Int, height: Int, window: Size) {
    let wanted = Projection(width: width, height: height, window: window)
    guard wanted != projection, width > 0, height > 0, window.width > 0, window.height > 0 else {
      return
    }
    projection = wanted
    let margin = min(
      Int(min(info.maxPointSize, 256) / 2) + 1,
      (info.maxViewport.width - width) / 2, (info.maxViewport.height - height) / 2)
    let (extendedWidth, extendedHeight) = (width + 2 * margin, height + 2 * margin)
    epoxy_glViewport(
      GLint(-margin), GLint(-margin), GLsizei(extendedWidth), GLsizei(extendedHeight))
    let pixelsPerPoint = (Double(width) / window.width, Double(height) / window.height)
    // Points → pixels in the extended viewport → clip space, y flipped (points grow downward).
    let scale = (
      2 * pixelsPerPoint.0 / Double(extendedWidth), -2 * pixelsPerPoint.1 / Double(extendedHeight)
    )
    let offset = (
      2 * Double(margin) / Double(extendedWidth) - 1,
      1 - 2 * Double(margin) / Double(extendedHeight)
    )
    epoxy_glUseProgram(program.id)
    epoxy_glUniform4f(
      pointsToClipUniform, Float(scale.0), Float(scale.1), Float(offset.0), Float(offset.1))
    epoxy_glUniform1f(pixelsPerPointUniform, Float(max(pixelsPerPoint.0, pixelsPerPoint.1)))
    meter.uniformBytes += 20
    meter.uniformWrites += 2
  }

  /// Draws every particle of `ring` that may be alive at clock reading `now`.
  public func draw(_ ring: ParticleRing, at now: Tick) throws {
    let ranges = ring.drawnSlotRanges
    guard !ranges.isEmpty else { return }
    epoxy_glUseProgram(program.id)
    epoxy_glBindVertexArray(vertexArray)
    setClock(now)
    for range in ranges {
      epoxy_glDrawArrays(GLenum(GL_POINTS), GLint(range.lowerBound), GLsizei(range.count))
      meter.drawCalls += 1
    }
    try checkGL("drawing \(ring.drawnCount) particles")
  }

  /// Runs the vertex shader over `slots` at clock `now` and returns what it computed for each
  /// slot: the GPU half of the parity tests. Nothing is rasterised.
  public func capture(slots: Range<Int>, at now: Tick) throws -> [CapturedParticle] {
    precondition(slots.lowerBound >= 0 && slots.upperBound <= capacity, "slots out of range")
    let bytes = slots.count * Self.capturedFloats * MemoryLayout<Float>.stride
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
    epoxy_glDrawArrays(GLenum(GL_POINTS), GLint(slots.lowerBound), GLsizei(slots.count))
    epoxy_glEndTransformFeedback()
    epoxy_glDisable(GLenum(GL_RASTERIZER_DISCARD))
    var floats = [Float](repeating: .nan, count: slots.count * Self.capturedFloats)
    epoxy_glBindBuffer(GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), feedbackBuffer)
    epoxy_glGetBufferSubData(GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), 0, GLsizeiptr(bytes), &floats)
    try checkGL("capturing \(slots.count) particles with transform feedback")
    return stride(from: 0, to: floats.count, by: Self.capturedFloats).map { i in
      CapturedParticle(
        position: Point(x: Double(floats[i]), y: Double(floats[i + 1])),
        rotation: Double(floats[i + 2]), widthScale: Double(floats[i + 3]),
        opacity: Double(floats[i + 4]))
    }
  }

  private func setClock(_ now: Tick) {
    epoxy_glUniform1ui(nowUniform, now.rawValue)
    meter.uniformBytes += MemoryLayout<UInt32>.size
    meter.uniformWrites += 1
  }

  /// Points the bound vertex array's attribute at its field of the record.
  private static func point(_ attribute: RecordAttribute) {
    let location = attribute.location
    let count = GLint(attribute.count)
    let stride = GLsizei(recordStride)
    let offset = UnsafeRawPointer(bitPattern: attribute.offset)
    epoxy_glEnableVertexAttribArray(location)
    switch attribute.component {
    case .float32:
      epoxy_glVertexAttribPointer(
        location, count, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, offset)
    case .float16:
      epoxy_glVertexAttribPointer(
        location, count, GLenum(GL_HALF_FLOAT), GLboolean(GL_FALSE), stride, offset)
    case .normalizedUInt8:
      epoxy_glVertexAttribPointer(
        location, count, GLenum(GL_UNSIGNED_BYTE), GLboolean(GL_TRUE), stride, offset)
    case .uint8:
      epoxy_glVertexAttribIPointer(location, count, GLenum(GL_UNSIGNED_BYTE), stride, offset)
    case .uint32:
      epoxy_glVertexAttribIPointer(location, count, GLenum(GL_UNSIGNED_INT), stride, offset)
    }
  }

  private struct Projection: Equatable {
    var width: Int
    var height: Int
    var window: Size
  }
}

/// What the vertex shader computed for one particle, read back by transform feedback.
public struct CapturedParticle: Equatable, Sendable {
  public var position: Point
  public var rotation: Degrees
  public var widthScale: Double
  public var opacity: Double
}

extension ParticleRenderer {
  /// Clears the bound framebuffer to an opaque background colour.
  public static func clear(to color: RGBA8) {
    epoxy_glClearColor(
      GLfloat(color.red) / 255, GLfloat(color.green) / 255, GLfloat(color.blue) / 255, 1)
    epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
  }
}
