import ConfettiImage
import ConfettiTestSupport
import Foundation
import XCTest

/// The window's time as a player uses it, under Xvfb: paused, stepped a frame at a time, run
/// backwards with a held key and played at half speed. Each moment it stops at, read from its
/// title, is a screenshot of the window equal to `confetti render --time` of that moment. And
/// `r` and `--watch` read the configuration again, keeping the last good effect through bad
/// edits and a file that goes away.
final class WindowTimeTests: XCTestCase {
  /// A window on its own X display, and the tools the test drives it with.
  struct Session {
    var display: String
    var window: String
    var process: Process

    func title() throws -> String { try xdotool(["getwindowname", window], display: display) }

    func press(_ keys: String...) throws {
      try xdotool(["key", "--window", window] + keys, display: display)
    }

    /// Waits for the title to satisfy `condition`; returns it.
    @discardableResult
    func waitForTitle(_ what: String, _ condition: (String) -> Bool) throws -> String {
      try ConfettiTestSupport.waitForTitle(of: window, on: display, what, condition)
    }

    /// Pauses the window, then steps it a frame (1/60 s) at a time to the frame nearest
    /// `moment` seconds into the effect: a pause that comes late or early (a key that reaches
    /// a busy machine late) is corrected, frame by frame. Returns the moment the title says.
    func pause(near moment: Double) throws -> Double {
      try press("k")
      let paused = try pausedMoment()
      let frames = Int(((moment - paused) * 60).rounded())
      guard frames != 0 else { return paused }
      let key = frames > 0 ? "Right" : "Left"
      try xdotool(
        ["key", "--window", window] + Array(repeating: key, count: abs(frames)), display: display)
      let wanted = paused + Double(frames) / 60
      try waitForTitle("stepped to \(wanted) s") { title in
        guard let range = title.range(of: #"paused at -?[0-9.]+"#, options: .regularExpression),
          let shown = Double(title[range].dropFirst("paused at ".count))
        else { return false }
        return abs(shown - wanted) < 0.002
      }
      return try pausedMoment()
    }

    /// The moment the title says the paused window shows, in seconds since the effect began.
    func pausedMoment() throws -> Double {
      let title = try waitForTitle("a paused moment") { $0.contains("paused at") }
      guard let range = title.range(of: #"paused at -?[0-9.]+"#, options: .regularExpression),
        let moment = Double(title[range].dropFirst("paused at ".count))
      else {
        XCTFail("no moment in the title: \(title)")
        return 0
      }
      return moment
    }
  }

  let size = (width: 480, height: 360)
  let effect = ["--preset", "classic-cannon", "--seed", "7"]

  /// `confetti` with `arguments`, in a window of ``size`` on an X display of that size, both
  /// ended when the test ends.
  func openWindow(_ arguments: [String]) throws -> Session {
    let display = try startXvfb(size: "\(size.width)x\(size.height)x24")
    addTeardownBlock { stopXvfb(display.server) }
    let process = try launch(
      confettiBinary.path,
      arguments + ["--size", "\(size.width)x\(size.height)", "--exit-after", "60"],
      display: display.name)
    addTeardownBlock { process.terminate() }
    let id = try confettiWindow(on: display.name)
    return Session(display: display.name, window: id, process: process)
  }

  func tools() throws -> URL {
    try requireTools(["/usr/bin/xdotool"], for: "the window's time")
    return try requiredProgram("ffmpeg", for: "the window's time")
  }

  /// A screenshot of the window (at the screen's top left corner, no window manager) taken by
  /// ffmpeg's X11 grabber, without the pointer.
  func screenshot(_ session: Session, ffmpeg: URL, to file: URL) throws -> RGBAImage {
    let result = try runProgram(
      ffmpeg,
      [
        "-v", "error", "-f", "x11grab", "-draw_mouse", "0", "-video_size",
        "\(size.width)x\(size.height)", "-i", "\(session.display)+0,0", "-frames:v", "1", "-y",
        file.path,
      ])
    XCTAssertEqual(result.status, 0, result.stderr)
    return try PNG.read(file)
  }

  /// Asserts that the window shows what `confetti render` draws at `moment` (given to the
  /// millisecond, as the title gives it: pieces moved at most about a pixel meanwhile).
  func assertShowsTheRender(
    at moment: Double, _ session: Session, ffmpeg: URL, in directory: URL,
    of effect: [String]? = nil, line: UInt = #line
  ) throws {
    let effect = effect ?? self.effect
    let name = String(format: "%.3f", moment)
    let shot = try screenshot(
      session, ffmpeg: ffmpeg,
      to: directory.appendingPathComponent("window-\(effect.joined())-\(name).png"))
    func render(at time: String) throws -> RGBAImage {
      let file = directory.appendingPathComponent("render-\(effect.joined())-\(time).png")
      let result = try confetti(
        ["render"] + effect + [
          "--size", "\(size.width)x\(size.height)", "--time", time, "--out", file.path,
        ])
      XCTAssertEqual(result.status, 0, result.stderr, line: line)
      return try PNG.read(file)
    }
    let rendered = try render(at: name)
    let painted = rendered.difference(
      from: RGBAImage(
        width: size.width, height: size.height,
        fill: rendered[0, 0]), threshold: 24
    ).pixels
    XCTAssertGreaterThan(painted, 100, "pieces are in the picture at \(name) s", line: line)
    var off = shot.difference(from: rendered, threshold: 48)
    // The title gives the moment to the millisecond: the window's may be up to half a
    // millisecond either side, which fast pieces (a burst of stars) show. So the render of
    // either end of that span counts too.
    if off.pixels >= painted / 10 {
      for edge in [moment - 0.0005, moment + 0.0005] {
        let near = shot.difference(
          from: try render(at: String(format: "%.4f", edge)), threshold: 48)
        if near.pixels < off.pixels { off = near }
      }
    }
    XCTAssertLessThan(
      off.pixels, painted / 10,
      "the window at \(name) s is not the render of that moment (\(off.pixels) of \(painted) "
        + "painted pixels differ; see \(directory.path))", line: line)
  }

  /// Every preset, paused in the window a moment after it opened, is `confetti render` of that
  /// moment: both fire the same opening (start emitters, or key ones, or click ones), and an
  /// effect makes the same pieces whatever the window's frame rate.
  func testEveryPresetInTheWindowIsTheRenderOfThatMoment() throws {
    let ffmpeg = try tools()
    let directory = try temporaryDirectory()
    let list = try confetti(["presets", "list"])
    let presets = list.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first }
    XCTAssertGreaterThan(presets.count, 10, list.stdout)
    for preset in presets {
      let effect = ["--preset", String(preset), "--seed", "7"]
      let session = try openWindow(effect)
      defer {
        session.process.terminate()
        session.process.waitUntilExit()
      }
      let paused = try session.pause(near: 0.3)
      try assertShowsTheRender(at: paused, session, ffmpeg: ffmpeg, in: directory, of: effect)
    }
  }

