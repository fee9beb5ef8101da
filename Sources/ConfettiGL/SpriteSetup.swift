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

/// Draws one point per slot of `ring`'s live span (and one more per trail copy): one glDrawArrays per contiguous range (two
/// across the wrap), nothing at all, not even `setUniforms`, when nothing is alive.
/// `setUniforms` runs with the program bound and returns the uniform bytes it set.
package func drawSprites(
  of ring: ParticleRing, program: ShaderProgram, vertexArray: GLuint, trails: Bool = true,
  meter: inout UploadMeter, setUniforms: () -> Int
) throws {
  let ranges = ring.drawnSlotRanges
  guard !ranges.isEmpty else { return }
  epoxy_glUseProgram(program.id)
  epoxy_glBindVertexArray(vertexArray)
  let uniformBytes = setUniforms()
  if uniformBytes > 0 {
    meter.uniformBytes += uniformBytes
    meter.uniformWrites += 1
  }
  // Trail copies are instances: the vertex shader draws copy k of each particle in instance k.
  let instances = trails ? GLsizei(ring.longestTrail) + 1 : 1
  for range in ranges {
    if instances == 1 {
      epoxy_glDrawArrays(GLenum(GL_POINTS), GLint(range.lowerBound), GLsizei(range.count))
    } else {
      epoxy_glDrawArraysInstanced(
        GLenum(GL_POINTS), GLint(range.lowerBound), GLsizei(range.count), instances)
    }
    meter.drawCalls += 1
  }
  try checkGL("drawing \(ring.drawnCount) particles")
}

/// Points the bound vertex array's `attribute` into the bound array buffer.
package func pointAttribute(_ attribute: RecordAttribute, stride: Int) {
  let location = attribute.location
  let count = GLint(attribute.count)
  let offset = UnsafeRawPointer(bitPattern: attribute.offset)
  let stride = GLsizei(stride)
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

/// Sets every piece of state a sprite draw needs, whatever the host left: premultiplied
/// blending, program point size, scissor, sprite coordinates from the top left, all colour
/// channels written, no depth, stencil, culling, logic op, sample masking or coverage, or clip
/// distances, and texture unit 0 free of any sampler object. Callers save the host's state first (``HostGLState``).
package func applySpriteState() {
  epoxy_glEnable(GLenum(GL_BLEND))
  epoxy_glEnable(GLenum(GL_PROGRAM_POINT_SIZE))
  epoxy_glEnable(GLenum(GL_SCISSOR_TEST))
  for capability in HostGLState.disabledForSprites { epoxy_glDisable(capability) }
  // The fragment shader writes premultiplied colour.
  epoxy_glBlendEquation(GLenum(GL_FUNC_ADD))
  epoxy_glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
  epoxy_glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
  epoxy_glPointParameteri(GLenum(GL_POINT_SPRITE_COORD_ORIGIN), GL_UPPER_LEFT)
  epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
  epoxy_glBindSampler(0, 0)
}

/// Where sprites land: the viewport and scissor for a rectangle of the framebuffer, and the
/// points-to-clip uniforms, which are sent only when the sizes change.
///
/// The viewport reaches a margin beyond the rectangle on every side, because GL discards a
/// point sprite whose centre is outside the viewport: without it, pieces would pop in and out
/// at the edges. The scissor keeps the margin's pixels out of the rest of the framebuffer.
struct SpriteProjection {
  private let info: GLInfo
  private var current: (width: Int, height: Int, window: Size)?

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

  /// Sets the last sizes' uniforms again, on `program` (a new one).
  mutating func reapply(program: ShaderProgram, meter: inout UploadMeter) {
    guard let last = current else { return }
    current = nil
    setUniforms(
      width: last.width, height: last.height, window: last.window, program: program, meter: &meter)
  }

  /// Maps a window of `window` points onto `rect`, clipped to `rect` and to `clip` (the host's
  /// own scissor box, where it has one). Returns false, setting nothing, when nothing can be
  /// drawn (an empty rectangle or window).
  mutating func apply(
    rect: PixelRect, window: Size, clip: PixelRect?, program: ShaderProgram,
    meter: inout UploadMeter
  ) -> Bool {
    guard rect.width > 0, rect.height > 0, window.width > 0, window.height > 0 else {
      return false
    }
    let margin = margin(width: rect.width, height: rect.height)
    epoxy_glViewport(
      GLint(rect.x - margin), GLint(rect.y - margin), GLsizei(rect.width + 2 * margin),
      GLsizei(rect.height + 2 * margin))
    let scissor = clip.map(rect.intersection) ?? rect
    epoxy_glScissor(
      GLint(scissor.x), GLint(scissor.y), GLsizei(scissor.width), GLsizei(scissor.height))
    setUniforms(
      width: rect.width, height: rect.height, window: window, program: program, meter: &meter)
    return true
  }

  private mutating func setUniforms(
    width: Int, height: Int, window: Size, program: ShaderProgram, meter: inout UploadMeter
  ) {
    if let current, current.width == width, current.height == height, current.window == window {
      return
    }
    current = (width, height, window)
    let margin = margin(width: width, height: height)
    let (extendedWidth, extendedHeight) = (width + 2 * margin, height + 2 * margin)
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
      program.uniform("u_pointsToClip"), Float(scale.0), Float(scale.1), Float(offset.0),
      Float(offset.1))
    epoxy_glUniform1f(
      program.uniform("u_pixelsPerPoint"), Float(max(pixelsPerPoint.0, pixelsPerPoint.1)))
    meter.uniformBytes += 20
    meter.uniformWrites += 2
  }
}
