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
      confettiBinary.path,
      ["--preset", "classic-cannon", "--size", "320x240", "--exit-after", "20"],
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

  /// GLFW sizes the window by the monitor's scale, which X11 takes from Xft.dpi: set to 0,
  /// -96 or abc, it asked for a window no X server makes, and under a window manager the X
  /// error ended the program with status 1 and not a word. The window now opens unscaled and
  /// says why in one line; a real setting (192 dots per inch) still scales it.
  func testAnXftDpiThatIsNoNumberOpensTheWindowUnscaledAndSaysSo() throws {
    try requireTools(
      ["/usr/bin/openbox", "/usr/bin/xprop", "/usr/bin/xdotool", "/usr/bin/xwininfo"],
      for: "Xft.dpi under a window manager")
    let display = try startXvfb(size: "1280x1024x24")
    defer { stopXvfb(display.server) }
    let environment = ["DISPLAY": display.name]
    let manager = try launch("/usr/bin/openbox", [], display: display.name)
    defer { manager.terminate() }
    try waitForWindowManager(on: display.name)
    /// Sets the display's Xft.dpi as xrdb does (the root window's RESOURCE_MANAGER).
    func setDPI(_ value: String) throws {
      _ = try runProgram(
        URL(fileURLWithPath: "/usr/bin/xprop"),
        ["-root", "-f", "RESOURCE_MANAGER", "8s", "-set", "RESOURCE_MANAGER", "Xft.dpi: \(value)"],
        environment: environment)
    }
    /// The window's width and height in pixels, read once it is shown.
    func windowSize() throws -> String {
      let window = try launch(
        confettiBinary.path, ["--size", "320x240", "--exit-after", "30"], display: display.name)
      defer {
        window.terminate()
        window.waitUntilExit()
      }
      let id = try confettiWindow(on: display.name)
      try waitForMapState(of: id, on: display.name, "IsViewable")
      let info = try runProgram(
        URL(fileURLWithPath: "/usr/bin/xwininfo"), ["-id", id], environment: environment)
      let value = { (name: String) in
        info.stdout.split(separator: "\n").first { $0.contains("\(name):") }?
          .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "?"
      }
      return "\(value("Width"))x\(value("Height"))"
    }
    for value in ["0", "-96", "abc"] {
      try setDPI(value)
      let result = try confetti(
        ["--size", "320x240", "--exit-after", "0.5"], environment: environment)
      XCTAssertEqual(result.status, 0, "Xft.dpi \(value): \(result.stderr)")
      XCTAssert(result.stderr.contains("Xft.dpi"), "Xft.dpi \(value): \(result.stderr)")
      XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
      guard result.status == 0 else { return }
    }
    XCTAssertEqual(try windowSize(), "320x240", "unscaled at Xft.dpi abc")
    try setDPI("192")
    XCTAssertEqual(try windowSize(), "640x480", "twice the size at 192 dots per inch")
  }
}
