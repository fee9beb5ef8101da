@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiImage

/// Whole-frame operations on the bound framebuffer.
public enum GLFrame {
  /// The backdrop the window and `confetti render` clear to: a deep blue-grey that every
  /// palette colour stands out against.
  public static let background = RGBA8(red: 18, green: 20, blue: 28)

  /// Clears the bound framebuffer (within the scissor box, if scissoring is on; `whole`: all of
  /// it, leaving scissoring off) to a background colour, premultiplied by its alpha as the
  /// particles are blended (a transparent backdrop is all zeros). Leaves that colour as the
  /// clear colour.
  public static func clear(to color: RGBA8, whole: Bool = false) {
    if whole { epoxy_glDisable(GLenum(GL_SCISSOR_TEST)) }
    let alpha = GLfloat(color.alpha) / 255
    epoxy_glClearColor(
      GLfloat(color.red) / 255 * alpha, GLfloat(color.green) / 255 * alpha,
      GLfloat(color.blue) / 255 * alpha, alpha)
    epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
  }

  /// The bound framebuffer's pixels from (0, 0) to (`width`, `height`), top row first, as
  /// stored (premultiplied by alpha where the backdrop is transparent). Waits for the GPU;
  /// leaves the pack settings as it found them.
  public static func read(width: Int, height: Int) throws -> RGBAImage {
    var bottomUp: [UInt8] = []
    try read(width: width, height: height, bottomRowFirst: &bottomUp)
    let row = width * 4
    // Rows turned top down, a copy of each.
    let topDown = [UInt8](unsafeUninitializedCapacity: row * height) { buffer, count in
      bottomUp.withUnsafeBytes { source in
        for y in 0..<height {
          UnsafeMutableRawPointer(buffer.baseAddress! + y * row).copyMemory(
            from: source.baseAddress! + (height - 1 - y) * row, byteCount: row)
        }
      }
      count = row * height
    }
    return RGBAImage(width: width, height: height, bytes: topDown)
  }

  /// The same pixels as GL stores them, bottom row first, into `rows`: no copy to turn them,
  /// and no new memory when `rows` already holds a picture of this size (a clip reuses one
  /// from frame to frame). Waits for the GPU; leaves the pack settings as it found them.
  public static func read(width: Int, height: Int, bottomRowFirst rows: inout [UInt8]) throws {
    epoxy_glFinish()
    let count = width * 4 * height
    if rows.count != count {
      rows = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }
    var (packAlignment, packBuffer): (GLint, GLint) = (0, 0)
    epoxy_glGetIntegerv(GLenum(GL_PACK_ALIGNMENT), &packAlignment)
    epoxy_glGetIntegerv(GLenum(GL_PIXEL_PACK_BUFFER_BINDING), &packBuffer)
    defer {
      epoxy_glPixelStorei(GLenum(GL_PACK_ALIGNMENT), packAlignment)
      epoxy_glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), GLuint(packBuffer))
    }
    epoxy_glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
    epoxy_glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
    rows.withUnsafeMutableBytes { buffer in
      epoxy_glReadPixels(
        0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
        buffer.baseAddress)
    }
    try checkGL("reading back \(width)×\(height) pixels")
  }

  /// Waits until the GPU has finished every command issued so far.
  public static func finish() {
    epoxy_glFinish()
  }
}
