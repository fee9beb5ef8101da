import ConfettiCelebration
import ConfettiTestSupport
import Foundation
import XCTest

/// The library's handoff to `confetti overlay` (``OverlayHandoff``): what it writes, it reads
/// back the same, and the program takes every flag it writes.
final class OverlayHandoffTests: XCTestCase {
  private func handoffs(in directory: URL) throws -> [OverlayHandoff] {
    let file = directory.appendingPathComponent("snow.json")
    let shown = try confetti(["presets", "show", "snow"])
    try Data(shown.stdout.utf8).write(to: file)
    var everything = OverlayHandoff()
    everything.effect = .preset("tap-burst")
    everything.seed = 42
    everything.parent = getpid()
    everything.shownDescriptor = 3
    everything.monitor = 1
    everything.duration = 2.5
    everything.reduceMotion = true
    everything.primitive = "quads"
    everything.snapshot = directory.appendingPathComponent("snapshot.png").path
    var looping = OverlayHandoff()
    looping.effect = .config(file.path)
    looping.loop = true
    var handed = OverlayHandoff()
    handed.effect = .jsonFile(file.path)
    handed.shownDescriptor = 3
    var standby = OverlayHandoff()
    (standby.standby, standby.monitor, standby.shownDescriptor) = (true, 1, 3)
    return [everything, looping, handed, standby, OverlayHandoff()]
  }

  func testWhatItWritesItReadsBackTheSame() throws {
    for handoff in try handoffs(in: try temporaryDirectory()) {
      XCTAssertEqual(OverlayHandoff(arguments: handoff.arguments), handoff, "\(handoff.arguments)")
      // And as a standby overlay is told it, on its standard input.
      XCTAssertEqual(OverlayHandoff(request: handoff.request), handoff, "\(handoff.arguments)")
    }
    for bytes in [[], Array("overlay".utf8), Array("overlay\0--seed\0x\0".utf8)] {
      XCTAssertNil(OverlayHandoff(request: bytes), "\(bytes)")
    }
    // What it did not write is not a handoff: another command, a flag it never writes, a value
    // that does not parse, a flag without its value.
    for words in [
      ["window", "--seed", "1"], ["overlay", "--capacity", "5"], ["overlay", "--seed", "x"],
      ["overlay", "--shown-fd"], [],
    ] {
      XCTAssertNil(OverlayHandoff(arguments: words), "\(words)")
    }
  }

  /// With no desktop and no terminal, the overlay can only say so: it does, in one line with
  /// status 1, after it has taken every flag (a flag it did not know would be a usage error,
  /// status 64).
  func testTheProgramTakesEveryFlagTheHandoffWrites() throws {
    let directory = try temporaryDirectory()
    for handoff in try handoffs(in: directory) {
      let result = try confetti(
        handoff.arguments,
        environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "TERM": "dumb"], timeout: 60)
      XCTAssertEqual(result.status, 1, "\(handoff.arguments): \(result.stderr)")
      XCTAssertEqual(
        result.stderr.split(separator: "\n").count, 1, "\(handoff.arguments): \(result.stderr)")
      XCTAssertFalse(result.stderr.contains("Unknown option"), result.stderr)
    }
  }

  /// A standby is told what to show once: told again, or after its program has ended, it says
  /// so instead of writing into nothing.
  func testAStandbyIsToldOnceAndOnlyWhileItWaits() throws {
    var options = CelebrationOptions()
    options.preset = "tap-burst"
    // A stand-in that waits as a standby does: it reads its input to the end, whatever its
    // arguments (cat itself would end at once on the handoff's flags).
    let waiter = try temporaryDirectory().appendingPathComponent("standby")
    try "#!/bin/sh\nexec cat >/dev/null\n".write(to: waiter, atomically: true, encoding: .utf8)
    chmod(waiter.path, 0o755)
    let reading = try Celebration.standby(monitor: nil, program: waiter, environment: [:])
    try reading.begin(options)
    XCTAssertThrowsError(try reading.begin(options)) {
      XCTAssertTrue("\($0)".contains("not waiting to be told"), "\($0)")
    }
    reading.cancel()
    let ended = try Celebration.standby(
      monitor: nil, program: URL(fileURLWithPath: "/bin/true"), environment: [:])
    XCTAssertTrue(waitFor { !ended.isRunning }, "true never ended")
    XCTAssertThrowsError(try ended.begin(options)) {
      XCTAssertTrue("\($0)".contains("had ended before it was told"), "\($0)")
    }
    options.duration = -1
    let refusing = try Celebration.standby(monitor: nil, program: waiter, environment: [:])
    XCTAssertThrowsError(try refusing.begin(options)) {
      XCTAssertTrue("\($0)".contains("duration"), "\($0)")
    }
    refusing.cancel()
  }
}
