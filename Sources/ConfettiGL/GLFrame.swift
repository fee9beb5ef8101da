@preconcurrency import CEpoxy
import ConfettiCore

/// Whole-frame operations on the bound framebuffer.
public enum GLFrame {
  /// The backdrop the window and `confetti render` clear to: a deep blue-grey that every
  /// palette colour stands out against.
  public static let background = RGBA8(red: 18, green: 20, blue: 28)

  /// Clears the bound framebuffer (within the scissor box, if scissoring is on) to an opaque
  /// background colour. Leaves that colour as the clear colour.
  public static func clear(to color: RGBA8) {
    epoxy_glClearColor(
      GLfloat(color.red) / 255, GLfloat(color.green) / 255, GLfloat(color.blue) / 255, 1)
    epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
  }

  /// Waits until the GPU has finished every command issued so far.
  public static func finish() {
    epoxy_glFinish()
  }
}
