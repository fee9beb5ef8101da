import ConfettiCore
import ConfettiImage
import ConfettiPresets
import ConfettiTestSupport
import Foundation
import XCTest

/// The overlay on Wayland desktops, in compositors from Debian run headless: sway (wlroots, with
/// the layer shell and XWayland), where it draws natively on the overlay layer, or through
/// XWayland when asked to; and Weston, which has no layer shell, as GNOME's Mutter has none. In
/// each, clicks made on it reach the window below, that window keeps the keyboard focus, and
/// it ends by itself, or within a second of SIGTERM.
final class WaylandOverlayTests: XCTestCase {
  func testOnALayerShellDesktopItDrawsNativelyLetsClicksThroughAndEndsWhenPredicted() throws {
    let desktop = try Sway()
    defer { desktop.stop() }
    let below = try desktop.windowBelow()
    defer { below.process.terminate() }
    let focused = try desktop.focusedWindow()
    XCTAssertEqual(focused, "Event Tester")

    // What the library predicts for the default celebration on this output.
    let predicted = try predictedEnd(
      of: "celebrate", on: Size(width: Double(Sway.size.width), height: Double(Sway.size.height)))
    XCTAssertLessThanOrEqual(predicted, 4, "the default celebration is over within 4 s")
    XCTAssertGreaterThan(predicted, 2)

    let bare = try desktop.screenshot()
    // No DISPLAY: only the native path can show it.
    let snapshot = desktop.folder.appendingPathComponent("native.png")
    let started = Date()
    let overlay = try desktop.run(
      confettiBinary.path, ["overlay", "--snapshot", snapshot.path], wayland: true)
    defer { if overlay.isRunning { overlay.terminate() } }
    // Waited for (its start takes longer on a busy machine), not slept on.
    let screenshot = try desktop.screenshot(differingFrom: bare, byMoreThan: 2000)
    let lit = screenshot.pixels(differingFrom: bare)
    XCTAssertGreaterThan(lit, 2000, "the pieces are on screen over the desktop")
    XCTAssertLessThan(lit, screenshot.width * screenshot.height / 3, "the desktop shows through")
    try desktop.click(x: 640, y: 360, until: { below.log().contains("ButtonPress") })
    XCTAssert(below.log().contains("ButtonPress"), "the window below got no click")
    XCTAssertEqual(try desktop.focusedWindow(), focused, "the window below keeps the focus")

    let ended = waitFor(timeout: predicted + 10, poll: 0.005) { !overlay.isRunning }
    let lasted = Date().timeIntervalSince(started)
    XCTAssert(ended, "the overlay did not end by itself")
    XCTAssertEqual(overlay.terminationStatus, 0)
    XCTAssertGreaterThanOrEqual(lasted, predicted)
    // (Its start, counted in, takes longer on a busy machine: a generous bound.)
    XCTAssertLessThan(lasted, predicted + 6, "ended \(lasted) s after it started")

    let frame = try PNG.read(snapshot)
    XCTAssertEqual([frame.width, frame.height], [Sway.size.width, Sway.size.height])
    var clear = 0
    for y in 0..<frame.height {
      for x in 0..<frame.width where frame[x, y].alpha == 0 { clear += 1 }
    }
    XCTAssertGreaterThan(clear, frame.width * frame.height * 9 / 10, "transparent around pieces")
  }

  func testThroughXWaylandTheX11OverlayLetsClicksThroughAndKeepsTheFocus() throws {
    let desktop = try Sway()
    defer { desktop.stop() }
    let below = try desktop.windowBelow()
    defer { below.process.terminate() }
    let focused = try desktop.focusedWindow()
    let bare = try desktop.screenshot()

    // No WAYLAND_DISPLAY: the X11 window, on sway's XWayland, with its compositor.
    let snapshot = desktop.folder.appendingPathComponent("xwayland.png")
    let overlay = try desktop.run(
      confettiBinary.path, ["overlay", "--loop", "--snapshot", snapshot.path], wayland: false)
    defer { if overlay.isRunning { overlay.terminate() } }
    let screenshot = try desktop.screenshot(differingFrom: bare, byMoreThan: 200)
    XCTAssert(overlay.isRunning, "the overlay runs through XWayland")
    XCTAssertGreaterThan(screenshot.pixels(differingFrom: bare), 200, "the pieces are on screen")
    try desktop.click(x: 200, y: 500, until: { below.log().contains("ButtonPress") })
    XCTAssert(below.log().contains("ButtonPress"), "the window below got no click")
    XCTAssertEqual(try desktop.focusedWindow(), focused, "the window below keeps the focus")
    XCTAssert(FileManager.default.fileExists(atPath: snapshot.path), "it drew")
    assertEndsWithinASecond(overlay, after: SIGTERM)
  }

