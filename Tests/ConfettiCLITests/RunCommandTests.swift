import Foundation
import XCTest

/// `confetti run -- CMD`: the command's output, input, signals and status pass through; the
/// desktop celebrates only a success, and never changes the status.
final class RunCommandTests: XCTestCase {
  /// No display of any kind: a remote shell.
  let headless: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil]

  func testTheCommandsOutputAndStatusPassThroughAndAFailureIsNotCelebrated() throws {
    let result = try confetti(
      ["run", "--", "sh", "-c", "echo out; echo err >&2; exit 3"], environment: headless)
    XCTAssertEqual(result.status, 3)
    XCTAssertEqual(result.stdout, "out\n")
    XCTAssertEqual(result.stderr, "err\n", "nothing of confetti's own after a failure")
  }

  func testASuccessWithNoDesktopSaysSoInOneLineAndKeepsTheStatus() throws {
    let result = try confetti(["run", "--", "true"], environment: headless)
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(
      result.stderr,
      "confetti: no desktop to celebrate on (DISPLAY is not set); the command succeeded\n")
  }

  func testTheCommandsArgumentsAreItsOwn() throws {
    // Words after -- are never read as confetti's options, negative numbers included.
    let result = try confetti(
      ["run", "--", "sh", "-c", "printf '%s|' \"$@\"", "sh", "--preset", "--level", "-1", "--"],
      environment: headless)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stdout, "--preset|--level|-1|--|")

    // And its environment is the one confetti was given, not confetti's own GL settings.
    let environment = try confetti(
      ["run", "--", "sh", "-c", "echo ${LIBGL_DEBUG-unset} ${EGL_LOG_LEVEL-unset} $MARK"],
      environment: headless.merging(
        ["LIBGL_DEBUG": nil, "EGL_LOG_LEVEL": nil, "MARK": "kept"]) { $1 })
    XCTAssertEqual(environment.stdout, "unset unset kept\n", environment.stderr)
  }

  func testACommandThatCannotRunGetsTheShellsStatus() throws {
    let missing = try confetti(
      ["run", "--", "no-such-command-for-confetti"], environment: headless)
    XCTAssertEqual(missing.status, 127)
    XCTAssertEqual(
      missing.stderr,
      "confetti: cannot run no-such-command-for-confetti: No such file or directory\n")
    let file = try temporaryDirectory().appendingPathComponent("not-a-program")
    try Data("text".utf8).write(to: file)
    let refused = try confetti(["run", "--", file.path], environment: headless)
    XCTAssertEqual(refused.status, 126)
    XCTAssert(refused.stderr.hasSuffix("Permission denied\n"), refused.stderr)
    let none = try confetti(["run"], environment: headless)
    XCTAssertEqual(none.status, 64)
    XCTAssert(none.stderr.contains("give the command to run after --"), none.stderr)
  }

  func testSignalsReachTheCommandAndEndItsStatus() throws {
    // Killed by a signal: 128 + its number, as the shell says it.
    let killed = try confetti(["run", "--", "sh", "-c", "kill -9 $$"], environment: headless)
    XCTAssertEqual(killed.status, 128 + 9)

    // SIGTERM sent to confetti alone reaches the command, which decides how it ends.
    let ready = try temporaryDirectory().appendingPathComponent("ready")
    let process = Process()
    process.executableURL = confettiBinary
    process.arguments = [
      "run", "--", "sh", "-c", "trap 'exit 42' TERM; : > \"$0\"; while :; do sleep 0.05; done",
      ready.path,
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = nil
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(30)
    while !FileManager.default.fileExists(atPath: ready.path), Date() < deadline { usleep(10_000) }
    XCTAssert(FileManager.default.fileExists(atPath: ready.path), "the command started")
    process.terminate()  // SIGTERM to confetti
    process.waitUntilExit()
    XCTAssertEqual(process.terminationReason, .exit)
    XCTAssertEqual(process.terminationStatus, 42, "the command's own answer to SIGTERM")
  }

  func testASuccessCelebratesOverTheDesktopAndWithoutACompositorSaysWhy() throws {
    let display = try startXvfb(size: "800x600x24")
    defer { display.server.terminate() }
    let environment: [String: String?] = ["DISPLAY": display.name, "WAYLAND_DISPLAY": nil]

    let bare = try confetti(["run", "--", "true"], environment: environment)
    XCTAssertEqual(bare.status, 0, "the command's status, whatever the overlay says")
    XCTAssertEqual(bare.stderr.split(separator: "\n").count, 1, bare.stderr)
    XCTAssert(bare.stderr.contains("needs a compositing window manager"), bare.stderr)

    try requireTools(["/usr/bin/xcompmgr"], for: "the overlay")
    let compositor = try launch("/usr/bin/xcompmgr", [], display: display.name)
    defer { compositor.terminate() }
    usleep(300_000)
    let snapshot = try temporaryDirectory().appendingPathComponent("celebration.png")
    let result = try confetti(
      [
        "run", "--preset", "tap-burst", "--snapshot", snapshot.path, "--", "sh", "-c", "echo built",
      ],
      environment: environment)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stdout, "built\n")
    XCTAssertEqual(result.stderr, "")
    XCTAssert(
      FileManager.default.fileExists(atPath: snapshot.path),
      "the overlay drew its celebration (its snapshot was written)")
  }
}
