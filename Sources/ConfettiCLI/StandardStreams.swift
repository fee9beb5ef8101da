import ArgumentParser
import CProcess
import ConfettiCore
import Glibc

/// Says `line` on standard error as the program's own: "confetti: …", on one line whatever it
/// echoes: control characters (a newline or an escape in a name given) are written as escapes,
/// and a line over 2,000 characters keeps its start and end around "…".
func say(_ line: String) {
  StandardStreams.writeError("confetti: \(oneLine(line))\n")
}

/// The standard streams, made safe to lose: a program started with one of them closed, or whose
/// standard error is a full disk or a pipe nobody reads, still runs and ends as it would.
enum StandardStreams {
  /// Opens /dev/null on each of descriptors 0, 1 and 2 that is closed, so that no file, pipe or
  /// socket opened later lands there (and gets the program's messages written into it).
  ///
  /// A closed standard output gets /dev/full instead: what a command prints fails there, and
  /// ``finishWritingStandardOutput()`` says so, so that a command whose work is to print (a
  /// preset, the schema, the shaders) never succeeds having printed nothing.
  static func keepOpen() {
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
  nonisolated(unsafe) static var outputWasClosed = false

  /// Writes `text` to standard error as far as it goes: a closed pipe (no SIGPIPE), a full
  /// disk or a closed descriptor loses the message, never the program.
  static func writeError(_ text: String) {
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
}

/// Flushes standard output and exits 1 with one line if it could not all be written (a full
/// disk, a closed pipe): a cut-off schema or preset file must not look like a success.
func finishWritingStandardOutput() {
  // Every stream: a write that failed earlier leaves its data buffered, and fails again here;
  // or, when the buffer filled and was written out (and lost) along the way, the stream's
  // error flag says so.
  let earlier = errno
  if fflush(nil) != 0 || confetti_standard_output_failed() != 0 {
    let reason =
      StandardStreams.outputWasClosed
      ? "it is closed" : String(cString: strerror(errno != 0 ? errno : earlier))
    say("cannot write standard output: \(reason)")
    exit(1)
  }
}

/// Runs `body`; a failure becomes one line on stderr, "confetti: …", and exit code 1.
func reportingFailures(_ body: () throws -> Void) throws {
  do {
    try body()
  } catch let error as ExitCode {
    throw error
  } catch let error as InterruptedError {
    say("\(error)")
    throw ExitCode(128 + error.signal)
  } catch {
    say("\(error)")
    throw ExitCode.failure
  }
}
