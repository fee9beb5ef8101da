import CProcess
import Glibc

/// The standard streams, made safe to lose: a program started with one of them closed, or whose
/// standard error is a full disk or a pipe nobody reads, still runs and ends as it would.
package enum StandardStreams {
  /// Opens /dev/null on each of descriptors 0, 1 and 2 that is closed, so that no file, pipe or
  /// socket opened later lands there (and gets the program's messages written into it).
  ///
  /// A closed standard output gets /dev/full instead: what a command prints fails there, and
  /// ``outputFailure()`` says so, so that a command whose work is to print (a preset, the
  /// schema, the shaders) never succeeds having printed nothing.
  package static func keepOpen() {
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO]
    where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      if descriptor == STDOUT_FILENO { outputWasClosed = true }
      let null = open(
        descriptor == STDOUT_FILENO ? "/dev/full" : "/dev/null",
        descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
      if null >= 0, null != descriptor {
        dup2(null, descriptor)
        close(null)
      }
    }
  }

  /// Whether standard output was closed when the program started (it is /dev/full now).
  nonisolated(unsafe) package static var outputWasClosed = false

  /// Writes `text` to standard error as far as it goes: a closed pipe (no SIGPIPE), a full
  /// disk or a closed descriptor loses the message, never the program.
  package static func writeError(_ text: String) {
    let bytes = Array(text.utf8)
    let previous = signal(SIGPIPE, SIG_IGN)
    defer { signal(SIGPIPE, previous) }
    var written = 0
    while written < bytes.count {
      let result = bytes[written...].withUnsafeBufferPointer {
        write(STDERR_FILENO, $0.baseAddress, $0.count)
      }
      if result > 0 {
        written += result
      } else if result < 0, errno == EINTR {
        continue
      } else {
        return
      }
    }
  }

  /// Flushes every stream, and says why standard output could not all be written (a full disk,
  /// a closed pipe, "it is closed"); nil when it was.
  package static func outputFailure() -> String? {
    // Every stream: a write that failed earlier leaves its data buffered, and fails again here;
    // or, when the buffer filled and was written out (and lost) along the way, the stream's
    // error flag says so.
    let earlier = errno
    guard fflush(nil) != 0 || confetti_standard_output_failed() != 0 else { return nil }
    guard !outputWasClosed else { return "it is closed" }
    return String(cString: strerror(errno != 0 ? errno : earlier))
  }

  /// Writes out what standard output holds; where it cannot, drops it (so that it is not tried
  /// again, and reported, at exit) and says why.
  package static func flushOutputOrDrop() -> String? {
    guard confetti_flush_standard_output() != 0 || confetti_standard_output_failed() != 0 else {
      return nil
    }
    let reason = String(cString: strerror(errno))
    confetti_discard_standard_output()
    return reason
  }
}
