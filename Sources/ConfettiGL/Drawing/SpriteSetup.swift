@preconcurrency import CEpoxy
import ConfettiCore

// What the product's renderer and the bench's baseline renderer share: buffers of records,
// attribute pointers, sprite state and the projection from window points to the framebuffer.

/// Allocates a GL array buffer of `bytes`, checking in every build that the GPU had room:
/// running out of GPU memory is an input error, not a bug.
package func allocateBuffer(bytes: Int, usage: Int32, what: String) throws -> GLuint {
  var buffer: GLuint = 0
  epoxy_glGenBuffers(1, &buffer)
  epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
  _ = epoxy_glGetError()
  epoxy_glBufferData(GLenum(GL_ARRAY_BUFFER), GLsizeiptr(bytes), nil, GLenum(usage))
  guard epoxy_glGetError() != GLenum(GL_OUT_OF_MEMORY) else {
    epoxy_glDeleteBuffers(1, &buffer)
    throw GLError.tooLarge("the GPU has no room for \(what) (\(bytes / 1_048_576) MiB)")
  }
  return buffer
}

/// Sends the records appended to `ring` since its last upload into `buffer`: one
/// glBufferSubData per contiguous range (two across the wrap), counted in `meter`.
package func uploadPendingRecords(
  of ring: inout ParticleRing, into buffer: GLuint, meter: inout UploadMeter
)
  throws
{
  let ranges = ring.pendingUploadRanges
  guard !ranges.isEmpty else { return }
  let stride = MemoryLayout<ParticleRecord>.stride
  epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
  ring.records.withUnsafeBytes { records in
    for range in ranges {
      let offset = range.lowerBound * stride
      let length = range.count * stride
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

/// Draws every particle of `ring`'s live span (with its trail copies, when `trails`) as
/// `primitive`s: one instanced draw per contiguous range (two across the wrap; batches of one
/// on llvmpipe, ``InstanceArray/batches``), nothing at all,
/// not even `setUniforms`, when nothing is alive. `setUniforms` runs with the program bound and
/// returns the uniform bytes it set. With `bound`, the program and vertex array are bound
/// already and the GL is not asked for errors afterwards: a steady frame of a renderer that
/// keeps its state.
package func drawSprites(
  of ring: ParticleRing, program: ShaderProgram, instances: InstanceArray,
  primitive: SpritePrimitive, trails: Bool = true, bound: Bool = false, meter: inout UploadMeter,
  shouldStop: (() -> Bool)? = nil, stopEvery: Int? = nil, setUniforms: () -> Int
) throws {
  let ranges = ring.drawnSlotRanges
  guard !ranges.isEmpty else { return }
  if !bound {
    epoxy_glUseProgram(program.id)
    epoxy_glBindVertexArray(instances.name)
  }
  let uniformBytes = setUniforms()
  if uniformBytes > 0 {
    meter.uniformBytes += uniformBytes
    meter.uniformWrites += 1
  }
  let copies = trails ? Int(ring.longestTrail) + 1 : 1
  for range in ranges {
    meter.drawCalls += try instances.draw(
      primitive, slots: range, copies: copies, shouldStop: shouldStop, stopEvery: stopEvery
    ) { epoxy_glUniform1i(program.uniform("u_firstCopy"), GLint($0)) }
  }
  if !bound { try checkGL("drawing \(ring.drawnCount) particles") }
}

/// How many particles a draw may send between two questions to its `shouldStop` (a render's
/// signal check) so that each part fills at most `budget` pixels: pieces whose largest diagonal
/// is `diagonal` pixels, drawn as `copies` copies each, into `rect` (which clips each to at
/// most its own area). Nil when the whole draw is within that.
package func particlesBetweenStopChecks(
  diagonal: Double, copies: Int, rect: PixelRect, particles: Int, budget: Int
) -> Int? {
  let side = diagonal.isFinite ? max(diagonal, 0) + 2 * ShaderConstants.edgeReach + 1 : .infinity
  let piece = min(side * side, Double(max(rect.width, 1) * max(rect.height, 1)))
  let each = piece * Double(max(copies, 1))
  guard each * Double(particles) > Double(budget) else { return nil }
  return max(1, Int(Double(budget) / each))
}

/// A draw given up part-way because its `shouldStop` said so (between two batches of a big
/// draw): what it drew is incomplete.
package struct DrawStopped: Error {}

/// The vertex array that feeds particles to a sprite program, in one of two ways:
///
/// - each particle an instance (``SpritePrimitive/instancedPoints``, ``SpritePrimitive/quads``):
///   the attributes advance once per instance (divisor 1), and the vertices within an instance
///   are its trail copies, one each for point sprites, four for quads (two triangles each, from
///   the array's own small index buffer). A draw starts at any instance: with base instances
///   where the GL has them (``GLInfo/hasBaseInstance``), otherwise by moving the attribute
///   pointers there, and only when that differs from the last draw's.
/// - each particle a vertex (``SpritePrimitive/points``): the attributes advance per vertex, a
///   draw starts at its first vertex, and trail copies are instances.
package final class InstanceArray {
  /// A buffer and the attributes read from it, `stride` bytes per instance.
  package struct Binding {
    package var buffer: GLuint
    package var stride: Int
    package var attributes: [RecordAttribute]

    package init(buffer: GLuint, stride: Int, attributes: [RecordAttribute]) {
      (self.buffer, self.stride, self.attributes) = (buffer, stride, attributes)
    }
  }

  /// The vertex array's GL name; 0 once released.
  package private(set) var name: GLuint = 0
  private var indexBuffer: GLuint = 0
  private let bindings: [Binding]
  private let hasBaseInstance: Bool
  /// The instance the attribute pointers start at.
  private var pointedAt = 0
  /// Whether the attributes advance per vertex (``SpritePrimitive/points``).
  private var perVertex = false

  /// The most particles one point draw sends before a glFlush (``batches``); nil: no limit.
  private let batch: Int?

  /// GLs that bin a draw on the calling thread and rasterise it on their own threads, once
  /// flushed, and the particles a point draw sends between flushes there. Unflushed, llvmpipe
  /// bins the whole draw on one core while its rasteriser threads wait, then shades it on every
  /// core while the caller waits; flushed every batch, the rasteriser threads shade each batch
  /// while the next is binned. `confetti bench`, 100,000 cannon pieces at 1280×720 on two
  /// cores: the frame about 7 % shorter (docs/performance.md).
  package static let batches: [(rendererPrefix: String, particles: Int)] = [("llvmpipe", 16_384)]

  /// The most particles a point draw sends between flushes on the GL `info` describes; nil: no
  /// limit (``batches``).
  package static func batch(for info: GLInfo) -> Int? {
    batches.first { info.renderer.hasPrefix($0.rendererPrefix) }?.particles
  }

  /// The most copies a particle is drawn as: itself and the longest trail a record holds.
  static let maximumCopies = Int(ConfettiParticle.maximumTrail) + 1
  /// A quad's two triangles, as offsets into its four corners (in strip order).
  private static let quadIndices: [UInt16] = [0, 1, 2, 2, 1, 3]

  /// Creates the vertex array on the current context and leaves it bound (callers save the
  /// host's state first).
  package init(bindings: [Binding], info: GLInfo) {
    self.bindings = bindings
    hasBaseInstance = info.hasBaseInstance
    batch = Self.batch(for: info)
    epoxy_glGenVertexArrays(1, &name)
    epoxy_glBindVertexArray(name)
    point(at: 0)
    let indices = (0..<Self.maximumCopies).flatMap { copy in
      Self.quadIndices.map { UInt16(4 * copy) + $0 }
    }
    epoxy_glGenBuffers(1, &indexBuffer)
    epoxy_glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indexBuffer)
    epoxy_glBufferData(
      GLenum(GL_ELEMENT_ARRAY_BUFFER), GLsizeiptr(indices.count * 2), indices,
      GLenum(GL_STATIC_DRAW))
  }

  deinit {
    release()
  }

  /// Deletes the vertex array and its index buffer (not the bindings' buffers).
  package func release() {
    if name != 0 { epoxy_glDeleteVertexArrays(1, &name) }
    if indexBuffer != 0 { epoxy_glDeleteBuffers(1, &indexBuffer) }
    (name, indexBuffer) = (0, 0)
  }

  /// The GL names the array owns.
  package var objectNames: (vertexArray: GLuint, indexBuffer: GLuint) { (name, indexBuffer) }

  /// Draws `copies` copies of the particles in `slots` as `primitive`s, with the array bound;
  /// returns the draw calls it made. Between batches (``batches``) it asks `shouldStop`, and
  /// throws ``DrawStopped`` when it says so: a big draw takes seconds there. With `stopEvery`
  /// particles (``particlesBetweenStopChecks(diagonal:copies:rect:particles:budget:)``), it
  /// also asks at least that often, however the primitive orders its copies: a point draw with
  /// trail copies then draws a copy at a time, each told by `setFirstCopy` (the program's
  /// `u_firstCopy`, 0 after). The order of what is drawn, and so the picture, is the same
  /// either way.
  package func draw(
    _ primitive: SpritePrimitive, slots: Range<Int>, copies: Int,
    shouldStop: (() -> Bool)? = nil, stopEvery: Int? = nil,
    setFirstCopy: (Int) -> Void = { _ in }
  ) throws -> Int {
    precondition((1...Self.maximumCopies).contains(copies), "copies out of range")
    precondition(primitive != .auto, "resolve the primitive first")
    feed(perVertex: primitive == .points)
    let stopEvery = shouldStop == nil ? nil : stopEvery
    var calls = 0
    /// `slots` in parts of at most `size` (all of them when nil), `draw` called for each, the
    /// GL flushed and `shouldStop` asked between two.
    func inParts(of size: Int?, _ draw: (Range<Int>) -> Void) throws {
      let size = max(1, size ?? slots.count)
      for start in stride(from: slots.lowerBound, to: slots.upperBound, by: size) {
        if calls > 0 {
          epoxy_glFlush()
          if shouldStop?() == true { throw DrawStopped() }
        }
        draw(start..<min(start + size, slots.upperBound))
        calls += 1
      }
    }
    switch primitive {
    case .quads:
      // Each particle an instance, its copies within it: parts of particles keep the order.
      try inParts(of: stopEvery) {
        drawElements(GL_TRIANGLES, count: copies * Self.quadIndices.count, instances: $0)
      }
    case .instancedPoints, .auto:
      try inParts(of: stopEvery) { drawArrays(GL_POINTS, vertices: copies, instances: $0) }
    case .points where copies == 1:
      try inParts(of: [batch, stopEvery].compactMap { $0 }.min()) { drawPerVertex($0, copies: 1) }
    case .points:
      // Trail copies are instances, each drawn over every particle before the next: a draw is
      // kept whole, or given a copy at a time (then in parts of particles) when it must stop.
      guard let stopEvery, stopEvery < slots.count * copies else {
        drawPerVertex(slots, copies: copies)
        return 1
      }
      defer { setFirstCopy(0) }
      for copy in 0..<copies {
        setFirstCopy(copy)
        try inParts(of: stopEvery) { drawPerVertex($0, copies: 1) }
      }
    }
    return calls
  }

  /// Runs the vertex shader of a `primitive` program over `copies` copies of the particles in
  /// `slots` as points, for transform feedback; returns where each vertex's output lands: the
  /// slot (from 0) and the copy in drawing order.
  package func drawForCapture(_ primitive: SpritePrimitive, slots: Range<Int>, copies: Int)
    -> (Int) -> (slot: Int, copy: Int)
  {
    feed(perVertex: primitive == .points)
    if primitive == .points {
      drawPerVertex(slots, copies: copies)
      return { vertex in (vertex % slots.count, vertex / slots.count) }
    }
    let vertices = primitive.verticesPerCopy
    drawArrays(GL_POINTS, vertices: copies * vertices, instances: slots)
    return { vertex in
      (vertex / (copies * vertices), vertex % (copies * vertices) / vertices)
    }
  }

  /// Per-vertex attributes: the first vertex is the span's start; copies are instances.
  private func drawPerVertex(_ slots: Range<Int>, copies: Int) {
    epoxy_glDrawArraysInstanced(
      GLenum(GL_POINTS), GLint(slots.lowerBound), GLsizei(slots.count), GLsizei(copies))
  }

  /// Makes the attributes advance per vertex or per instance, if they do not already.
  private func feed(perVertex: Bool) {
    guard perVertex != self.perVertex else { return }
    self.perVertex = perVertex
    point(at: 0)
  }

  private func drawArrays(_ mode: Int32, vertices: Int, instances: Range<Int>) {
    let (count, base) = (GLsizei(instances.count), start(instances))
    if hasBaseInstance {
      epoxy_glDrawArraysInstancedBaseInstance(GLenum(mode), 0, GLsizei(vertices), count, base)
    } else {
      epoxy_glDrawArraysInstanced(GLenum(mode), 0, GLsizei(vertices), count)
    }
  }

  private func drawElements(_ mode: Int32, count indices: Int, instances: Range<Int>) {
    let (count, base) = (GLsizei(instances.count), start(instances))
    let type = GLenum(GL_UNSIGNED_SHORT)
    if hasBaseInstance {
      epoxy_glDrawElementsInstancedBaseInstance(
        GLenum(mode), GLsizei(indices), type, nil, count, base)
    } else {
      epoxy_glDrawElementsInstanced(GLenum(mode), GLsizei(indices), type, nil, count)
    }
  }

  /// The base instance for a draw of `instances`, or 0 after moving the pointers there.
  private func start(_ instances: Range<Int>) -> GLuint {
    if hasBaseInstance { return GLuint(instances.lowerBound) }
    if pointedAt != instances.lowerBound { point(at: instances.lowerBound) }
    return 0
  }

  /// Points every attribute at record `first` of its buffer, advancing once per instance (or
  /// per vertex).
  private func point(at first: Int) {
    for binding in bindings {
      epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), binding.buffer)
      for attribute in binding.attributes {
        pointAttribute(attribute, stride: binding.stride, first: first, perVertex: perVertex)
      }
    }
    pointedAt = first
  }
}

