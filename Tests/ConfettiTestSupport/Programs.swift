import Foundation
import XCTest

/// Running programs to their end, or in the background, and the folders they write to.

package struct RunResult {
  package var status: Int32
  package var stdout: String
  package var stderr: String
}

/// The repository the tests are in (Tests/ConfettiTestSupport/ is two folders down).
package let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The `confetti` binary SwiftPM built beside this test bundle.
package var confettiBinary: URL {
  _ = defaultSignals
  return builtBinary("confetti")
}

/// The signals the suite may have been started ignoring, set back to their defaults before the
/// first program starts: a program inherits what its starter ignores (a script's background
/// job ignores SIGINT and SIGQUIT, nohup SIGHUP), and confetti keeps ignoring those, as it
/// should; the tests send them and expect the default.
package let defaultSignals: Void = {
  for number in [SIGINT, SIGQUIT, SIGHUP] { signal(number, SIG_DFL) }
}()

/// A program SwiftPM built beside this test bundle: `confetti`, or an example.
package func builtBinary(_ name: String) -> URL {
  var directory = Bundle.main.bundleURL
  while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path),
    directory.path != "/"
  {
    directory.deleteLastPathComponent()
  }
  return directory.appendingPathComponent(name)
}

/// Runs `confetti` with `arguments`; `environment` overrides (nil removes) variables.
package func confetti(
  _ arguments: [String], environment: [String: String?] = [:], timeout: TimeInterval = 60,
  whileRunning: () throws -> Void = {}
)
  throws -> RunResult
{
  try runProgram(
    confettiBinary, arguments, environment: environment, timeout: timeout,
    whileRunning: whileRunning)
}

/// The program `name` on PATH, or nil.
package func findProgram(_ name: String) -> URL? {
  let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
  return folders.map { URL(fileURLWithPath: String($0)).appending(path: name) }
    .first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// Runs `program` with `arguments` to its end; `environment` overrides (nil removes) variables.
/// `whileRunning` runs once the program has started.
package func runProgram(
  _ program: URL, _ arguments: [String], environment: [String: String?] = [:],
  timeout: TimeInterval = 60, whileRunning: () throws -> Void = {}
)
  throws -> RunResult
{
  _ = defaultSignals
  let process = Process()
  process.executableURL = program
  process.arguments = arguments
  var env = ProcessInfo.processInfo.environment
  for (key, value) in environment { env[key] = value }
  process.environment = env
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = FileHandle.nullDevice
  try process.run()
  let started = Date()
  // Both streams read while it runs, each on a thread of its own, so that neither a full pipe
  // nor a program that hangs with its streams open can block the test past its deadline.
  let readers = DispatchGroup()
  let streams = [out, err].map { pipe in
    let stream = CollectedOutput()
    DispatchQueue.global().async(group: readers) {
      stream.data = pipe.fileHandleForReading.readDataToEndOfFile()
    }
    return stream
  }
  try whileRunning()
  let left = timeout - Date().timeIntervalSince(started)
  if !waitFor(timeout: max(0, left), poll: 0.01, { !process.isRunning }) {
    // Asked to end, given the time a program that catches SIGTERM may take, then killed.
    process.terminate()
    if !waitFor(timeout: promptEndBound, poll: 0.01, { !process.isRunning }) {
      kill(process.processIdentifier, SIGKILL)
    }
    XCTFail("\(program.lastPathComponent) \(arguments) did not finish within \(timeout) s")
  }
  process.waitUntilExit()
  // A child it left behind may hold the streams open: what was read by then is the output.
  if readers.wait(timeout: .now() + 10) == .timedOut {
    XCTFail("\(program.lastPathComponent) \(arguments) left its output open after it ended")
    return RunResult(status: process.terminationStatus, stdout: "", stderr: "")
  }
  return RunResult(
    status: process.terminationStatus, stdout: String(decoding: streams[0].data, as: UTF8.self),
    stderr: String(decoding: streams[1].data, as: UTF8.self))
}

/// One stream's bytes, written by its reader thread and read once the reader is done.
package final class CollectedOutput: @unchecked Sendable {
  package var data = Data()
}

package func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "confetti-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Starts `path` on X display `display`, its output to `output` and its errors to `errors` (or
/// nowhere), without waiting.
package func launch(
  _ path: String, _ arguments: [String], display: String, output: FileHandle? = nil,
  errors: FileHandle? = nil
) throws -> Process {
  try launch(path, arguments, environment: ["DISPLAY": display], output: output, errors: errors)
}

/// Starts `path` with `environment` over this process's (nil removes a variable), its output to
/// `output` and its errors to `errors` (or nowhere), without waiting.
package func launch(
  _ path: String, _ arguments: [String], environment: [String: String?],
  output: FileHandle? = nil, errors: FileHandle? = nil
) throws -> Process {
  _ = defaultSignals
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  var merged = ProcessInfo.processInfo.environment
  for (key, value) in environment { merged[key] = value }
  process.environment = merged
  process.standardOutput = output ?? FileHandle.nullDevice
  process.standardError = errors ?? FileHandle.nullDevice
  try process.run()
  return process
}

/// A folder that does not exist: one this process made and removed, so that nothing outside
/// the tests (`/nonexistent` is the `nobody` account's home, which a program may create) decides
/// whether a test that writes into it fails as it should.
package let missingFolder: String = {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "confetti-missing-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  try? FileManager.default.removeItem(at: url)
  return url.path
}()

/// How soon after a signal a program must have ended, in the tests: the program's own
/// watchdog ends it within half a second (`Interruption.promptEnd`), and a second is what a
/// quiet machine shows; a machine running other work as well (four busy processes on two
/// cores) was seen to take 1.03 s, so the bound is kept at 2.5 s.
package let promptEndBound: TimeInterval = 2.5

/// Sends `signal` to `process` and asserts it ends promptly (``promptEndBound``): with a clean 0,
/// or, when the signal came before the program could note it, by the signal itself. `context`
/// says when.
package func assertEndsWithinASecond(
  _ process: Process, after signal: Int32, _ context: String = "",
  file: StaticString = #filePath, line: UInt = #line
) {
  kill(process.processIdentifier, signal)
  let sent = Date()
  let ended = waitFor(timeout: 5, poll: 0.002) { !process.isRunning }
  let took = Date().timeIntervalSince(sent)
  let label = "signal \(signal)\(context)"
  XCTAssert(ended, "still running 5 s after \(label)", file: file, line: line)
  XCTAssertLessThan(took, promptEndBound, "ended \(took) s after \(label)", file: file, line: line)
  if !ended { kill(process.processIdentifier, SIGKILL) }
  process.waitUntilExit()
  let endedBySignal =
    process.terminationReason == .uncaughtSignal && process.terminationStatus == signal
  XCTAssert(
    process.terminationStatus == 0 || endedBySignal,
    "status \(process.terminationStatus) after \(label)", file: file, line: line)
}

/// The results of programs run side by side (`DispatchQueue.concurrentPerform`), one slot each,
/// written by the thread that ran it and read once all are done.
package final class CollectedResults: @unchecked Sendable {
  private var slots: [Result<RunResult, Error>?]
  private let lock = NSLock()

  package init(count: Int) { slots = Array(repeating: nil, count: count) }

  package subscript(index: Int) -> Result<RunResult, Error>? {
    get { lock.withLock { slots[index] } }
    set { lock.withLock { slots[index] = newValue } }
  }
}
