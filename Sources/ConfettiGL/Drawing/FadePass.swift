@preconcurrency import CEpoxy
import ConfettiCore

/// Fades what is drawn in a rectangle of the framebuffer towards transparent as a whole
/// (`fade.frag`): how an overlay's continuous effect leaves the screen at the end of its
/// duration. On a picture drawn from transparent, fading it by f is drawing every piece f times
/// as strong, paper over paper and light alike.
///
/// For a context its program owns, as ``LightLayer``: ``apply(_:in:)`` sets the state it needs,
/// leaves it set, and tells the renderers on the context that their kept state no longer holds.
/// Its GL objects are deleted by ``release()`` or deinit, on the context current then.
package final class FadePass {
  private let program: ShaderProgram
  private let fade: GLint
  private let target: FirstTarget
  private var vertexArray: GLuint = 0

  /// Compiles the pass's program for the GL `info` describes.
  package init(info: GLInfo) throws {
    target = info.firstTarget
    program = try ShaderProgram(vertex: .embedded("layer.vert"), fragment: .embedded("fade.frag"))
    fade = program.uniform("u_fade")
    epoxy_glGenVertexArrays(1, &vertexArray)
  }

  deinit {
    release()
  }

  /// Deletes the pass's GL objects now (deinit does it otherwise); calling it again does
  /// nothing.
  package func release() {
    program.release()
    if vertexArray != 0 { epoxy_glDeleteVertexArrays(1, &vertexArray) }
    vertexArray = 0
  }

  /// Scales every channel within `rect` of the bound framebuffer by `fade` (clamped to 0...1);
  /// leaves the viewport `rect`, scissoring off and blending on.
  package func apply(_ fade: Double, in rect: PixelRect) {
    target.setViewport(
      x: GLint(clamping: rect.x), y: GLint(clamping: rect.y), width: GLsizei(clamping: rect.width),
      height: GLsizei(clamping: rect.height))
    target.setScissorTest(false)
    target.blend(source: GLenum(GL_ZERO), destination: GLenum(GL_SRC_COLOR))
    target.writeAllChannels()
    epoxy_glUseProgram(program.id)
    epoxy_glUniform1f(self.fade, GLfloat(min(1, max(0, fade))))
    epoxy_glBindVertexArray(vertexArray)
    epoxy_glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    // No renderer's kept state holds on this context now.
    ContextStateOwner.claim(for: nil)
  }
}