  /// SIGTERM and SIGINT end it within a second whenever they come: while it connects, while its
  /// context is made, and while it draws.
  func testASignalEndsTheNativeOverlayWithinASecondInEveryPhase() throws {
    let desktop = try Sway()
    defer { desktop.stop() }
    for (delay, signal) in [
      (0.0, SIGTERM), (0.05, SIGINT), (0.15, SIGTERM), (0.4, SIGTERM),
      (1.5, SIGINT),
    ] {
      let overlay = try desktop.run(
        confettiBinary.path, ["overlay", "--preset", "snow", "--loop"], wayland: true)
      defer { if overlay.isRunning { overlay.terminate() } }
      // The moment is what is tested, not a stand-in: whatever phase it is in, it ends.
      usleep(useconds_t(delay * 1_000_000))
      assertEndsWithinASecond(overlay, after: signal)
    }
  }

  /// `confetti run -- make` on a layer-shell desktop: a success celebrates natively, without a
  /// word, and every status is the command's. The shell is given back once the celebration
  /// shows (it goes on by itself); `--wait` stays until it is over.
  func testConfettiRunCelebratesASuccessNativelyAndKeepsEveryStatus() throws {
    let desktop = try Sway()
    defer { desktop.stop() }
    var environment = desktop.environment.mapValues { Optional($0) }
    environment["DISPLAY"] = nil
    let (program, arguments) = Sway.asDesktopUser(confettiBinary.path, ["run", "--"])
    let passed = try runProgram(program, arguments + ["true"], environment: environment)
    XCTAssertEqual(passed.status, 0)
    XCTAssertEqual(passed.stderr, "", "shown over the desktop, nothing to say")
    let left = try runProgram(
      URL(fileURLWithPath: "/usr/bin/pgrep"), ["-f", "confetti overlay --seed 1 --shown-fd 3"])
    XCTAssertEqual(
      left.stdout.split(separator: "\n").count, 1, "the celebration goes on after run returned")
    let (waiting, waitingArguments) = Sway.asDesktopUser(
      confettiBinary.path, ["run", "--wait", "--"])
    let started = Date()
    let waited = try runProgram(waiting, waitingArguments + ["true"], environment: environment)
    XCTAssertEqual(waited.status, 0, waited.stderr)
    XCTAssertGreaterThan(Date().timeIntervalSince(started), 2, "it waited for the celebration")
    for status in [1, 7] {
      let failed = try runProgram(
        program, arguments + ["sh", "-c", "exit \(status)"], environment: environment)
      XCTAssertEqual(failed.status, Int32(status))
      XCTAssertEqual(failed.stderr, "")
    }
  }

  /// Weston, like GNOME's Mutter, offers no layer shell: without XWayland, one line says so,
  /// and `confetti run` keeps its command's status.
  func testADesktopWithoutALayerShellOrXWaylandSaysSoInOneLine() throws {
    try requireTools(["/usr/bin/weston"], for: "the overlay on Weston")
    let desktop = try WaylandSession(
      compositor: "/usr/bin/weston", ["--backend=headless-backend.so", "--socket=wayland-7"])
    defer { desktop.stop() }
    let environment: [String: String?] = [
      "WAYLAND_DISPLAY": "wayland-7", "XDG_RUNTIME_DIR": desktop.runtime.path, "DISPLAY": nil,
    ]
    let refused = try confetti(["overlay"], environment: environment)
    XCTAssertEqual(refused.status, 1)
    XCTAssert(refused.stderr.contains("offers no layer shell"), refused.stderr)
    XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
    let built = try confetti(["run", "--", "sh", "-c", "exit 0"], environment: environment)
    XCTAssertEqual(built.status, 0)
    XCTAssertEqual(built.stderr.split(separator: "\n").count, 1, built.stderr)
    let failed = try confetti(["run", "--", "sh", "-c", "exit 7"], environment: environment)
    XCTAssertEqual(failed.status, 7)
  }

