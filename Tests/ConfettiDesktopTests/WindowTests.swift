import ConfettiTestSupport
import Foundation
import XCTest

/// The window itself under Xvfb: it runs, quits, and sleeps when nothing moves.
final class WindowTests: XCTestCase {
  func testAnIdleWindowCostsLessThanOnePercentOfACore() throws {
    let display = try startXvfb()
    defer { stopXvfb(display.server) }
    // The cannon fires once as the window opens, then only on a key: once its pieces have
    // landed nothing moves, and the window sleeps.
    let process = try launch(
      confettiBinary.path, ["--preset", "cannon", "--size", "320x240", "--exit-after", "20"],
      display: display.name)
    defer { process.terminate() }
    let stat = StatReader(pid: process.processIdentifier)
    // Start-up over and the shot fallen away: the title says so, and then the CPU.
    let window = try confettiWindow(on: display.name)
    try waitForTitle(of: window, on: display.name, "idle") { $0.contains(" idle ") }
    // Asleep on its events until --exit-after's moment (it polled 20 times a second before).
    try stat.assertAsleep(over: 3, "an idle window")
  }

  func testTheWindowRunsAndQuitsUnderXvfb() throws {
    let display = try startXvfb()
    defer { stopXvfb(display.server) }
    let result = try confetti(
      ["--size", "320x240", "--exit-after", "1.0"], environment: ["DISPLAY": display.name])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stderr, "")
  }
}
