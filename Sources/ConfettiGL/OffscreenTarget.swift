@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiImage

/// A framebuffer object with one 8-bit RGBA colour buffer: where headless frames are drawn.
public final class OffscreenTarget {
  public let width: Int
  public let height: Int
  private var framebuffer: GLuint = 0
  private var colorBuffer: GLuint = 0

  /// A `width × height` pixel target, checked against the GL's limits first.
  public init(width: Int, height: Int, info: GLInfo) throws {
    guard width > 0, height > 0, width <= info.maxViewport.width,
      height <= info.maxViewport.height
    else {
      throw GLError.tooLarge(
        "a \(width)×\(height) picture is outside what this GL can draw "
          + "(1×1 to \(info.maxViewport.width)×\(info.maxViewport.height))")
    }
    self.width = width
    self.height = height
    epoxy_glGenFramebuffers(1, &framebuffer)
    epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
    epoxy_glGenRenderbuffers(1, &colorBuffer)
    epoxy_glBindRenderbuffer(GLenum(GL_RENDERBUFFER), colorBuffer)
    epoxy_glRenderbufferStorage(
      GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
    epoxy_glFramebufferRenderbuffer(
      GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), colorBuffer)
    let status = epoxy_glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
    guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
      throw GLError.tooLarge(
        "no \(width)×\(height) framebuffer (status 0x\(String(status, radix: 16)), "
          + "\(glErrorName(epoxy_glGetError())))")
    }
  }

  deinit {
    epoxy_glDeleteFramebuffers(1, &framebuffer)
    epoxy_glDeleteRenderbuffers(1, &colorBuffer)
  }

  /// Directs drawing into this target.
  public func bind() {
    epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
  }

  /// Reads the picture back, rows from the top (GL's rows start at the bottom).
  public func read() throws -> RGBAImage {
    bind()
    epoxy_glFinish()
    var bottomUp = [UInt8](repeating: 0, count: width * height * 4)
    epoxy_glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
    epoxy_glReadPixels(
      0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &bottomUp)
    try checkGL("reading back \(width)×\(height) pixels")
    let row = width * 4
    var topDown = [UInt8]()
    topDown.reserveCapacity(bottomUp.count)
    for y in (0..<height).reversed() {
      topDown += bottomUp[(y * row)..<((y + 1) * row)]
    }
    return RGBAImage(width: width, height: height, bytes: topDown)
  }
}

extension OffscreenTarget {
  /// Draws `ring` as `renderer` sees it at clock `now`, over the scene background, in a window of
  /// `window` points spread over this target, and reads the picture back.
  public func snapshot(
    of ring: inout ParticleRing, at now: Tick, window: Size, renderer: ParticleRenderer
  ) throws -> RGBAImage {
    bind()
    try renderer.upload(from: &ring)
    renderer.setViewport(width: width, height: height, window: window)
    GLFrame.clear(to: ConfettiScene.background)
    try renderer.draw(ring, at: now)
    return try read()
  }
}