  /// A compositor that takes the connection and never answers: one line within seconds, not a
  /// hang; and monitors past any desktop's count are refused, not overflowed.
  func testASilentCompositorOrAnImpossibleMonitorGetsOneLine() throws {
    let folder = try temporaryDirectory()
    let path = folder.appendingPathComponent("silent").path
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(listener) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (i, byte) in path.utf8.enumerated() where i < bytes.count - 1 { bytes[i] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    XCTAssertEqual(bound, 0)
    XCTAssertEqual(listen(listener, 8), 0)  // accepted by the kernel, never answered
    let started = Date()
    let silent = try confetti(
      ["overlay"], environment: ["WAYLAND_DISPLAY": path, "DISPLAY": nil], timeout: 30)
    XCTAssertEqual(silent.status, 1)
    XCTAssert(silent.stderr.contains("did not answer"), silent.stderr)
    XCTAssertEqual(silent.stderr.split(separator: "\n").count, 1, silent.stderr)
    XCTAssertLessThan(Date().timeIntervalSince(started), 10)

    for monitor in ["2147483648", "9223372036854775807"] {
      let refused = try confetti(["overlay", "--monitor", monitor])
      XCTAssertEqual(refused.status, 64, refused.stderr)
      XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
    }
  }
}

/// A Wayland compositor run headless on a runtime folder of its own. Compositors refuse to run
/// as root (sway does), so as root it and every client of the test run as `nobody`.
class WaylandSession {
  let runtime: URL
  /// Where the test's files go: writable by the compositor's user.
  let folder: URL
  let compositor: Process
  private(set) var socket = ""

  static var runsAsNobody: Bool { getuid() == 0 }

  init(compositor path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
    try requireTools([path, "/usr/bin/setpriv"], for: "the overlay on Wayland")
    runtime = try temporaryDirectory()
    folder = try temporaryDirectory()
    for url in [runtime, folder] {
      if Self.runsAsNobody { chown(url.path, 65534, 65534) }
    }
    chmod(runtime.path, 0o700)
    compositor = Process()
    var env = ProcessInfo.processInfo.environment
    for key in ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK"] { env[key] = nil }
    env["XDG_RUNTIME_DIR"] = runtime.path
    env["HOME"] = folder.path
    for (key, value) in environment { env[key] = value }
    (compositor.executableURL, compositor.arguments) = Self.asDesktopUser(path, arguments)
    compositor.environment = env
    compositor.standardOutput = FileHandle.nullDevice
    compositor.standardError = FileHandle.nullDevice
    try compositor.run()
    // Its socket, once it is there (or until it has ended).
    var found: String?
    _ = waitFor {
      guard compositor.isRunning else { return true }
      let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? []
      found = names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
      return found != nil
    }
    guard let name = found else {
      compositor.terminate()
      throw TestFailure("\(path) did not start within 20 s")
    }
    socket = name
  }

  /// `path` and `arguments` as run by the desktop's user.
  static func asDesktopUser(_ path: String, _ arguments: [String]) -> (URL, [String]) {
    guard runsAsNobody else { return (URL(fileURLWithPath: path), arguments) }
    return (
      URL(fileURLWithPath: "/usr/bin/setpriv"),
      ["--reuid=nobody", "--regid=nogroup", "--clear-groups", path] + arguments
    )
  }

  func stop() {
    compositor.terminate()
    compositor.waitUntilExit()
  }
}

/// sway, headless, with XWayland, its wallpaper a plain colour.
final class Sway: WaylandSession {
  static let size = (width: 1280, height: 720)
  /// XWayland's display, for X11 clients.
  private(set) var xDisplay = ""
  private var clicker: URL?

  init() throws {
    try requireTools(
      [
        "/usr/bin/sway", "/usr/bin/swaymsg", "/usr/bin/grim", "/usr/bin/Xwayland", "/usr/bin/xev",
        "/usr/bin/cc",
      ],
      for: "the overlay on sway")
    let config = try temporaryDirectory().appendingPathComponent("sway.conf")
    try "output * bg #336699 solid_color\nxwayland enable\n".write(
      to: config, atomically: true, encoding: .utf8)
    chmod(config.path, 0o644)
    chmod(config.deletingLastPathComponent().path, 0o755)
    try super.init(
      compositor: "/usr/bin/sway", ["-c", config.path],
      environment: [
        "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
      ])
    // XWayland's display, as sway gives it to what it starts.
    let said = runtime.appendingPathComponent("display")
    _ = try swaymsg(["exec", "echo $DISPLAY > \(said.path)"])
    xDisplay =
      waitForValue(timeout: 10) { () -> String? in
        guard let text = try? String(contentsOf: said, encoding: .utf8), text.hasSuffix("\n")
        else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
      } ?? ""
    XCTAssertFalse(xDisplay.isEmpty, "sway gave no XWayland display")
  }

  var environment: [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["XDG_RUNTIME_DIR"] = runtime.path
    env["WAYLAND_DISPLAY"] = socket
    env["DISPLAY"] = xDisplay
    env["SWAYSOCK"] =
      (try? FileManager.default.contentsOfDirectory(atPath: runtime.path))?
      .first { $0.hasPrefix("sway-ipc.") }.map { runtime.appendingPathComponent($0).path }
    return env
  }

