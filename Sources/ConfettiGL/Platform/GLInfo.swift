@preconcurrency import CEpoxy
import Glibc
import Synchronization

/// What the current context is and can do, read once after it is made current.
public struct GLInfo: Sendable {
  /// GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
  public var renderer: String
  /// GL_VERSION, e.g. "4.5 (Core Profile) Mesa 22.3.6".
  public var version: String
  /// The largest point sprite, in pixels.
  public var maxPointSize: Float
  /// The largest viewport, in pixels.
  public var maxViewport: (width: Int, height: Int)
  /// The widest and tallest texture, in pixels (GL_MAX_TEXTURE_SIZE): the largest light layer.
  public var maxTextureSize = 0
  /// What the GL keeps for each draw buffer and viewport, of the state a draw sets.
  package var firstTarget = FirstTarget(version: 33)
  /// How many draw buffers a framebuffer may write at once (GL_MAX_DRAW_BUFFERS): a draw turns
  /// the colour masks of all but the first off, which its shaders write no colour to.
  package var maxDrawBuffers = 1
  /// The draw buffers after the first (from GL_MAX_DRAW_BUFFERS), which a draw's shaders
  /// write no colour to: their colour masks are off while it draws, and put back after.
  package var otherDrawBuffers: Range<GLuint> { 1..<GLuint(maxDrawBuffers) }
  /// Whether draws can start at an instance other than 0 (GL 4.2, or ARB_base_instance): a
  /// ring's live span is then drawn from where it starts with no attribute pointers moved.
  public var hasBaseInstance: Bool
  /// Whether the clip origin can be moved to the upper left (GL 4.5, or ARB_clip_control): a
  /// draw then sets it back to the lower left for its own sprites, and puts the host's back.
  public var hasClipControl = false
  /// Where a viewport's origin may lie (GL 4.1, or ARB_viewport_array); nil where the GL does
  /// not say. The GL moves an origin outside it to its end.
  public var viewportBounds: ClosedRange<Int>? = nil
  /// Whether points are drawn as whole-pixel squares: a compatibility-profile context, where
  /// a draw turns point sprites off and the GL's rule for other points places each square on
  /// whole pixels (around the pixel holding the centre for odd sizes, the pixel corner nearest
  /// it for even ones). Mesa's llvmpipe rasterises those squares as rectangles, a faster path
  /// than the one it takes for a sprite's square (docs/performance.md). A core profile has only
  /// sprites, sized to the fraction of a pixel.
  public var drawsWholePixelPoints = false

  /// Checks that the current context is GL 3.3 or newer, then reads its limits.
  ///
  /// Only GL 1.0 entry points are called before the version is known, so an old GL gets this
  /// error rather than an abort inside libepoxy on a missing function.
  public static func requireCurrent() throws -> GLInfo {
    guard isContextCurrent else {
      throw GLError.noContext(
        "no OpenGL context is current on this thread: make the program's GL 3.3 context "
          + "current first")
    }
    let version = epoxy_gl_version()
    let renderer = string(GL_RENDERER)
    let versionString = string(GL_VERSION)
    guard epoxy_is_desktop_gl(), version >= 33 else {
      throw GLError.unsupported(
        "OpenGL 3.3 is required, but the current context is \(versionString) (\(renderer)): "
          + "make a context of 3.3 or newer, core or compatibility profile"
          + (renderer.contains("llvmpipe")
            ? ""
            : "; where the driver offers none, update it, or use Mesa's llvmpipe "
              + "(LIBGL_ALWAYS_SOFTWARE=1)"))
    }
    var pointSizes: [GLfloat] = [0, 0]
    epoxy_glGetFloatv(GLenum(GL_ALIASED_POINT_SIZE_RANGE), &pointSizes)
    var viewport: [GLint] = [0, 0]
    epoxy_glGetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &viewport)
    var bounds: [GLfloat] = [0, 0]
    let hasBounds = version >= 41 || epoxy_has_gl_extension("GL_ARB_viewport_array")
    if hasBounds { epoxy_glGetFloatv(GLenum(GL_VIEWPORT_BOUNDS_RANGE), &bounds) }
    var profile: GLint = 0
    epoxy_glGetIntegerv(GLenum(GL_CONTEXT_PROFILE_MASK), &profile)
    var textureSize: GLint = 0
    epoxy_glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &textureSize)
    var drawBuffers: GLint = 1
    epoxy_glGetIntegerv(GLenum(GL_MAX_DRAW_BUFFERS), &drawBuffers)
    return GLInfo(
      renderer: renderer, version: versionString, maxPointSize: pointSizes[1],
      maxViewport: (Int(viewport[0]), Int(viewport[1])), maxTextureSize: Int(textureSize),
      firstTarget: FirstTarget(version: version), maxDrawBuffers: max(1, Int(drawBuffers)),
      hasBaseInstance: version >= 42 || epoxy_has_gl_extension("GL_ARB_base_instance"),
      hasClipControl: version >= 45 || epoxy_has_gl_extension("GL_ARB_clip_control"),
      viewportBounds: hasBounds && bounds[0] <= bounds[1] ? Int(bounds[0])...Int(bounds[1]) : nil,
      drawsWholePixelPoints: profile & GLint(GL_CONTEXT_COMPATIBILITY_PROFILE_BIT) != 0)
  }

  /// Whether a GL context is current on this thread (one that answers a version).
  package static var isContextCurrent: Bool {
    // EGL's and GLX's own answer (whichever the host loaded) is kept by the calling thread and
    // asks the driver nothing; without a context from either, GL's own answer. A context EGL
    // still names after the host destroyed it (and terminated its display) is none: a GL call
    // then would make libepoxy abort the process.
    if WindowSystem.eglContextIsDead { return false }
    return WindowSystem.currentContext != nil || epoxy_glGetString(GLenum(GL_VERSION)) != nil
  }

  private static func string(_ name: Int32) -> String {
    guard let text = epoxy_glGetString(GLenum(name)) else { return "(unknown)" }
    return String(cString: text)
  }
}
