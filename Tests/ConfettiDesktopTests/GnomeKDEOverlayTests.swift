import ConfettiCore
import ConfettiImage
import ConfettiPresets
import ConfettiTestSupport
import Foundation
import XCTest

/// The overlay on GNOME's and KDE Plasma's own compositors, run headless from Debian's
/// packages: Mutter 43 (GNOME Shell's compositor, with a virtual monitor and XWayland), where
/// the overlay is the X11 window through XWayland, since Mutter has no layer shell; and KWin 5.27
/// (Plasma's, on its virtual backend), where it draws natively on the layer shell.
final class GnomeKDEOverlayTests: XCTestCase {
  /// The virtual monitor's size.
  static let size = (width: 1280, height: 720)

  /// When the default celebration's last piece is gone on that monitor, as the library
  /// predicts it.
  func predictedEnd() throws -> Double {
    try predictedEnd(
      of: "celebrate", on: Size(width: Double(Self.size.width), height: Double(Self.size.height)))
  }

  /// Waits for `overlay`, launched at `launched`, to end by itself (up to `margin` seconds after
  /// the `predicted` end), and checks that it ended well, not before its time, having drawn
  /// a see-through first frame (`snapshot`) `on` the desktop named.
  func assertEndsWhenPredicted(
    _ overlay: Process, launched: Date, predicted: Double, margin: Double, snapshot: String,
    on desktop: String
  ) throws {
    guard waitFor(timeout: predicted + margin, poll: 0.01, { !overlay.isRunning }) else {
      return XCTFail("the overlay ends by itself on \(desktop)")
    }
    XCTAssertEqual(overlay.terminationStatus, 0, "it drew on \(desktop)")
    XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(launched), predicted, desktop)
    try checkSnapshot(snapshot, desktop)
  }

  /// The overlay's first frame as it gave it to the compositor: the monitor's size, clear
  /// around the pieces.
  func checkSnapshot(_ path: String, _ desktop: String) throws {
    let frame = try PNG.read(URL(fileURLWithPath: path))
    XCTAssertEqual([frame.width, frame.height], [Self.size.width, Self.size.height], desktop)
    var clear = 0
    for y in 0..<frame.height {
      for x in 0..<frame.width where frame[x, y].alpha == 0 { clear += 1 }
    }
    XCTAssertGreaterThan(clear, frame.width * frame.height * 9 / 10, "\(desktop): see-through")
    XCTAssertLessThan(clear, frame.width * frame.height, "\(desktop): pieces drawn")
  }

  func testOnGnomesMutterTheOverlayLetsClicksThroughAndKeepsTheFocus() throws {
    try requireTools(
      [
        "/usr/bin/mutter", "/usr/bin/dbus-run-session", "/usr/bin/Xwayland", "/usr/bin/xdotool",
        "/usr/bin/xev",
      ], for: "the overlay on GNOME's compositor")
    let runtime = try temporaryDirectory()
    chmod(runtime.path, 0o700)
    let log = runtime.appendingPathComponent("mutter.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let mutter = Process()
    mutter.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-run-session")
    mutter.arguments = [
      "--", "/usr/bin/mutter", "--headless", "--wayland", "--virtual-monitor",
      "\(Self.size.width)x\(Self.size.height)",
    ]
    var environment = ProcessInfo.processInfo.environment
    for key in ["DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY"] { environment[key] = nil }
    environment["XDG_RUNTIME_DIR"] = runtime.path
    mutter.environment = environment
    mutter.standardOutput = FileHandle.nullDevice
    mutter.standardError = try FileHandle(forWritingTo: log)
    try mutter.run()
    defer {
      // Mutter itself first (dbus-run-session does not pass SIGTERM on), then its session.
      Self.endChildren(of: mutter.processIdentifier)
      mutter.terminate()
      mutter.waitUntilExit()
    }
    // Its X11 display, once XWayland is up, and the key XWayland asks clients for.
    var display = ""
    var authority = ""
    _ = waitFor(timeout: 60, poll: 0.1) {
      let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      if let range = said.range(
        of: #"Using public X11 display (:\d+)"#, options: .regularExpression)
      {
        display = String(said[range].split(separator: " ").last ?? "")
      }
      let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? []
      if let name = names.first(where: { $0.hasPrefix(".mutter-Xwaylandauth.") }) {
        authority = runtime.appendingPathComponent(name).path
      }
      return !mutter.isRunning || !(display.isEmpty || authority.isEmpty)
    }
    guard !display.isEmpty, !authority.isEmpty else {
      throw TestFailure(
        "mutter gave no XWayland display within 60 s: \(try String(contentsOf: log, encoding: .utf8))"
      )
    }
    let desktop: [String: String?] = [
      "DISPLAY": display, "XAUTHORITY": authority, "WAYLAND_DISPLAY": "wayland-0",
      "XDG_RUNTIME_DIR": runtime.path,
    ]
    func xdotool(_ arguments: [String]) throws -> String {
      func attempt() throws -> RunResult {
        try runProgram(
          URL(fileURLWithPath: "/usr/bin/xdotool"), arguments, environment: desktop, timeout: 30)
      }
      var result = try attempt()
      // XWayland may still be starting its first client: again, for 5 s, until it succeeds.
      _ = try waitFor(timeout: 5, poll: 0.1) {
        if result.status != 0 { result = try attempt() }
        return result.status == 0
      }
      XCTAssertEqual(result.status, 0, "xdotool \(arguments): \(result.stderr)")
      return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // A window filling the monitor, focused, reporting its button presses.
    let events = runtime.appendingPathComponent("xev.txt")
    _ = FileManager.default.createFile(atPath: events.path, contents: nil)
    let below = try launch(
      "/usr/bin/xev",
      [
        "-geometry", "\(Self.size.width)x\(Self.size.height)+0+0", "-event",
        "button",
      ], environment: desktop, output: try FileHandle(forWritingTo: events))
    defer { below.terminate() }
    let window = try xdotool(["search", "--sync", "--name", "Event Tester"])
    try waitForFocus(on: window, xdotool)

    // Both displays named, as in a GNOME session: Mutter offers no layer shell, so the overlay
    // is the X11 window, composited by Mutter.
    let predicted = try predictedEnd()
    let snapshot = runtime.appendingPathComponent("first.png").path
    let launched = Date()
    let overlay = try launch(
      confettiBinary.path, ["overlay", "--snapshot", snapshot], environment: desktop)
    defer { if overlay.isRunning { overlay.terminate() } }
    _ = try xdotool(["search", "--sync", "--name", "^Confetti"])
    _ = try xdotool(["mousemove", "640", "360", "click", "1"])
    let clicked = waitFor(poll: 0.02) {
      ((try? String(contentsOf: events, encoding: .utf8)) ?? "").contains("ButtonPress")
    }
    XCTAssert(clicked, "the window below got the click made on the overlay")
    XCTAssertEqual(try xdotool(["getwindowfocus"]), window, "the window below keeps the focus")
    try assertEndsWhenPredicted(
      overlay, launched: launched, predicted: predicted, margin: 15, snapshot: snapshot,
      on: "Mutter")
  }

  /// Waits for `window` to have the keyboard focus (Mutter focuses a new window as it maps it);
  /// asserts it came within 20 s.
  func waitForFocus(
    on window: String, _ xdotool: ([String]) throws -> String, line: UInt = #line
  ) throws {
    let focused = try waitFor(poll: 0.1) { try xdotool(["getwindowfocus"]) == window }
    XCTAssert(focused, "window \(window) never had the focus", line: line)
  }

  func testOnKDEsKWinTheOverlayDrawsNativelyOnTheLayerShell() throws {
    try requireTools(["/usr/bin/kwin_wayland"], for: "the overlay on KDE Plasma's compositor")
    let runtime = try temporaryDirectory()
    chmod(runtime.path, 0o700)
    // Debian's kwin_wayland carries a file capability (cap_sys_resource, to raise its own
    // priority) that a container without privileges refuses to grant: "Operation not
    // permitted". A copy without it runs the same, under the same name (its platform plugin
    // asks for that).
    let copy = runtime.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
    let kwin = copy.appendingPathComponent("kwin_wayland")
    try FileManager.default.copyItem(atPath: "/usr/bin/kwin_wayland", toPath: kwin.path)
    var environment: [String: String?] = [
      "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "XDG_RUNTIME_DIR": runtime.path,
      "HOME": runtime.path,
    ]
    let compositor = try launch(
      kwin.path,
      [
        "--virtual", "--width", "\(Self.size.width)", "--height", "\(Self.size.height)",
        "--socket", "wayland-kwin", "--no-lockscreen",
      ], environment: environment)
    defer {
      compositor.terminate()
      compositor.waitUntilExit()
    }
    let socket = runtime.appendingPathComponent("wayland-kwin").path
    _ = waitFor(timeout: 60, poll: 0.1) {
      !compositor.isRunning || FileManager.default.fileExists(atPath: socket)
    }
    guard FileManager.default.fileExists(atPath: socket) else {
      throw TestFailure("KWin did not start within 60 s")
    }
    // No X11 display: only the layer shell can show it.
    environment["WAYLAND_DISPLAY"] = "wayland-kwin"
    let predicted = try predictedEnd()
    let snapshot = runtime.appendingPathComponent("first.png").path
    let launched = Date()
    let overlay = try launch(
      confettiBinary.path, ["overlay", "--snapshot", snapshot], environment: environment)
    defer { if overlay.isRunning { overlay.terminate() } }
    try assertEndsWhenPredicted(
      overlay, launched: launched, predicted: predicted, margin: 30, snapshot: snapshot,
      on: "KWin's layer shell")
  }

  /// Sends SIGTERM to the children of process `parent`, and waits for them to be gone (10 s at
  /// most). Teardown: one that lingers (a zombie nobody reaps) fails no test.
  static func endChildren(of parent: pid_t) {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    let children = entries.compactMap { pid_t($0) }.filter { pid in
      let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
      // pid (name) state ppid …: the fields after the name's closing parenthesis.
      guard let close = stat.lastIndex(of: ")") else { return false }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 1 && pid_t(fields[1]) == parent
    }
    for child in children { kill(child, SIGTERM) }
    _ = waitFor(timeout: 10) { !children.contains { kill($0, 0) == 0 } }
  }
}
