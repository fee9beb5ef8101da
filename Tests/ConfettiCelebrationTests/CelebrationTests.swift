import ConfettiCelebration
import ConfettiTestSupport
import Foundation
import XCTest

/// The library's celebrations, as a Swift host starts them: the same overlay as `confetti
/// overlay`, started, waited on, cancelled, refused.
final class CelebrationTests: XCTestCase {
  /// This process's environment with `changes` (nil removes a variable).
  func environment(_ changes: [String: String?]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for (key, value) in changes { environment[key] = value }
    return environment
  }

  func testTheProgramIsFoundBesideTheLibrary() throws {
    let found = try XCTUnwrap(Celebration.program(), "no confetti program found")
    XCTAssertEqual(
      found.resolvingSymlinksInPath().path, confettiBinary.resolvingSymlinksInPath().path)
  }

  func testACelebrationShowsOverTheDesktopAndEndsByItself() throws {
    let display = try compositedDisplay()
    let started = Date()
    let celebration = try Celebration(environment: environment(["DISPLAY": display.name]))
    let window = try xdotool(["search", "--sync", "--name", "^Confetti"], display: display.name)
    XCTAssertFalse(window.isEmpty, "the overlay's window appeared")
    XCTAssert(celebration.isRunning)
    XCTAssertTrue(try celebration.wait(timeout: 120), "it ended by itself")
    XCTAssertFalse(celebration.isRunning)
    XCTAssertGreaterThan(Date().timeIntervalSince(started), 2, "the celebrate preset's 4 s")
  }

  func testALoopingCelebrationGoesOnUntilCancelled() throws {
    let display = try compositedDisplay()
    var options = CelebrationOptions()
    options.preset = "snow"
    options.loop = true
    let celebration = try Celebration(options, environment: environment(["DISPLAY": display.name]))
    _ = try xdotool(["search", "--sync", "--name", "^Confetti"], display: display.name)
    XCTAssertFalse(try celebration.wait(timeout: 1), "a loop does not end by itself")
    celebration.cancel()
    XCTAssertTrue(try celebration.wait(timeout: 30), "cancelled, it ends, without an error")
    XCTAssertFalse(celebration.isRunning)
    celebration.cancel()  // again, once it is over: nothing happens
  }

  func testNoDesktopIsAnErrorWithTheOverlaysOwnReason() throws {
    let celebration = try Celebration(
      environment: environment(["DISPLAY": nil, "WAYLAND_DISPLAY": nil]))
    XCTAssertThrowsError(try celebration.wait(timeout: 60)) { error in
      XCTAssert(error is CelebrationError, "\(error)")
      XCTAssert("\(error)".hasPrefix("no desktop to show the overlay on"), "\(error)")
      XCTAssertFalse("\(error)".contains("\n"))
    }
  }

  func testAJSONEffectIsCelebratedFromAFileThatIsRemovedAfterwards() throws {
    let folder = try temporaryDirectory()
    var options = CelebrationOptions()
    options.json = try confetti(["presets", "show", "classic-cannon"]).stdout
    let celebration = try Celebration(
      options, environment: environment(["DISPLAY": nil, "WAYLAND_DISPLAY": nil]),
      temporaryFolder: folder.path)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).count, 1)
    // The effect was read (a bad one would say so): what stops it is the missing desktop.
    XCTAssertThrowsError(try celebration.wait(timeout: 60)) {
      XCTAssert("\($0)".hasPrefix("no desktop"), "\($0)")
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
  }

  /// JSON text has no folder, in a celebration as in `Effect(json:)`: a picture named relative
  /// to one is refused, never looked for in the folder the text was written to for the program.
  func testAJSONEffectsRelativeImageIsRefusedNotFoundWhereItWasWritten() throws {
    let display = try compositedDisplay()
    let folder = try temporaryDirectory()
    try FileManager.default.copyItem(
      at: repository.appendingPathComponent("docs/examples/heart.png"),
      to: folder.appendingPathComponent("heart.png"))
    var options = CelebrationOptions()
    options.json = """
      {"name": "hearts", "emitters": [{"trigger": "start", "cells": [{"count": 5,
        "shapes": [{"image": "heart.png"}]}]}]}
      """
    let celebration = try Celebration(
      options, environment: environment(["DISPLAY": display.name, "WAYLAND_DISPLAY": nil]),
      temporaryFolder: folder.path)
    XCTAssertThrowsError(try celebration.wait(timeout: 60)) {
      XCTAssert($0 is CelebrationError, "\($0)")
      XCTAssert("\($0)".contains("heart.png is named relative to no folder"), "\($0)")
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["heart.png"])
  }

  func testRefusedOptionsStartNothing() throws {
    var cases: [(CelebrationOptions, String)] = []
    var options = CelebrationOptions()
    options.monitor = 0
    cases.append((options, "monitor counts from 1, not 0"))
    options = CelebrationOptions()
    options.duration = .nan
    cases.append((options, "duration must be 0.1 to 86400 seconds, not nan"))
    options.duration = 5
    options.loop = true
    cases.append((options, "give duration or loop, not both"))
    options = CelebrationOptions()
    options.preset = "snow"
    options.path = "snow.json"
    cases.append((options, "give one effect: preset or path, not both"))
    for (options, message) in cases {
      XCTAssertThrowsError(try Celebration(options)) {
        XCTAssertEqual("\($0)", message)
      }
    }
    XCTAssertThrowsError(
      try Celebration(program: URL(fileURLWithPath: "/nonexistent-confetti-program"))
    ) { XCTAssert("\($0)".hasPrefix("cannot start the celebration"), "\($0)") }
  }

  /// A celebration counts once the program said its first frame was on the screen: one that
  /// exits 0 without saying so (not confetti, or one that drew nothing) is an error that says
  /// so, not a celebration. (`/bin/true` once passed for one.)
  func testAProgramThatEndsWithoutShowingIsNoCelebration() throws {
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    XCTAssertThrowsError(
      try Celebration(program: URL(fileURLWithPath: "/bin/true")).wait(timeout: 30)
    ) {
      XCTAssertEqual(
        "\($0)",
        "the celebration was never shown: /bin/true ended without a frame on the screen; check "
          + "that it is the confetti program (CONFETTI_PROGRAM)")
    }
    // One that says it was shown, as the overlay does, and ends: a celebration.
    let shows = folder.appendingPathComponent("shows")
    try "#!/bin/sh\nprintf x >&3\n".write(to: shows, atomically: true, encoding: .utf8)
    chmod(shows.path, 0o755)
    XCTAssertTrue(try Celebration(program: shows).wait(timeout: 30))
  }
}
