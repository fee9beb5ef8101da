import ConfettiCelebration
import ConfettiTestSupport
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

  /// Started with SIGCHLD ignored (a parent may leave it so, and exec keeps it), the command's
  /// status still comes through, and a clip is still written. (The kernel reaped the command
  /// as it ended: `run` said "lost the command" and exited 1, and a clip hung 20 s on ffmpeg.)
  func testAProgramStartedWithSIGCHLDIgnoredStillWaitsForItsChildren() throws {
    let ignoring = URL(fileURLWithPath: "/bin/sh")
    for (command, status) in [("exit 7", Int32(7)), ("true", 0), ("exit 1", 1)] {
      let result = try runProgram(
        ignoring,
        ["-c", "trap '' CHLD; exec \"$0\" run -- sh -c \"$1\"", confettiBinary.path, command],
        environment: headless)
      XCTAssertEqual(result.status, status, "\(command): \(result.stderr)")
      XCTAssertFalse(result.stderr.contains("lost"), result.stderr)
    }
    _ = try requiredProgram("ffmpeg", for: "a clip")
    let clip = try temporaryDirectory().appendingPathComponent("c.webm")
    let started = Date()
    let rendered = try runProgram(
      ignoring,
      [
        "-c", "trap '' CHLD; exec \"$0\" render --size 64x48 --frames 3 --out \"$1\"",
        confettiBinary.path, clip.path,
      ], environment: headless)
    XCTAssertEqual(rendered.status, 0, rendered.stderr)
    XCTAssertLessThan(Date().timeIntervalSince(started), 15, "no wait for a lost ffmpeg")
    XCTAssert(FileManager.default.fileExists(atPath: clip.path))
  }

  func testASuccessWithNoDesktopSaysSoInOneLineAndKeepsTheStatus() throws {
    let result = try confetti(["run", "--", "true"], environment: headless)
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(
      result.stderr,
      "confetti: no desktop to celebrate on (DISPLAY is not set); the command succeeded\n")
    // A display that is named but not there (a stale DISPLAY over SSH): one line that says
    // why, and that the command succeeded; its status, and a failure's, kept.
    for (command, status) in [("true", Int32(0)), ("false", 1)] {
      let dead = try confetti(
        ["run", "--", command], environment: ["DISPLAY": ":9753", "WAYLAND_DISPLAY": nil])
      XCTAssertEqual(dead.status, status, dead.stderr)
      if status == 0 {
        XCTAssert(dead.stderr.contains(":9753"), dead.stderr)
        XCTAssert(dead.stderr.hasSuffix("; the command succeeded\n"), dead.stderr)
        XCTAssertEqual(dead.stderr.split(separator: "\n").count, 1, dead.stderr)
      } else {
        XCTAssertEqual(dead.stderr, "", "nothing of confetti's own after a failure")
      }
    }
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

  /// An effect file that cannot be celebrated is said before the command runs (a long build
  /// is not run only to learn of a typo), in one line, with a usage error's status; the
  /// command is not run.
  func testABadEffectFileIsSaidBeforeTheCommandRuns() throws {
    let folder = try temporaryDirectory()
    let ran = folder.appendingPathComponent("ran")
    let broken = folder.appendingPathComponent("broken.json")
    try Data("{bad".utf8).write(to: broken)
    let nameless = folder.appendingPathComponent("nameless.json")
    try Data(#"{"emitters": []}"#.utf8).write(to: nameless)
    for (file, said) in [
      (broken.path, "not valid JSON"), (nameless.path, "missing \"name\""),
      (folder.appendingPathComponent("missing.json").path, "No such file or directory"),
    ] {
      let refused = try confetti(
        ["run", "--config", file, "--", "touch", ran.path], environment: headless)
      XCTAssertEqual(refused.status, 64, refused.stderr)
      XCTAssert(refused.stderr.contains(said), refused.stderr)
      XCTAssert(refused.stderr.contains("the command was not run"), refused.stderr)
      XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
      XCTAssertFalse(FileManager.default.fileExists(atPath: ran.path), "\(file): it ran")
    }
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
    let started = waitFor(timeout: 30, poll: 0.01) {
      FileManager.default.fileExists(atPath: ready.path)
    }
    XCTAssert(started, "the command started")
    process.terminate()  // SIGTERM to confetti
    process.waitUntilExit()
    XCTAssertEqual(process.terminationReason, .exit)
    XCTAssertEqual(process.terminationStatus, 42, "the command's own answer to SIGTERM")
  }

  /// `timeout N confetti run -- CMD` ends a command that stopped itself, as `timeout N CMD`
  /// does: the SIGTERM passed on is followed by a SIGCONT, which `timeout` sends confetti alone.
  func testSIGTERMEndsAStoppedCommand() throws {
    let stopped = try temporaryDirectory().appendingPathComponent("stopped")
    let process = Process()
    process.executableURL = confettiBinary
    process.arguments = [
      "run", "--", "sh", "-c", ": > \"$0\"; kill -STOP $$; exit 5", stopped.path,
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = nil
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    // The command is stopped once its state says so (its pid: confetti's only child).
    var state = ""
    _ = waitFor(timeout: 30, poll: 0.01) {
      guard FileManager.default.fileExists(atPath: stopped.path),
        let children = try? String(
          contentsOfFile:
            "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/children",
          encoding: .utf8),
        let child = children.split(separator: " ").first,
        let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      state = String(stat[stat.index(close, offsetBy: 2)])
      return state == "T"
    }
    XCTAssertEqual(state, "T", "the command stopped itself")
    process.terminate()  // SIGTERM to confetti alone
    guard waitFor(timeout: 30, poll: 0.01, { !process.isRunning }) else {
      return XCTFail("SIGTERM did not end the stopped command, nor confetti")
    }
    XCTAssertEqual(process.terminationStatus, 128 + SIGTERM, "ended by the SIGTERM passed on")
  }

  func testASuccessCelebratesOverTheDesktopAndWithoutACompositorSaysWhy() throws {
    let display = try startXvfb(size: "800x600x24")
    defer { stopXvfb(display.server) }
    let environment: [String: String?] = ["DISPLAY": display.name, "WAYLAND_DISPLAY": nil]

    let bare = try confetti(["run", "--", "true"], environment: environment)
    XCTAssertEqual(bare.status, 0, "the command's status, whatever the overlay says")
    XCTAssertEqual(bare.stderr.split(separator: "\n").count, 1, bare.stderr)
    XCTAssert(bare.stderr.contains("needs a compositing window manager"), bare.stderr)

    try requireTools(["/usr/bin/xcompmgr"], for: "the overlay")
    let compositor = try launchCompositor(display: display.name)
    defer { compositor.terminate() }
    let snapshot = try temporaryDirectory().appendingPathComponent("celebration.png")
    let result = try confetti(
      [
        "run", "--wait", "--preset", "tap-burst", "--snapshot", snapshot.path, "--", "sh", "-c",
        "echo built",
      ],
      environment: environment)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stdout, "built\n")
    XCTAssertEqual(result.stderr, "")
    XCTAssert(
      FileManager.default.fileExists(atPath: snapshot.path),
      "the overlay drew its celebration (its snapshot was written)")
  }

  /// `confetti run` gives the shell back as soon as its celebration is on the screen, and the
  /// celebration goes on by itself; the next run's ends it and starts over it, so that two
  /// never pile up. (`--wait` keeps the old way: the tests below.)
  func testRunReturnsOnceItsCelebrationShowsAndTheNextStartsOverIt() throws {
    let display = try compositedDisplay()
    let runtime = try temporaryDirectory()
    let environment: [String: String?] = [
      "DISPLAY": display.name, "WAYLAND_DISPLAY": nil, "XDG_RUNTIME_DIR": runtime.path,
    ]
    /// The overlays a run left with `--duration seconds` (a length no other test uses).
    func left(lasting seconds: Double) -> [pid_t] {
      celebrations().filter {
        $0.handoff.effect == .preset("snow") && $0.handoff.duration == seconds
          && $0.handoff.parent == nil
      }.map(\.pid)
    }
    defer { for pid in left(lasting: 31.5) + left(lasting: 32.5) { kill(pid, SIGTERM) } }
    let started = Date()
    // Its standard output and error are pipes read to their end: a celebration that kept a
    // copy of either would hold this call until it was over (31.5 s and its flakes' lives).
    let first = try confetti(
      ["run", "--preset", "snow", "--duration", "31.5", "--", "true"], environment: environment)
    XCTAssertLessThan(
      Date().timeIntervalSince(started), 25, "back before the celebration is over, nothing held")
    XCTAssertEqual(first.status, 0, first.stderr)
    XCTAssertEqual(first.stderr, "", "shown, nothing to say")
    let firstLeft = left(lasting: 31.5)
    XCTAssertEqual(firstLeft.count, 1, "the celebration goes on after run returned")
    let named = try String(
      contentsOf: runtime.appendingPathComponent("confetti-celebration.pid"), encoding: .utf8)
    XCTAssertEqual(named, "\(firstLeft.first ?? 0)\n", "the celebration left is named")

    let second = try confetti(
      ["run", "--preset", "snow", "--duration", "32.5", "--", "true"], environment: environment)
    XCTAssertEqual(second.status, 0, second.stderr)
    XCTAssertEqual(left(lasting: 32.5).count, 1, "the second celebration goes on")
    let replaced = waitFor(timeout: promptEndBound) { left(lasting: 31.5).isEmpty }
    XCTAssert(replaced, "the first ended as the second started over it: \(left(lasting: 31.5))")
  }

  /// Signals sent to `confetti run --wait` alone: SIGINT (by kill, not the terminal) ends the
  /// celebration within a second; SIGKILL takes the celebration with it; SIGTERM while the
  /// command runs means no celebration, even when the command catches it and exits 0.
  func testEveryStoppingSignalEndsOrSkipsTheCelebration() throws {
    let display = try compositedDisplay()
    func start(_ arguments: [String]) throws -> Process {
      let process = Process()
      process.executableURL = confettiBinary
      process.arguments = ["run", "--wait"] + arguments
      var environment = ProcessInfo.processInfo.environment
      (environment["DISPLAY"], environment["WAYLAND_DISPLAY"]) = (display.name, nil)
      process.environment = environment
      process.standardInput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      return process
    }
    // The overlays `run` started: each names its run (--parent PID) on its command line, so
    // that no other overlay on the machine counts, and one whose run was killed still does.
    func overlays(of run: Process) -> Int {
      celebrations().filter { $0.handoff.parent == run.processIdentifier }.count
    }
    /// Waits for the overlay of `run`; asserts it came.
    func waitForOverlay(of run: Process, line: UInt = #line) {
      XCTAssert(waitFor { overlays(of: run) > 0 }, "no celebration within 20 s", line: line)
    }

    let interrupted = try start(["--preset", "snow", "--duration", "20", "--", "true"])
    waitForOverlay(of: interrupted)
    XCTAssertEqual(overlays(of: interrupted), 1, "the celebration runs")
    kill(interrupted.processIdentifier, SIGINT)
    let sent = Date()
    interrupted.waitUntilExit()
    XCTAssertLessThan(
      Date().timeIntervalSince(sent), promptEndBound, "SIGINT ended the celebration")
    XCTAssertEqual(interrupted.terminationStatus, 0, "the command's status")

    let killed = try start(["--preset", "snow", "--duration", "20", "--", "true"])
    waitForOverlay(of: killed)
    kill(killed.processIdentifier, SIGKILL)
    killed.waitUntilExit()
    XCTAssert(
      waitFor(timeout: 2) { overlays(of: killed) == 0 },
      "the celebration ended with the confetti run that was killed")

    let ready = try temporaryDirectory().appendingPathComponent("ready")
    let told = try start([
      "--", "sh", "-c", "trap 'exit 0' TERM; : > \"$0\"; while :; do sleep 0.05; done",
      ready.path,
    ])
    let started = waitFor(poll: 0.01) { FileManager.default.fileExists(atPath: ready.path) }
    XCTAssert(started, "the command started")
    told.terminate()
    told.waitUntilExit()
    XCTAssertEqual(told.terminationStatus, 0, "the command caught SIGTERM and exited 0")
    XCTAssertEqual(overlays(of: told), 0, "told to stop: no celebration")
  }

  /// With standard error closed, full or a pipe nobody reads, confetti loses its message, not its
  /// status: the command's is returned, and the overlay's refusal is exit 1, never a crash.
  func testLostStandardStreamsNeverCrashIt() throws {
    let program = confettiBinary.path
    for (redirect, what) in [
      ("2>&-", "closed"), ("2>/dev/full", "full"), ("2>&1 | true", "unread"),
    ] {
      let line = "env -u DISPLAY -u WAYLAND_DISPLAY"
      let run = try runProgram(
        URL(fileURLWithPath: "/bin/bash"),
        ["-c", "\(line) '\(program)' run -- sh -c 'exit 3' \(redirect); echo ${PIPESTATUS[0]}"])
      XCTAssertEqual(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "3", what)
      let celebrated = try runProgram(
        URL(fileURLWithPath: "/bin/bash"),
        ["-c", "\(line) '\(program)' run -- true \(redirect); echo ${PIPESTATUS[0]}"])
      XCTAssertEqual(celebrated.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0", what)
      let overlay = try runProgram(
        URL(fileURLWithPath: "/bin/bash"),
        ["-c", "\(line) '\(program)' overlay \(redirect); echo ${PIPESTATUS[0]}"])
      XCTAssertEqual(overlay.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "1", what)
    }
  }
}

/// The celebrations running now, this user's confetti overlays, each with what it was handed
/// (read back from its command line).
func celebrations() -> [(pid: pid_t, handoff: OverlayHandoff)] {
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
  return entries.compactMap { entry in
    guard let pid = pid_t(entry),
      let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
    else { return nil }
    let words = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    guard words.first.map({ URL(fileURLWithPath: $0).lastPathComponent }) == "confetti",
      let handoff = OverlayHandoff(arguments: Array(words.dropFirst()))
    else { return nil }
    return (pid, handoff)
  }
}
