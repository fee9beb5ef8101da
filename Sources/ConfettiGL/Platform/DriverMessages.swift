import ConfettiPlatform
import FoundationEssentials
import Glibc

/// The graphics driver's own chatter ("libEGL warning: MESA-LOADER: failed to open swrast …")
/// kept off the terminal, so that a failure is the program's one line that says what to do.
///
/// Mesa's logging is turned down through its variables (unless the user set them), and what the
/// driver still writes to standard error while a context is being made is dropped. Setting
/// `CONFETTI_DRIVER_MESSAGES=1` lets it all through, for a bug report.
package enum DriverMessages {
  package static let showVariable = "CONFETTI_DRIVER_MESSAGES"

  private static var shown: Bool {
    let value = ProcessInfo.processInfo.environment[showVariable] ?? ""
    return !["", "0", "false", "no"].contains(value.lowercased())
  }

  /// Turns Mesa's EGL and GLX loaders' logging down. Call before any GL library is used.
  package static func quietDrivers() {
    guard !shown else { return }
    setenv("EGL_LOG_LEVEL", "fatal", 0)
    setenv("LIBGL_DEBUG", "quiet", 0)
  }

  /// One silencing at a time.
  private static let lock = Lock()

  /// Standard error while it is silenced, for the abort handler's one line.
  nonisolated(unsafe) private static var savedError: Int32 = -1

  /// Runs `body` with standard error going nowhere (unless the messages are to be shown), then
  /// puts it back. Should a library abort meanwhile (GLFW asserts), one line says so on the
  /// real standard error and the program exits 1, instead of dying without a word.
  package static func silenced<T>(_ body: () throws -> T) rethrows -> T {
    guard !shown else { return try body() }
    // Standard error is the process's: two threads redirecting it at once would each save the
    // other's /dev/null and leave it silenced for good.
    lock.lock()
    defer { lock.unlock() }
    fflush(nil)
    let saved = dup(STDERR_FILENO)
    let null = open("/dev/null", O_WRONLY)
    guard saved >= 0, null >= 0 else { return try body() }
    dup2(null, STDERR_FILENO)
    close(null)
    savedError = saved
    _ = abortLine.count  // made now: the handler only reads it
    let previous = signal(SIGABRT) { _ in
      DriverMessages.abortLine.withUnsafeBufferPointer {
        _ = write(DriverMessages.savedError, $0.baseAddress, $0.count)
      }
      _exit(1)
    }
    defer {
      signal(SIGABRT, previous)
      savedError = -1
      fflush(nil)
      dup2(saved, STDERR_FILENO)
      close(saved)
    }
    return try body()
  }

  /// What the abort handler says, as bytes.
  private static let abortLine = Array(
    ("confetti: the graphics libraries gave up while the window was being made; "
      + "\(showVariable)=1 shows what they said\n").utf8)
}
