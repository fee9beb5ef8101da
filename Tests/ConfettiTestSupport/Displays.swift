import Foundation
import XCTest

/// X displays of the tests' own (Xvfb), with a compositing manager where asked, and the
/// windows on them (xdotool).

/// Starts an X server of its own on a free display number; ``unavailable(_:)`` where Xvfb is
/// missing.
package func startXvfb(size: String = "640x480x24") throws -> (name: String, server: Process) {
  // A server that announced its display and then cannot be reached is stopped, and another
  // started, twice at most: a client is connected once (xdpyinfo) before the display is handed
  // out.
  for _ in 0..<3 {
    guard let started = try startOneXvfb(size: size) else { continue }
    let reached = try runProgram(
      URL(fileURLWithPath: "/usr/bin/xdpyinfo"), ["-display", started.name], timeout: 30)
    if reached.status == 0, started.server.isRunning { return started }
    stopXvfb(started.server)
  }
  throw TestFailure("no Xvfb could be started and reached, three times over")
}

/// One Xvfb, started as ``startXvfb(size:)`` says; nil when it did not announce a display.
private func startOneXvfb(size: String) throws -> (name: String, server: Process)? {
  guard
    let xvfb = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first(
      where: FileManager.default.isExecutableFile)
  else { throw unavailable("needs Xvfb (apt-get install xvfb)") }
  // The server picks a free display number itself and writes it to its standard output once it
  // accepts clients (-displayfd): no race with a number another server is still leaving, and
  // no client before it is ready.
  let server = Process()
  server.executableURL = URL(fileURLWithPath: xvfb)
  // -noreset: as on a desktop, whose server always has clients, the last client's leaving
  // (xdotool, xwininfo, a program's own short connection) does not reset the server, refusing
  // whoever connects meanwhile ("Failed to open display", seen on a busy machine).
  server.arguments = ["-displayfd", "1", "-screen", "0", size, "-nolisten", "tcp", "-noreset"]
  let announced = Pipe()
  server.standardOutput = announced
  server.standardError = FileHandle.nullDevice
  try server.run()
  let ready = DispatchSemaphore(value: 0)
  nonisolated(unsafe) var said = Data()
  let reader = announced.fileHandleForReading
  Thread.detachNewThread {
    while !said.contains(UInt8(ascii: "\n")) {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      said += chunk
    }
    ready.signal()
  }
  if ready.wait(timeout: .now() + 30) == .success,
    let number = Int(
      String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
    server.isRunning
  {
    return (":\(number)", server)
  }
  stopXvfb(server)
  return nil
}

/// Stops an X server from ``startXvfb(size:)`` and waits until it has gone (killing it after
/// 5 s): a server still leaving when the next one starts may take its display's socket with it,
/// and the next test's clients then find no display.
package func stopXvfb(_ server: Process) {
  server.terminate()
  if !waitFor(timeout: 5, poll: 0.01, { !server.isRunning }) {
    kill(server.processIdentifier, SIGKILL)
  }
  server.waitUntilExit()
}

extension XCTestCase {
  /// An X display of its own (Xvfb) with a compositing manager (xcompmgr) on it, as the overlay
  /// needs; both end with the test. ``unavailable(_:)`` where xcompmgr is missing.
  package func compositedDisplay(size: String = "800x600x24") throws -> (
    name: String, compositor: Process
  ) {
    try requireTools(["/usr/bin/xcompmgr"], for: "the overlay")
    let display = try startXvfb(size: size)
    addTeardownBlock { stopXvfb(display.server) }
    let compositor = try launchCompositor(display: display.name)
    addTeardownBlock { if compositor.isRunning { compositor.terminate() } }
    return (display.name, compositor)
  }
}

/// Starts xcompmgr on `display` and returns once it composites: its window (which it names
/// and makes the compositing selection's owner in one go) is on the display (xwininfo, from
/// x11-utils). One that ends first is started again, twice at most, and what it said is in the
/// failure; the wait is 20 s at most.
package func launchCompositor(display: String) throws -> Process {
  var said: [String] = []
  let deadline = Date().addingTimeInterval(20)
  for _ in 0..<3 {
    let log = try temporaryDirectory().appendingPathComponent("xcompmgr.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let compositor = try launch(
      "/usr/bin/xcompmgr", [], display: display, errors: try FileHandle(forWritingTo: log))
    // Until it composites, or ends (then started again).
    let settled = try waitFor(timeout: max(0, deadline.timeIntervalSinceNow), poll: 0.02) {
      guard compositor.isRunning else { return true }
      let tree = try runProgram(
        URL(fileURLWithPath: "/usr/bin/xwininfo"), ["-root", "-tree"],
        environment: ["DISPLAY": display])
      return tree.stdout.contains("\"xcompmgr\"")
    }
    if settled, compositor.isRunning { return compositor }
    if compositor.isRunning { break }
    said.append((try? String(contentsOf: log, encoding: .utf8)) ?? "")
  }
  throw TestFailure("xcompmgr did not start compositing on \(display) within 20 s: \(said)")
}

/// The id of the `confetti` window on X display `display`, once it has appeared; asserts it did.
package func confettiWindow(on display: String) throws -> String {
  let id =
    try xdotool(["search", "--sync", "--name", "^Confetti"], display: display)
    .split(separator: "\n").first.map(String.init) ?? ""
  XCTAssertFalse(id.isEmpty, "the window never appeared")
  return id
}

/// Waits until a window manager manages X display `display`: it has put its check window on
/// the root (`_NET_SUPPORTING_WM_CHECK`). Up to 20 s; fails the test if it never did.
package func waitForWindowManager(
  on display: String, file: StaticString = #filePath, line: UInt = #line
) throws {
  let managed = try waitFor(timeout: 20) {
    let check = try runProgram(
      URL(fileURLWithPath: "/usr/bin/xprop"), ["-root", "_NET_SUPPORTING_WM_CHECK"],
      environment: ["DISPLAY": display])
    return check.stdout.contains("window id")
  }
  XCTAssert(managed, "no window manager managed \(display) within 20 s", file: file, line: line)
}

/// Waits for the title of `window` on X display `display` to satisfy `condition`, up to
/// `timeout` seconds (generous: a loaded machine is slow, and the wait ends as soon as it shows);
/// returns the last title read, and fails the test if it never showed `what`.
@discardableResult
package func waitForTitle(
  of window: String, on display: String, _ what: String, timeout: Double = 30,
  file: StaticString = #filePath, line: UInt = #line, _ condition: (String) -> Bool
) throws -> String {
  var last = ""
  let shown = try waitFor(timeout: timeout) {
    last = try xdotool(["getwindowname", window], display: display)
    return condition(last)
  }
  XCTAssert(shown, "the title never showed \(what): \(last)", file: file, line: line)
  return last
}

/// Waits until xwininfo says `window` on X display `display` is in `state` (`IsViewable`,
/// `IsUnMapped`), 20 s at most; fails the test if it never was.
package func waitForMapState(
  of window: String, on display: String, _ state: String, file: StaticString = #filePath,
  line: UInt = #line
) throws {
  var said = ""
  let reached = try waitFor(timeout: 20, poll: 0.02) {
    said = try runProgram(
      URL(fileURLWithPath: "/usr/bin/xwininfo"), ["-id", window], environment: ["DISPLAY": display]
    ).stdout
    return said.contains(state)
  }
  XCTAssert(reached, "window \(window) never was \(state): \(said)", file: file, line: line)
}

/// Runs xdotool on X display `display`, asserting it succeeds; returns what it printed, trimmed.
@discardableResult
package func xdotool(_ arguments: [String], display: String) throws -> String {
  let result = try runProgram(
    URL(fileURLWithPath: "/usr/bin/xdotool"), arguments, environment: ["DISPLAY": display],
    timeout: 30)
  XCTAssertEqual(result.status, 0, "xdotool \(arguments): \(result.stderr)")
  return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Waits until the picture on X display `display` (its top-left `width` × `height` pixels) has
/// changed `count` times, each change seen between two screenshots (ffmpeg's x11grab): at least
/// that many frames were drawn meanwhile, however busy the machine. Fails the test if they were
/// not within `timeout` seconds.
package func waitForNewPictures(
  on display: String, width: Int = 640, height: Int = 480, count: Int, timeout: Double = 90,
  file: StaticString = #filePath, line: UInt = #line
) throws {
  let shot = try temporaryDirectory().appendingPathComponent("screen.rgb")
  var (last, changes) = (Data(), -1)
  var failed: RunResult?
  // Each screenshot takes its own time: no pause between them.
  let changed = try waitFor(timeout: timeout, poll: 0) {
    let grab = try runProgram(
      try requiredProgram("ffmpeg", for: "screenshots"),
      [
        "-v", "error", "-f", "x11grab", "-draw_mouse", "0", "-video_size", "\(width)x\(height)",
        "-i", "\(display)+0,0", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-y",
        shot.path,
      ])
    guard grab.status == 0 else {
      failed = grab
      return true  // nothing more to see: said below
    }
    let picture = try Data(contentsOf: shot)
    if picture != last { (last, changes) = (picture, changes + 1) }
    return changes >= count
  }
  if let failed {
    return XCTFail("no screenshot of \(display): \(failed.stderr)", file: file, line: line)
  }
  XCTAssert(
    changed, "the picture changed \(changes) times in \(timeout) s", file: file, line: line)
}