  /// Starts `path` as a client of the desktop: a Wayland one, or an X11 one on XWayland.
  func run(_ path: String, _ arguments: [String], wayland: Bool, output: FileHandle? = nil)
    throws -> Process
  {
    let process = Process()
    (process.executableURL, process.arguments) = Self.asDesktopUser(path, arguments)
    var env = environment
    if wayland { env["DISPLAY"] = nil } else { env["WAYLAND_DISPLAY"] = nil }
    process.environment = env
    process.standardOutput = output ?? FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  @discardableResult
  func swaymsg(_ arguments: [String]) throws -> String {
    let result = try runProgram(
      URL(fileURLWithPath: "/usr/bin/swaymsg"), arguments,
      environment: environment.mapValues { $0 }, timeout: 20)
    XCTAssertEqual(result.status, 0, "swaymsg \(arguments): \(result.stderr)")
    return result.stdout
  }

  /// An X11 window (xev) filling the desktop, focused, that logs its button presses.
  func windowBelow() throws -> (process: Process, log: () -> String) {
    let log = folder.appendingPathComponent("xev.txt")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    chmod(log.path, 0o666)
    let xev = try run(
      "/usr/bin/xev", ["-event", "button"], wayland: false,
      output: try FileHandle(forWritingTo: log))
    let focused = waitFor(poll: 0.1) { (try? focusedWindow()) == "Event Tester" }
    XCTAssert(focused, "the window below (xev) never had the focus")
    return (xev, { (try? String(contentsOf: log, encoding: .utf8)) ?? "" })
  }

  /// The name of the window that has the keyboard focus, from sway's tree.
  func focusedWindow() throws -> String? {
    let tree = try JSONSerialization.jsonObject(with: Data(swaymsg(["-t", "get_tree"]).utf8))
    func focused(_ node: Any) -> String? {
      guard let node = node as? [String: Any] else { return nil }
      if node["focused"] as? Bool == true { return node["name"] as? String }
      for key in ["nodes", "floating_nodes"] {
        for child in node[key] as? [Any] ?? [] {
          if let name = focused(child) { return name }
        }
      }
      return nil
    }
    return focused(tree)
  }

  /// The output as it is on screen (grim, through the compositor's screen copy).
  /// A screenshot once one differs from `bare` in more than `count` pixels (what is awaited is
  /// on screen), or the last one taken after 20 s.
  func screenshot(differingFrom bare: RGBAImage, byMoreThan count: Int) throws -> RGBAImage {
    var shot = bare  // replaced by the first screenshot: the condition is asked at once
    _ = try waitFor {
      shot = try screenshot()
      return shot.pixels(differingFrom: bare) > count
    }
    return shot
  }

  func screenshot() throws -> RGBAImage {
    let file = folder.appendingPathComponent("screen-\(UUID().uuidString).png")
    let (program, arguments) = Self.asDesktopUser("/usr/bin/grim", [file.path])
    let result = try runProgram(
      program, arguments, environment: environment.mapValues { $0 }, timeout: 20)
    XCTAssertEqual(result.status, 0, "grim: \(result.stderr)")
    return try PNG.read(file)
  }

  /// A left click at (x, y) on the output, by a virtual pointer, as a mouse would make it; made
  /// again, up to three times, until `done` (a new pointer's first click can come before
  /// XWayland has seen it enter).
  func click(x: Int, y: Int, until done: () -> Bool) throws {
    if clicker == nil {
      let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Hosts/wayland-click.c")
      let program = folder.appendingPathComponent("wayland-click")
      let built = try runProgram(
        URL(fileURLWithPath: "/usr/bin/cc"),
        ["-o", program.path, source.path, "-lwayland-client"])
      XCTAssertEqual(built.status, 0, built.stderr)
      clicker = program
    }
    guard let clicker else { return }
    for _ in 0..<3 where !done() {
      let click = try run(
        clicker.path, ["\(x)", "\(y)", "\(Self.size.width)", "\(Self.size.height)"],
        wayland: true)
      // It keeps its pointer until ended (see the program): ended once the click is seen, or
      // after 5 s, and tried again.
      _ = waitFor(timeout: 5, poll: 0.02) { done() || !click.isRunning }
      click.terminate()
      click.waitUntilExit()
    }
  }
}

extension RGBAImage {
  /// How many pixels differ from those of `other` (of the same size) by more than 8 in any
  /// channel.
  func pixels(differingFrom other: RGBAImage) -> Int {
    var count = 0
    for y in 0..<height {
      for x in 0..<width {
        let (pixel, colour) = (self[x, y], other[x, y])
        if abs(Int(pixel.red) - Int(colour.red)) > 8
          || abs(Int(pixel.green) - Int(colour.green)) > 8
          || abs(Int(pixel.blue) - Int(colour.blue)) > 8
        {
          count += 1
        }
      }
    }
    return count
  }
}