  func testPausedSteppedRewoundAndSlowedMomentsAreTheRenderOfThoseMoments() throws {
    let ffmpeg = try tools()
    let directory = try temporaryDirectory()
    let session = try openWindow(effect)

    // Paused mid-flight: the picture stays, and is the render of the moment in the title.
    // (Late enough in the flight for a held ← to run back for a second and stay after 0.)
    let paused = try session.pause(near: 0.9)
    XCTAssertGreaterThan(paused, 0.8)
    // The time is what is tested, not a stand-in for an event: a paused clock stands still.
    usleep(300_000)
    XCTAssertEqual(try session.pausedMoment(), paused, "a paused clock stands still")
    XCTAssertFalse(try session.title().contains("fps"), "nothing is drawn: no frame rate")
    try assertShowsTheRender(at: paused, session, ffmpeg: ffmpeg, in: directory)

    // Three frames on, one at a time: exactly 3/60 s.
    try session.press("Right", "Right", "Right")
    try session.waitForTitle("three frames later") {
      !$0.contains(String(format: "paused at %.3f s", paused))
    }
    let later = try session.pausedMoment()
    XCTAssertEqual(later - paused, 3.0 / 60, accuracy: 0.0011)
    try assertShowsTheRender(at: later, session, ffmpeg: ffmpeg, in: directory)

    // Held back: time runs backwards while the key is down, then stands again.
    try xdotool(["keydown", "--window", session.window, "Left"], display: session.display)
    // Let go once the title shows it a quarter of a second back, however late the key came.
    try session.waitForTitle("time run back a quarter of a second") { title in
      guard let range = title.range(of: #"◀ back at -?[0-9.]+"#, options: .regularExpression),
        let shown = Double(title[range].dropFirst("◀ back at ".count))
      else { return false }
      return shown < later - 0.25
    }
    try xdotool(["keyup", "--window", session.window, "Left"], display: session.display)
    try session.waitForTitle("paused again") { !$0.contains("◀") && $0.contains("paused at") }
    let rewound = try session.pausedMoment()
    XCTAssertLessThan(rewound, later - 0.2, "held ←, time ran back")
    XCTAssertGreaterThan(rewound, 0.05)
    try assertShowsTheRender(at: rewound, session, ffmpeg: ffmpeg, in: directory)

    // Half speed: played for a while, the clock moved half of the wall time.
    try session.press("bracketleft")
    try session.waitForTitle("half speed") { $0.contains("1/2×") }
    // Played 1.5 s: a key press that reaches the window late (up to half a second, on a loaded
    // machine) cannot make the clock look faster than half speed, nor much slower.
    let started = Date()
    try session.press("k")
    // The time is what is tested, not a stand-in for an event: 1.5 s played at half speed.
    usleep(1_500_000)
    try session.press("k")
    let wall = Date().timeIntervalSince(started)
    let slowed = try session.pausedMoment()
    XCTAssertGreaterThan(slowed - rewound, 0.5 * (1.5 - 0.5), "half of 1.5 s, less a late key")
    XCTAssertLessThanOrEqual(slowed - rewound, 0.5 * wall + 0.05, "half of \(wall) s at most")
    try assertShowsTheRender(at: slowed, session, ffmpeg: ffmpeg, in: directory)
  }

  func testReloadingAndWatchingTheConfigurationKeepTheLastGoodEffect() throws {
    _ = try tools()
    let directory = try temporaryDirectory()
    let config = directory.appendingPathComponent("party.json")
    let snow = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Presets/snow.json").standardized, encoding: .utf8)
    func write(_ text: String) throws {
      // As an editor saves: a new file renamed over the old one.
      let temporary = directory.appendingPathComponent(".party.json.swp")
      try text.write(to: temporary, atomically: false, encoding: .utf8)
      XCTAssertEqual(rename(temporary.path, config.path), 0)
    }
    func named(_ name: String) -> String {
      snow.replacingOccurrences(of: #""name": "snow""#, with: #""name": "\#(name)""#)
    }
    XCTAssert(named("first").contains("\"first\""), "the snow preset names itself \"snow\"")
    try write(named("first"))

    let session = try openWindow(["--config", config.path, "--watch"])
    try session.waitForTitle("the first effect") { $0.contains("— first") }

    // A good edit runs at once.
    try write(named("second"))
    try session.waitForTitle("the edited effect") { $0.contains("— second") }

    // A broken edit: the last good effect runs on, and the title says what is wrong.
    try write("{ \"name\": \"third\", ")
    let broken = try session.waitForTitle("the error") { $0.contains("error:") }
    XCTAssert(broken.contains("— second"), broken)
    XCTAssert(broken.contains(config.lastPathComponent), "the error names the file: \(broken)")
    XCTAssert(session.process.isRunning, "a broken edit does not stop the window")

    // The file goes away: still the last good effect, still an error.
    XCTAssertEqual(unlink(config.path), 0)
    let gone = try session.waitForTitle("the missing file") {
      $0.contains("error:") && $0 != broken
    }
    XCTAssert(gone.contains("— second"), gone)

    // It comes back, good: read again, the error gone.
    try write(named("fourth"))
    let back = try session.waitForTitle("the file back") { $0.contains("— fourth") }
    XCTAssertFalse(back.contains("error:"), back)

    // r reads it again by hand too (the window restarts the effect from the file).
    try write(named("fifth"))
    try session.press("r")
    try session.waitForTitle("the reloaded effect") { $0.contains("— fifth") }
    XCTAssert(session.process.isRunning, "the window is still running")
  }

  func testRWithAPresetSaysThereIsNoFileToRead() throws {
    _ = try tools()
    let session = try openWindow(effect)
    try session.press("r")
    let title = try session.waitForTitle("the note") { $0.contains("error:") }
    XCTAssert(title.contains("r reloads a --config file"), title)
    XCTAssert(title.contains("— classic-cannon"), title)
  }
}
