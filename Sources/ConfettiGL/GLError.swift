@preconcurrency import CEpoxy
import ConfettiPlatform
import FoundationEssentials
import Glibc

/// Everything the GL layer can fail with, each saying what is wrong and what to do.
public enum GLError: Error, CustomStringConvertible, Equatable {
  /// No GL context could be made (no display, no EGL platform, no driver).
  case noContext(String)
  /// The GL is older than 3.3 or lacks something the renderer needs.
  case unsupported(String)
  /// A shader did not compile; carries its file name and the compiler's log.
  case shaderCompile(file: String, log: String)
  /// A program did not link; carries its shaders' file names and the linker's log.
  case programLink(files: [String], log: String)
  /// A GL call raised an error (debug builds check after each group of calls that can fail).
  case call(String, code: UInt32, file: String, line: UInt)
  /// A request the GL cannot hold (too many particles, too large a picture).
  case tooLarge(String)
  /// A draw with a context current other than the one the system was made on.
  case otherContext
  /// A draw into a framebuffer that is not complete (glCheckFramebufferStatus's `status`).
  case incompleteFramebuffer(status: UInt32)

  public var description: String {
    switch self {
    case .noContext(let why): return why
    case .unsupported(let why): return why
    case .shaderCompile(let file, let log):
      return "shader \(file) failed to compile: \(log.trimmed)"
    case .programLink(let files, let log):
      return "program (\(files.joined(separator: ", "))) failed to link: \(log.trimmed)"
    case .call(let what, let code, let file, let line):
      return "GL error \(glErrorName(code)) after \(what) at \(file):\(line)"
    case .tooLarge(let why): return why
    case .incompleteFramebuffer(let status):
      return
        "the framebuffer bound for drawing is not complete (\(framebufferStatusName(status))): "
        + "attach what it needs, or bind one that is, before drawing"
    case .otherContext:
      return "the OpenGL context current now is not the one this system was made on: make that "
        + "one current to draw it (vertex arrays are not shared between contexts, even between "
        + "contexts that share the rest), or make a system on each context"
    }
  }
}

/// In debug builds, throws if the GL has recorded an error since the last check, naming the
/// operation and where it was; in release builds it does nothing (glGetError stalls the pipeline).
@inline(__always)
package func checkGL(
  _ operation: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
)
  throws
{
  #if DEBUG
    let code = epoxy_glGetError()
    if code != GLenum(GL_NO_ERROR) {
      throw GLError.call(operation(), code: code, file: "\(file)", line: line)
    }
  #endif
}

package func glErrorName(_ code: UInt32) -> String {
  switch Int32(code) {
  case GL_INVALID_ENUM: return "GL_INVALID_ENUM"
  case GL_INVALID_VALUE: return "GL_INVALID_VALUE"
  case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION"
  case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY"
  case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION"
  default: return "0x" + String(code, radix: 16)
  }
}

extension String {
  fileprivate var trimmed: String {
    split(whereSeparator: \.isNewline).map { $0.trimmed }
      .filter { !$0.isEmpty }.joined(separator: " | ")
  }
}

/// glCheckFramebufferStatus's answer by name.
package func framebufferStatusName(_ status: UInt32) -> String {
  switch Int32(status) {
  case GL_FRAMEBUFFER_UNDEFINED: return "GL_FRAMEBUFFER_UNDEFINED: no default framebuffer"
  case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT: return "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT"
  case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT:
    return "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT: nothing attached"
  case GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER: return "GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER"
  case GL_FRAMEBUFFER_INCOMPLETE_READ_BUFFER: return "GL_FRAMEBUFFER_INCOMPLETE_READ_BUFFER"
  case GL_FRAMEBUFFER_UNSUPPORTED: return "GL_FRAMEBUFFER_UNSUPPORTED"
  case GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE: return "GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE"
  case GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS: return "GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS"
  default: return "status 0x" + String(status, radix: 16)
  }
}
