@preconcurrency import CEpoxy
import ConfettiCore

/// The layer an effect with light is drawn into before it is laid over what is behind it: how
/// the confetti program's window, overlay and renders draw fire, fireworks and sparks.
///
/// Additive light adds to what is behind it (premultiplied colour with zero alpha, in the same
/// draw as the paper). Within the layer it adds up as anywhere, but laid over the backdrop
/// (`layer.frag`) it covers it as much as it shines: its alpha is raised to its brightest
/// channel. Over black that is the additive picture exactly. Over white the light still shows,
/// where added to white it would be white. And it is the straight-alpha colour a transparent
/// render's file holds (`RGBAImage.unpremultiplied`), so an editor that lays that file over a
/// colour gets the picture rendered on that colour.
///
/// ``begin(width:height:)`` and ``lay(in:clip:)`` set the state they need and leave it set (the
/// framebuffer they were begun on bound again), and tell the renderers on the context that
/// their kept state no longer holds; a host's state is saved around them by the caller
/// (``HostGLState``). They touch no clear colour. Its GL objects are deleted by ``release()`` or
/// deinit, on the context current then.
package final class LightLayer {
  private let program: ShaderProgram
  private let origin: GLint
  private let target: FirstTarget
  private var vertexArray: GLuint = 0
  private var framebuffer: GLuint = 0
  private var texture: GLuint = 0
  /// The framebuffer bound when the layer was begun, which it is laid onto.
  private var underneath: GLuint = 0
  /// The layer's size in pixels; (0, 0) before its first ``begin(width:height:)``.
  package private(set) var size = (width: 0, height: 0)

  /// Compiles the layer's program for the GL `info` describes; its texture is made by the
  /// first ``begin(width:height:)``.
  package init(info: GLInfo) throws {
    target = info.firstTarget
    program = try ShaderProgram(
      vertex: .embedded("layer.vert"), fragment: .embedded("layer.frag"))
    origin = program.uniform("u_origin")
    epoxy_glGenVertexArrays(1, &vertexArray)
    var used: GLint = 0
    epoxy_glGetIntegerv(GLenum(GL_CURRENT_PROGRAM), &used)
    epoxy_glUseProgram(program.id)
    epoxy_glUniform1i(program.uniform("u_layer"), 0)
    epoxy_glUseProgram(GLuint(used))
  }

  deinit {
    release()
  }

  /// Deletes the layer's GL objects now (deinit does it otherwise). The layer must not be used
  /// afterwards; calling this again does nothing.
  package func release() {
    program.release()
    if vertexArray != 0 { epoxy_glDeleteVertexArrays(1, &vertexArray) }
    if framebuffer != 0 { epoxy_glDeleteFramebuffers(1, &framebuffer) }
    if texture != 0 { epoxy_glDeleteTextures(1, &texture) }
    (vertexArray, framebuffer, texture) = (0, 0, 0)
  }

  /// The whole layer, as a rectangle to draw into.
  package var rect: PixelRect { PixelRect(width: size.width, height: size.height) }

  /// Directs drawing into the layer, `width × height` pixels (made anew when the size changed)
  /// and cleared to transparent, its viewport the whole of it, scissoring and rasterizer discard
  /// off. Remembers the framebuffer bound before, which ``lay(in:clip:)`` lays it onto (or
  /// ``cancel()`` binds again).
  package func begin(width: Int, height: Int) throws {
    var bound: GLint = 0
    epoxy_glGetIntegerv(GLenum(GL_DRAW_FRAMEBUFFER_BINDING), &bound)
    underneath = GLuint(bound)
    if size != (width, height) || framebuffer == 0 {
      try allocate(width: width, height: height)
    }
    epoxy_glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), framebuffer)
    target.setViewport(x: 0, y: 0, width: GLsizei(width), height: GLsizei(height))
    target.setScissorTest(false)
    epoxy_glDisable(GLenum(GL_RASTERIZER_DISCARD))  // which discards clears too
    target.writeAllChannels()
    // Cleared without the clear colour, which is the host's.
    let transparent: [GLfloat] = [0, 0, 0, 0]
    epoxy_glClearBufferfv(GLenum(GL_COLOR), 0, transparent)
    // No renderer's kept state holds on this context now (ParticleRenderer under the caching
    // policy sets all of its own again).
    ContextStateOwner.claim(for: nil)
  }

  /// Binds the framebuffer the layer was begun on again, without laying it: a draw into the
  /// layer failed.
  package func cancel() {
    epoxy_glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), underneath)
  }

  /// Lays the layer over `rect` of the framebuffer it was begun on (a rectangle of the layer's
  /// size), clipped to `clip` too where given (a host's scissor box), blended as premultiplied
  /// colour; leaves that framebuffer bound, the viewport `rect`, scissoring on (to `clip`) or
  /// off, and blending on. The rest of the state it draws with is a sprite draw's
  /// (``applySpriteState(for:)``), which the caller sets (a draw into the layer did).
  package func lay(in rect: PixelRect, clip: PixelRect? = nil) throws {
    precondition(
      (rect.width, rect.height) == size, "a layer is laid over a rectangle of its own size")
    epoxy_glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), underneath)
    target.setViewport(
      x: GLint(rect.x), y: GLint(rect.y), width: GLsizei(rect.width), height: GLsizei(rect.height))
    target.setScissorTest(clip != nil)
    if let clip {
      target.setScissor(
        x: GLint(clip.x), y: GLint(clip.y), width: GLsizei(clip.width),
        height: GLsizei(clip.height))
    }
    target.blend()
    epoxy_glUseProgram(program.id)
    epoxy_glUniform2i(origin, GLint(rect.x), GLint(rect.y))
    epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
    epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), texture)
    epoxy_glBindVertexArray(vertexArray)
    epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    ContextStateOwner.claim(for: nil)
    try checkGL("laying the light layer over \(rect.width)×\(rect.height) pixels")
  }

  private func allocate(width: Int, height: Int) throws {
    if texture == 0 { epoxy_glGenTextures(1, &texture) }
    if framebuffer == 0 { epoxy_glGenFramebuffers(1, &framebuffer) }
    epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
    epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), texture)
    HostGLState.resetUnpacking()
    epoxy_glTexImage2D(
      GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0, GLenum(GL_RGBA),
      GLenum(GL_UNSIGNED_BYTE), nil)
    // Read with texelFetch only: one level, no filtering.
    epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
    epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
    epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAX_LEVEL), 0)
    epoxy_glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), framebuffer)
    epoxy_glFramebufferTexture2D(
      GLenum(GL_DRAW_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture,
      0)
    let status = epoxy_glCheckFramebufferStatus(GLenum(GL_DRAW_FRAMEBUFFER))
    epoxy_glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), underneath)
    guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
      size = (0, 0)
      throw GLError.tooLarge(
        "no \(width)×\(height) layer for the effect's light (status 0x\(String(status, radix: 16)), "
          + "\(glErrorName(epoxy_glGetError())))")
    }
    size = (width, height)
  }
}
