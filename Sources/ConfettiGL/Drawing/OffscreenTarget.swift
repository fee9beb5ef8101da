@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiImage

/// A framebuffer object with one 8-bit RGBA colour buffer: where headless frames are drawn.
///
/// Its GL objects are deleted by ``release()`` or deinit, on the context current then.
public final class OffscreenTarget {
  public let width: Int
  public let height: Int
  private var framebuffer: GLuint = 0
  private var colorBuffer: GLuint = 0

  /// A `width × height` pixel target, checked against the GL's limits first. If it fails,
  /// nothing it created is left behind. The host's framebuffer and renderbuffer bindings are
  /// kept; ``bind()`` directs drawing here.
  public convenience init(width: Int, height: Int, info: GLInfo) throws {
    try self.init(width: width, height: height, info: info, format: GL_RGBA8)
  }

  /// The same with another colour format (`GL_RGBA8` above). One the GL cannot draw into is
  /// refused with the framebuffer's status, and nothing is left behind.
  package init(width: Int, height: Int, info: GLInfo, format: Int32) throws {
    guard width > 0, height > 0, width <= info.maxViewport.width,
      height <= info.maxViewport.height
    else {
      throw GLError.tooLarge(
        "a \(width)×\(height) picture is outside what this GL can draw "
          + "(1×1 to \(info.maxViewport.width)×\(info.maxViewport.height))")
    }
    self.width = width
    self.height = height
    var (hostFramebuffer, hostRenderbuffer): (GLint, GLint) = (0, 0)
    epoxy_glGetIntegerv(GLenum(GL_FRAMEBUFFER_BINDING), &hostFramebuffer)
    epoxy_glGetIntegerv(GLenum(GL_RENDERBUFFER_BINDING), &hostRenderbuffer)
    defer {
      epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(hostFramebuffer))
      epoxy_glBindRenderbuffer(GLenum(GL_RENDERBUFFER), GLuint(hostRenderbuffer))
    }
    var (framebuffer, colorBuffer): (GLuint, GLuint) = (0, 0)
    epoxy_glGenFramebuffers(1, &framebuffer)
    epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
    epoxy_glGenRenderbuffers(1, &colorBuffer)
    epoxy_glBindRenderbuffer(GLenum(GL_RENDERBUFFER), colorBuffer)
    epoxy_glRenderbufferStorage(
      GLenum(GL_RENDERBUFFER), GLenum(format), GLsizei(width), GLsizei(height))
    epoxy_glFramebufferRenderbuffer(
      GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), colorBuffer)
    let status = epoxy_glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
    guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
      let error = glErrorName(epoxy_glGetError())
      epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
      epoxy_glDeleteFramebuffers(1, &framebuffer)
      epoxy_glDeleteRenderbuffers(1, &colorBuffer)
      throw GLError.tooLarge(
        "no \(width)×\(height) framebuffer (status 0x\(String(status, radix: 16)), \(error))")
    }
    (self.framebuffer, self.colorBuffer) = (framebuffer, colorBuffer)
  }

  deinit {
    release()
  }

  /// Deletes the framebuffer and its colour buffer now (deinit does it otherwise). The target
  /// must not be used afterwards; calling this again does nothing.
  public func release() {
    if framebuffer != 0 { epoxy_glDeleteFramebuffers(1, &framebuffer) }
    if colorBuffer != 0 { epoxy_glDeleteRenderbuffers(1, &colorBuffer) }
    (framebuffer, colorBuffer) = (0, 0)
  }

  /// The GL names the target owns: what ``release()`` deletes.
  package var objectNames: (framebuffer: GLuint, renderbuffer: GLuint) {
    (framebuffer, colorBuffer)
  }

  /// The whole target, as a rectangle to draw into.
  public var rect: PixelRect { PixelRect(width: width, height: height) }

  /// Directs drawing into this target.
  public func bind() {
    precondition(framebuffer != 0, "the target was released")
    epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
  }

  /// Reads the picture back, rows from the top (GL's rows start at the bottom). Leaves this
  /// target bound.
  public func read() throws -> RGBAImage {
    bind()
    return try GLFrame.read(width: width, height: height)
  }

  /// Reads the picture back as GL stores it, bottom row first, into `rows` (reused when it
  /// is the right size: ``GLFrame/read(width:height:bottomRowFirst:)``). Leaves this target
  /// bound.
  public func read(bottomRowFirst rows: inout [UInt8]) throws {
    bind()
    try GLFrame.read(width: width, height: height, bottomRowFirst: &rows)
  }
}
