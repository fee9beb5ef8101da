import ConfettiTestSupport
import Foundation
import XCTest

/// The window under a storm, in its short form for CI: thousands of clicks and key presses,
/// resizes, minimising and restoring under a real window manager (twm). Memory stays flat after
/// warm-up, a minimised window and an idle one cost (almost) nothing, and the title follows.
final class WindowSoakTests: XCTestCase {
  func testAStormOfClicksKeysResizesAndMinimisingLeavesMemoryAndIdleCPUFlat() throws {
    let display = try startXvfb(size: "1024x768x24")
    defer { stopXvfb(display.server) }
    try requireTools(["/usr/bin/xdotool", "/usr/bin/twm"], for: "the soak")
    // twm asks the user to place each new window unless told to place it itself, and needs
    // fonts the X server has.
    let rc = try temporaryDirectory().appendingPathComponent("twmrc")
    let fonts = ["TitleFont", "ResizeFont", "MenuFont", "IconFont", "IconManagerFont"]
    try (["RandomPlacement"] + fonts.map { "\($0) \"fixed\"" }).joined(separator: "\n")
      .write(to: rc, atomically: true, encoding: .utf8)
    let twm = try launch("/usr/bin/twm", ["-f", rc.path], display: display.name)
    defer { twm.terminate() }

    // CONFETTI_SOAK_ROUNDS sets the storm's length: 3 rounds here, as many as wanted by hand.
    let rounds = Int(ProcessInfo.processInfo.environment["CONFETTI_SOAK_ROUNDS"] ?? "") ?? 3
    // The cannon fires on clicks and keys only: between storms, nothing moves.
    let window = try launch(
      confettiBinary.path,
      ["--preset", "classic-cannon", "--size", "640x400", "--exit-after", "\(60 + 10 * rounds)"],
      display: display.name)
    defer { window.terminate() }
    let id = try confettiWindow(on: display.name)
    func storm(clicks: Int) throws {
      _ = try xdotool(["mousemove", "--window", id, "300", "200"], display: display.name)
      _ = try xdotool(
        ["click", "--repeat", "\(clicks)", "--delay", "2", "1"], display: display.name)
      _ = try xdotool(
        ["key", "--window", id, "--repeat", "30", "--delay", "2", "space"], display: display.name)
    }
    func title() throws -> String { try xdotool(["getwindowname", id], display: display.name) }
    let stat = StatReader(pid: window.processIdentifier)

    // Warm-up: the ring's pages, the GL's buffers and the fonts of the title are all touched.
    try storm(clicks: 300)
    let busyTitle = try waitForTitle(of: id, on: display.name, "pieces in the air") {
      $0.contains(" particles") && !$0.contains(" 0 particles")
    }
    try waitForTitle(of: id, on: display.name, "idle") { $0.contains(" idle ") }
    let warm = try stat.residentKiB()

    for round in 0..<rounds {
      let size = ["800 500", "500 300", "700 450"][round % 3]
      try storm(clicks: 400)
      let parts = size.split(separator: " ").map(String.init)
      _ = try xdotool(["windowsize", id] + parts, display: display.name)
      _ = try xdotool(["key", "--window", id, "c"], display: display.name)
    }
    // Minimised with pieces still in the air: nothing is drawn.
    try storm(clicks: 200)
    _ = try xdotool(["windowminimize", id], display: display.name)
    // Unmapped (as xwininfo says), and then quiet: one that drew on would never be.
    try waitForMapState(of: id, on: display.name, "IsUnMapped")
    try stat.waitUntilIdle()
    let minimised = try stat.cpuSeconds(over: 2)
    XCTAssertLessThan(minimised, 0.04, "a minimised window used \(minimised) s of CPU in 2 s")

    _ = try xdotool(["windowmap", id], display: display.name)
    // Back to the size it was warmed at: its framebuffer's memory is the warm one's again, so
    // that what is compared is what the storm left, not the last size's buffers.
    _ = try xdotool(["windowsize", id, "640", "400"], display: display.name)
    try waitForTitle(of: id, on: display.name, "idle") { $0.contains(" idle ") }
    try stat.assertAsleep(over: 1, "an idle window")
    let end = try stat.residentKiB()
    XCTAssertLessThan(abs(end - warm), warm / 10, "RSS went from \(warm) to \(end) KiB")
    let idleTitle = try title()
    XCTAssertNotEqual(busyTitle, idleTitle, "the title follows the window")
    XCTAssert(idleTitle.contains(" 0 particles — idle — click · space"), idleTitle)
    XCTAssert(window.isRunning, "the window quit or crashed during the storm")
  }
}
