import ArgumentParser
import ConfettiCore
import ConfettiExport
import ConfettiPlatform
import Glibc

/// Says `line` on standard error as the program's own: "confetti: …", on one line whatever it
/// echoes: control characters (a newline or an escape in a name given) are written as escapes,
/// and a line over 2,000 characters keeps its start and end around "…".
func say(_ line: String) {
  StandardStreams.writeError("confetti: \(oneLine(line))\n")
}

/// Flushes standard output and exits 1 with one line if it could not all be written (a full
/// disk, a closed pipe): a cut-off schema or preset file must not look like a success.
func finishWritingStandardOutput() {
  if let reason = StandardStreams.outputFailure() {
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
