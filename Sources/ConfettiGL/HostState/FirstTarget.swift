@preconcurrency import CEpoxy

/// Draw buffer 0 and viewport 0: the only ones a confetti draw writes to. Where the GL keeps
/// blending, the colour mask, the viewport or the scissor test and box for each draw buffer or
/// viewport, confetti sets (and puts back) the first's alone, so that a host's others stay as
/// it set them. The whole-state calls (`glEnable(GL_BLEND)`, `glColorMask`, `glBlendFunc`,
/// `glViewport`, `glScissor`) would set every one of them. The non-indexed queries read the
/// first's, as saving them does (``HostGLState``).
package struct FirstTarget: Sendable, Equatable {
  /// Whether blend functions and equations are kept for each draw buffer (GL 4.0); blending on
  /// or off and the colour mask are from GL 3.0, which confetti requires.
  package var blendsPerDrawBuffer: Bool
  /// Whether viewports, scissor boxes and scissor tests are kept for each viewport (GL 4.1).
  package var hasViewportArray: Bool

  /// On a GL of `version` (major × 10 + minor, as `epoxy_gl_version` gives it).
  package init(version: Int32) {
    blendsPerDrawBuffer = version >= 40
    hasViewportArray = version >= 41
  }

  /// The current context's.
  package static var current: FirstTarget { FirstTarget(version: Int32(epoxy_gl_version())) }

  /// Turns blending on or off.
  package func setBlending(_ on: Bool) {
    if on { epoxy_glEnablei(GLenum(GL_BLEND), 0) } else { epoxy_glDisablei(GLenum(GL_BLEND), 0) }
  }

  /// Sets the blend functions, each channel's source and destination factors.
  package func setBlendFunctions(
    sourceRGB: GLenum, destinationRGB: GLenum, sourceAlpha: GLenum, destinationAlpha: GLenum
  ) {
    if blendsPerDrawBuffer {
      epoxy_glBlendFuncSeparatei(0, sourceRGB, destinationRGB, sourceAlpha, destinationAlpha)
    } else {
      epoxy_glBlendFuncSeparate(sourceRGB, destinationRGB, sourceAlpha, destinationAlpha)
    }
  }

  /// Sets the blend equations of the colour and of alpha.
  package func setBlendEquations(rgb: GLenum, alpha: GLenum) {
    if blendsPerDrawBuffer {
      epoxy_glBlendEquationSeparatei(0, rgb, alpha)
    } else {
      epoxy_glBlendEquationSeparate(rgb, alpha)
    }
  }

  /// Premultiplied colour laid over what is there (`ONE, ONE_MINUS_SRC_ALPHA`), or with
  /// `source` and `destination` as both channels' factors, added.
  package func blend(
    source: GLenum = GLenum(GL_ONE), destination: GLenum = GLenum(GL_ONE_MINUS_SRC_ALPHA)
  ) {
    setBlending(true)
    setBlendEquations(rgb: GLenum(GL_FUNC_ADD), alpha: GLenum(GL_FUNC_ADD))
    setBlendFunctions(
      sourceRGB: source, destinationRGB: destination, sourceAlpha: source,
      destinationAlpha: destination)
  }

  /// Sets which channels are written.
  package func setColorMask(_ mask: [GLboolean]) {
    epoxy_glColorMaski(0, mask[0], mask[1], mask[2], mask[3])
  }

  /// Writes every channel.
  package func writeAllChannels() {
    setColorMask([GLboolean](repeating: GLboolean(GL_TRUE), count: 4))
  }

  /// Sets the viewport.
  package func setViewport(x: GLint, y: GLint, width: GLsizei, height: GLsizei) {
    if hasViewportArray {
      epoxy_glViewportIndexedf(0, GLfloat(x), GLfloat(y), GLfloat(width), GLfloat(height))
    } else {
      epoxy_glViewport(x, y, width, height)
    }
  }

  /// Turns the scissor test on or off.
  package func setScissorTest(_ on: Bool) {
    let test = GLenum(GL_SCISSOR_TEST)
    switch (hasViewportArray, on) {
    case (true, true): epoxy_glEnablei(test, 0)
    case (true, false): epoxy_glDisablei(test, 0)
    case (false, true): epoxy_glEnable(test)
    case (false, false): epoxy_glDisable(test)
    }
  }

  /// Sets the scissor box.
  package func setScissor(x: GLint, y: GLint, width: GLsizei, height: GLsizei) {
    if hasViewportArray {
      epoxy_glScissorIndexed(0, x, y, width, height)
    } else {
      epoxy_glScissor(x, y, width, height)
    }
  }
}