/// Points the bound vertex array's `attribute` into the bound array buffer, from record `first`
/// on, one record per instance (or per vertex).
private func pointAttribute(_ attribute: RecordAttribute, stride: Int, first: Int, perVertex: Bool)
{
  let location = attribute.location
  let count = GLint(attribute.count)
  let offset = UnsafeRawPointer(bitPattern: attribute.offset + first * stride)
  let stride = GLsizei(stride)
  epoxy_glEnableVertexAttribArray(location)
  epoxy_glVertexAttribDivisor(location, perVertex ? 0 : 1)
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

/// Sets every piece of state a sprite draw needs, whatever the host left: premultiplied
/// blending, program point size, scissor, all colour channels written, faces filled, no depth,
/// stencil, culling, logic op, sample masking or coverage, primitive restart or clip distances,
/// texture unit 0 free of any sampler object; on a GL with clip control
/// (``GLInfo/hasClipControl``), the clip origin at the lower left, where the fragment shader's
/// gl_FragCoord expects it; on a compatibility profile (``GLInfo/drawsWholePixelPoints``), none
/// of ``HostGLState/compatibilityCapabilities`` and no level-of-detail bias on unit 0
/// (glTexEnv's, which would blur the atlas or sharpen it into noise). Callers save the host's state first
/// (``HostGLState``).
package func applySpriteState(for info: GLInfo) {
  epoxy_glEnable(GLenum(GL_PROGRAM_POINT_SIZE))
  info.firstTarget.setScissorTest(true)
  for capability in HostGLState.disabledForSprites { epoxy_glDisable(capability) }
  // The fragment shader writes premultiplied colour.
  info.firstTarget.blend()
  info.firstTarget.writeAllChannels()
  // The shaders write one colour, to draw buffer 0: any other the host's framebuffer has on
  // would get undefined values.
  let off = GLboolean(GL_FALSE)
  for index in info.otherDrawBuffers { epoxy_glColorMaski(index, off, off, off, off) }
  // A quad's triangles filled, whatever a host draws its own as.
  epoxy_glPolygonMode(GLenum(GL_FRONT_AND_BACK), GLenum(GL_FILL))
  epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
  epoxy_glBindSampler(0, 0)
  if info.hasClipControl {
    epoxy_glClipControl(GLenum(GL_LOWER_LEFT), GLenum(GL_NEGATIVE_ONE_TO_ONE))
  }
  if info.drawsWholePixelPoints {
    for capability in HostGLState.compatibilityCapabilities { epoxy_glDisable(capability) }
    epoxy_glTexEnvf(GLenum(GL_TEXTURE_FILTER_CONTROL), GLenum(GL_TEXTURE_LOD_BIAS), 0)
  }
}

/// Where sprites land: the viewport and scissor for a rectangle of the framebuffer, and the
/// points-to-clip and points-to-pixels uniforms, which are sent only when the rectangle or the
/// window's size changes.
///
/// The viewport reaches a margin beyond the rectangle on every side, because GL discards a
/// point sprite whose centre is outside the viewport: without it, pieces would pop in and out
/// at the edges (quads need no margin, but are drawn the same way). The scissor keeps the
/// margin's pixels out of the rest of the framebuffer.
package struct SpriteProjection {
  private let info: GLInfo
  private var current: (rect: PixelRect, window: Size)?

  init(info: GLInfo) {
    self.info = info
  }

  /// The margin beyond a rectangle of `width × height`, in pixels: half the largest sprite, up
  /// to 129 px (sprites wider than 256 px may still pop in at the edges), as far as the GL's
  /// largest viewport allows.
  private func margin(width: Int, height: Int) -> Int {
    max(
      0,
      min(
        Int(min(info.maxPointSize, 256) / 2) + 1, (info.maxViewport.width - width) / 2,
        (info.maxViewport.height - height) / 2))
  }

  /// The viewport for drawing into `rect`: the rectangle and its margin on every side, as the
  /// GL will have it: no larger than its largest viewport, its origin within its bounds. The
  /// uniforms are computed from this one, so that a sprite is shaded where it is rasterised.
  /// A rectangle larger than the largest viewport is drawn in part, not squeezed: the part
  /// from the framebuffer's origin, where the rectangle reaches past it.
  package func viewport(for rect: PixelRect) -> PixelRect {
    let margin = margin(width: rect.width, height: rect.height)
    let bounds = info.viewportBounds ?? Int.min...Int.max
    func span(from start: Int, length: Int, largest: Int) -> (start: Int, length: Int) {
      let (whole, kept) = (length + 2 * margin, min(length + 2 * margin, largest))
      var origin = start - margin
      if kept < whole {
        // As near the framebuffer's origin as the rectangle reaches.
        origin = min(max(origin, -margin), start + length + margin - kept)
      }
      return (min(max(origin, bounds.lowerBound), bounds.upperBound), kept)
    }
    let x = span(from: rect.x, length: rect.width, largest: info.maxViewport.width)
    let y = span(from: rect.y, length: rect.height, largest: info.maxViewport.height)
    return PixelRect(x: x.start, y: y.start, width: x.length, height: y.length)
  }

  /// Sets the last sizes' uniforms again, on `program` (a new one).
  mutating func reapply(program: ShaderProgram, meter: inout UploadMeter) {
    guard let last = current else { return }
    current = nil
    setUniforms(rect: last.rect, window: last.window, program: program, meter: &meter)
  }

  /// Maps a window of `window` points onto `rect`, clipped to `rect` and to `clip` (the host's
  /// own scissor box, where it has one). Returns false, setting nothing, when nothing can be
  /// drawn (an empty rectangle or window).
  mutating func apply(
    rect: PixelRect, window: Size, clip: PixelRect?, program: ShaderProgram,
    meter: inout UploadMeter
  ) -> Bool {
    guard Self.pixelsPerPoint(rect, window: window) != nil else { return false }
    let viewport = viewport(for: rect)
    // Clamped: a rectangle near the ends of GL's integers is the GL's to clip, not a trap.
    info.firstTarget.setViewport(
      x: GLint(clamping: viewport.x), y: GLint(clamping: viewport.y),
      width: GLsizei(clamping: viewport.width), height: GLsizei(clamping: viewport.height))
    let scissor = clip.map(rect.intersection) ?? rect
    info.firstTarget.setScissor(
      x: GLint(clamping: scissor.x), y: GLint(clamping: scissor.y),
      width: GLsizei(clamping: scissor.width), height: GLsizei(clamping: scissor.height))
    setUniforms(rect: rect, window: window, program: program, meter: &meter)
    return true
  }

  /// Framebuffer pixels per window point when a window of `window` points fills `rect`: the
  /// larger of the two axes' (sprites are square in pixels); nil when either is empty, and
  /// nothing can be drawn.
  package static func pixelsPerPoint(_ rect: PixelRect, window: Size) -> Double? {
    guard rect.width > 0, rect.height > 0, window.width > 0, window.height > 0 else { return nil }
    return max(Double(rect.width) / window.width, Double(rect.height) / window.height)
  }

  private mutating func setUniforms(
    rect: PixelRect, window: Size, program: ShaderProgram, meter: inout UploadMeter
  ) {
    if let current, current.rect == rect, current.window == window { return }
    current = (rect, window)
    epoxy_glUseProgram(program.id)
    for uniform in uniforms(rect: rect, window: window) {
      let (location, v) = (program.uniform(uniform.name), uniform.values.map { Float($0) })
      switch v.count {
      case 4: epoxy_glUniform4f(location, v[0], v[1], v[2], v[3])
      case 2: epoxy_glUniform2f(location, v[0], v[1])
      default: epoxy_glUniform1f(location, v[0])
      }
    }
    meter.uniformBytes += 44
    meter.uniformWrites += 4
  }

  /// The projection's uniforms for the last rectangle and window set, as every primitive's
  /// program declares them (each uses some): what a port drawing point sprites needs, whichever
  /// primitive drew here. Empty before anything was set.
  package var lastUniforms: [UniformValue] {
    current.map { uniforms(rect: $0.rect, window: $0.window) } ?? []
  }

  /// The uniforms that map a window of `window` points onto `rect`.
  private func uniforms(rect: PixelRect, window: Size) -> [UniformValue] {
    let (width, height) = (rect.width, rect.height)
    let viewport = viewport(for: rect)
    let (viewportWidth, viewportHeight) = (Double(viewport.width), Double(viewport.height))
    let pixelsPerPoint = (Double(width) / window.width, Double(height) / window.height)
    // Points → framebuffer pixels (y flipped: points grow downward) → the viewport's clip
    // space.
    let scale = (2 * pixelsPerPoint.0 / viewportWidth, -2 * pixelsPerPoint.1 / viewportHeight)
    let offset = (
      2 * Double(rect.x - viewport.x) / viewportWidth - 1,
      2 * Double(rect.y + height - viewport.y) / viewportHeight - 1
    )
    // As the GL holds them: in single precision.
    func uniform(_ name: String, _ type: String, _ values: [Double]) -> UniformValue {
      UniformValue(name: name, type: type, size: 1, values: values.map { Double(Float($0)) })
    }
    return [
      uniform("u_pointsToClip", "vec4", [scale.0, scale.1, offset.0, offset.1]),
      // Points → framebuffer pixels from the bottom left, where gl_FragCoord counts.
      uniform(
        "u_pointsToPixels", "vec4",
        [pixelsPerPoint.0, -pixelsPerPoint.1, Double(rect.x), Double(rect.y + height)]),
      uniform("u_pixelsToClip", "vec2", [2 / viewportWidth, -2 / viewportHeight]),
      uniform(
        "u_pixelsPerPoint", "float",
        [Self.pixelsPerPoint(PixelRect(width: width, height: height), window: window)!]),
    ]
  }
}
