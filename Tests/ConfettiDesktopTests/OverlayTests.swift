import ConfettiCore
import ConfettiDesktop
import ConfettiImage
import ConfettiPresets
import ConfettiTestSupport
import Foundation
import XCTest

/// `confetti overlay` under Xvfb with a compositor: a window below gets the clicks made on it,
/// its framebuffer is transparent away from the pieces, and it exits by itself when the last
/// piece is gone, when the library predicts. Without a compositor, or on a monitor that does
/// not exist, it says so in one line.
final class OverlayTests: XCTestCase {
  /// Xvfb does not wait at a swap, whatever the swap interval: unpaced, the overlay drew as
  /// fast as a core let it (about 60–70 % of one). It draws at most one frame a refresh, as its
  /// title says (the frames counted over the last second).
  func testTheOverlayDrawsAtMostOneFrameARefresh() throws {
    let display = try compositedDisplay()
    let overlay = try launch(confettiBinary.path, ["overlay", "--loop"], display: display.name)
    defer { if overlay.isRunning { overlay.terminate() } }
    // Xvfb's monitor reports no refresh rate (taken as 60) or its mode's.
    let said = try xdotool(["search", "--sync", "--name", "fps"], display: display.name)
    let window = String(said.split(separator: "\n").first ?? "")
    var rates: [Double] = []
    // Three rates read, each other than the one before (a steady rate may give fewer): at
    // least one must come.
    _ = try waitFor(timeout: 60, poll: 0.3) {
      let title = try xdotool(["getwindowname", window], display: display.name)
      if let range = title.range(of: #"[\d.]+ fps"#, options: .regularExpression),
        let rate = Double(title[range].dropLast(4))
      {
        if rates.last != rate { rates.append(rate) }
      }
      return rates.count >= 3
    }
    XCTAssertFalse(rates.isEmpty, "the overlay's title says its frame rate")
    let refresh = try xrandrRate(display: display.name) ?? 60
    for rate in rates {
      XCTAssertLessThanOrEqual(rate, refresh * 1.1, "frames a second, at most one a refresh")
    }
  }

  /// The current mode's refresh rate, as xrandr says it (the mode marked *); nil where none.
  func xrandrRate(display: String) throws -> Double? {
    guard let xrandr = findProgram("xrandr") else { return nil }
    let said = try runProgram(xrandr, ["--current"], environment: ["DISPLAY": display])
    for line in said.stdout.split(separator: "\n") {
      for word in line.split(separator: " ") where word.contains("*") {
        if let rate = Double(word.filter { $0.isNumber || $0 == "." }), rate > 0 { return rate }
      }
    }
    return nil
  }

  func testTheOverlayLetsClicksThroughIsTransparentAndEndsWhenPredicted() throws {
    let display = try startXvfb(size: "800x600x24")
    defer { stopXvfb(display.server) }
    try requireTools(["/usr/bin/xdotool", "/usr/bin/xcompmgr", "/usr/bin/xev"], for: "the overlay")
    let environment = ["DISPLAY": display.name]

    // No compositor yet: refused, in one line.
    let bare = try confetti(["overlay"], environment: environment)
    XCTAssertEqual(bare.status, 1)
    XCTAssert(bare.stderr.contains("needs a compositing window manager"), bare.stderr)
    XCTAssertEqual(bare.stderr.split(separator: "\n").count, 1)

    let compositor = try launchCompositor(display: display.name)
    defer { compositor.terminate() }
    let nowhere = try confetti(["overlay", "--monitor", "5"], environment: environment)
    XCTAssertEqual(nowhere.status, 1)
    XCTAssert(nowhere.stderr.contains("there is no monitor 5"), nowhere.stderr)

    // A plain X window under the whole screen, reporting its button presses.
    let events = try temporaryDirectory().appendingPathComponent("xev.txt")
    _ = FileManager.default.createFile(atPath: events.path, contents: nil)
    let below = try launch(
      "/usr/bin/xev", ["-geometry", "800x600+0+0", "-event", "button"], display: display.name,
      output: try FileHandle(forWritingTo: events))
    defer { below.terminate() }
    _ = try xdotool(["search", "--sync", "--name", "Event Tester"], display: display.name)

    // What the library predicts: the default celebration's start emitters fired at once, over
    // within about 4 s.
    let predicted = try predictedEnd(of: "celebrate", on: Size(width: 800, height: 600))
    XCTAssertGreaterThan(predicted, 1)
    XCTAssertLessThanOrEqual(predicted, 4)

    let snapshot = try temporaryDirectory().appendingPathComponent("overlay.png")
    let launched = Date()
    let overlay = try launch(
      confettiBinary.path, ["overlay", "--snapshot", snapshot.path], display: display.name)
    defer { if overlay.isRunning { overlay.terminate() } }
    _ = try xdotool(["search", "--sync", "--name", "^Confetti"], display: display.name)
    let appeared = Date()
    _ = try xdotool(["mousemove", "400", "300", "click", "1"], display: display.name)
    let ended = waitFor(timeout: predicted + 10, poll: 0.005) { !overlay.isRunning }
    let lasted = Date().timeIntervalSince(appeared)
    let ran = Date().timeIntervalSince(launched)
    XCTAssert(ended, "the overlay did not end by itself")
    XCTAssertEqual(overlay.terminationStatus, 0)
    // Not before the last piece is gone (its clock starts after it was launched; when the
    // window is seen to appear depends on how busy the machine is), and not long after: a
    // margin a loaded machine's late frames cannot cross.
    XCTAssertGreaterThanOrEqual(ran, predicted, "ended \(ran) s after it was launched")
    XCTAssertLessThan(lasted, predicted + 3, "ended \(lasted) s after it appeared")

    let log = try String(contentsOf: events, encoding: .utf8)
    XCTAssert(log.contains("ButtonPress"), "the window below got no click: \(log)")

    let frame = try PNG.read(snapshot)
    XCTAssertEqual([frame.width, frame.height], [800, 600])
    var clear = 0
    var solid = 0
    for y in 0..<frame.height {
      for x in 0..<frame.width {
        let alpha = frame[x, y].alpha
        if alpha == 0 { clear += 1 } else if alpha == 255 { solid += 1 }
      }
    }
    XCTAssertGreaterThan(clear, 800 * 600 * 9 / 10, "transparent away from the pieces")
    XCTAssertGreaterThan(solid, 200, "the pieces are opaque")
  }

  /// Endings: a continuous effect falls for its --duration and ends; --loop throws a one-off
  /// effect again each time it is over; and no key ends, pauses or switches the overlay.
  func testTheOverlayEndsAContinuousEffectLoopsAOneOffAndIgnoresKeys() throws {
    let display = try compositedDisplay()
    let environment = ["DISPLAY": display.name]

    // Refused before any window: a --duration that is no time, or beside --loop.
    for bad in [["--duration", "0"], ["--duration", "nan"], ["--loop", "--duration", "5"]] {
      let refused = try confetti(["overlay"] + bad, environment: environment)
      XCTAssertEqual(refused.status, 64, "\(bad): \(refused.stderr)")
      XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
    }

    // A continuous drizzle whose drops live half a second: on the screen for --duration (its
    // last quarter fading), then it ends by itself and successfully.
    let drizzle = try temporaryDirectory().appendingPathComponent("drizzle.json")
    try
      #"{"name": "drizzle", "emitters": [{"emission": {"mode": "continuous"}, "cells": [{"birthRate": 60, "lifetime": 0.5}]}]}"#
      .write(to: drizzle, atomically: true, encoding: .utf8)
    let ended = try confetti(
      ["overlay", "--config", drizzle.path, "--duration", "0.5"], environment: environment)
    XCTAssertEqual(ended.status, 0, ended.stderr)

    // A one-off burst with --loop, over four times its length, with every key the window knows
    // sent to it: still running and still throwing, then SIGTERM ends it cleanly.
    let scene = try EffectScene(config: try Presets.named("tap-burst"), capacity: 4096, seed: 1)
    // What opens it, as the overlay does: start emitters, else key, else click ones.
    let opening = try XCTUnwrap([EmitterTrigger.start, .key, .click].first(where: scene.has))
    let length = try predictedEnd(
      of: "tap-burst", on: Size(width: 800, height: 600), firing: opening)
    guard length > 0.2, length < 5 else { return XCTFail("tap-burst lasts \(length) s") }
    let looping = try launch(
      confettiBinary.path, ["overlay", "--preset", "tap-burst", "--loop"], display: display.name)
    defer { if looping.isRunning { looping.terminate() } }
    let window = try confettiWindow(on: display.name)
    try xdotool(
      ["key", "--window", window, "k", "p", "c", "space", "Escape", "q"], display: display.name)
    // The time is what is tested, not a stand-in for an event: four lengths of the effect.
    usleep(useconds_t(length * 4 * 1_000_000))
    XCTAssert(looping.isRunning, "the overlay went on through the keys and past its effect's end")
    let title = try xdotool(["getwindowname", window], display: display.name)
    XCTAssert(title.contains("tap-burst"), "no key switched the effect: \(title)")
    let alive = title.split(separator: " ").firstIndex(of: "particles").map {
      Int(title.split(separator: " ")[$0 - 1]) ?? 0
    }
    XCTAssertGreaterThan(alive ?? 0, 0, "thrown again after it was over: \(title)")
    looping.terminate()
    looping.waitUntilExit()
    XCTAssertEqual(looping.terminationStatus, 0)
  }

  /// `--duration` is the time on the screen: snow for 4 s stays about 4 s (it stayed 20 s: 4 s
  /// of snowing, then the flakes' 16 s lives), fading out over its last second; a timed
  /// effect still stops emitting at it and ends by itself.
  func testAContinuousEffectIsOnTheScreenForItsDuration() throws {
    let display = try compositedDisplay()
    let environment: [String: String?] = ["DISPLAY": display.name, "WAYLAND_DISPLAY": nil]
    let started = Date()
    let snow = try confetti(
      ["overlay", "--preset", "snow", "--duration", "4"], environment: environment)
    let took = Date().timeIntervalSince(started)
    XCTAssertEqual(snow.status, 0, snow.stderr)
    XCTAssertGreaterThanOrEqual(took, 4, "on the screen for its duration")
    // Start-up on a busy machine takes a second or two; the flakes' lives would take 16 s more.
    XCTAssertLessThan(took, 12, "gone by its duration, not when the last flake lands")
    // A timed effect's shells stop at the duration, as they always have, and what they threw
    // lands: fireworks for 3 s end in about 6 s (all ten seconds of shells: 12.9 s).
    let fireworksStarted = Date()
    let fireworks = try confetti(
      ["overlay", "--preset", "fireworks", "--duration", "3"], environment: environment)
    XCTAssertEqual(fireworks.status, 0, fireworks.stderr)
    XCTAssertLessThan(
      Date().timeIntervalSince(fireworksStarted), 11, "its shells stopped at the duration")
  }

  /// Under a window manager that focuses new windows (openbox), the overlay takes no focus: the
  /// window being typed into keeps it, and the overlay says what it is (a notification, on no
  /// taskbar, with no input).
  func testTheOverlayTakesNoFocusUnderAWindowManager() throws {
    try requireTools(
      ["/usr/bin/openbox", "/usr/bin/xcompmgr", "/usr/bin/xev", "/usr/bin/xprop"],
      for: "the overlay under openbox")
    let display = try startXvfb(size: "800x600x24")
    defer { stopXvfb(display.server) }
    let manager = try launch("/usr/bin/openbox", [], display: display.name)
    defer { manager.terminate() }
    try waitForWindowManager(on: display.name)
    let compositor = try launchCompositor(display: display.name)
    defer { compositor.terminate() }
    let typed = try temporaryDirectory().appendingPathComponent("keys.txt")
    _ = FileManager.default.createFile(atPath: typed.path, contents: nil)
    let editor = try launch(
      "/usr/bin/xev", ["-geometry", "400x300+10+10", "-event", "keyboard"], display: display.name,
      output: try FileHandle(forWritingTo: typed))
    defer { editor.terminate() }
    let typedInto =
      try xdotool(["search", "--sync", "--name", "Event Tester"], display: display.name)
      .split(separator: "\n").first.map(String.init) ?? ""
    try xdotool(["windowactivate", "--sync", typedInto], display: display.name)
    var focused = ""
    let focusing = try waitFor(timeout: 20, poll: 0) {
      focused = try xdotool(["getwindowfocus"], display: display.name)
      return focused == typedInto
    }
    XCTAssert(focusing, "the window typed into has the focus: \(focused), not \(typedInto)")

    let overlay = try launch(
      confettiBinary.path, ["overlay", "--preset", "tap-burst", "--loop"], display: display.name)
    defer { if overlay.isRunning { overlay.terminate() } }
    let window = try confettiWindow(on: display.name)
    // Mapped (override-redirect: no window manager maps it) and drawing, as its title says:
    // whatever focus showing it could have taken, it has taken by now.
    try waitForMapState(of: window, on: display.name, "IsViewable")
    try waitForTitle(of: window, on: display.name, "pieces drawn") {
      $0.contains(" particles") && !$0.contains(" 0 particles")
    }
    XCTAssert(overlay.isRunning, "the overlay runs under openbox")
    let focusNow = try xdotool(["getwindowfocus"], display: display.name)
    XCTAssertNotEqual(focusNow, window, "the overlay took the focus")
    XCTAssertEqual(focusNow, focused, "the window being typed into keeps the focus")
    // Typing goes on into it, the overlay's own keys included.
    try xdotool(["key", "k", "q", "Escape"], display: display.name)
    let wanted = ["(keysym 0x6b, k)", "(keysym 0x71, q)", "(keysym 0xff1b, Escape)"]
    // Read once the last has arrived (or after 20 s), not after a fixed wait.
    var keys = ""
    _ = waitFor(timeout: 20, poll: 0.02) {
      keys = (try? String(contentsOf: typed, encoding: .utf8)) ?? ""
      return wanted.allSatisfy(keys.contains)
    }
    for key in wanted {
      XCTAssert(keys.contains(key), "\(key) reached the window below: \(keys.suffix(400))")
    }
    XCTAssert(overlay.isRunning, "no key ended the overlay")
    let properties = try runProgram(
      URL(fileURLWithPath: "/usr/bin/xprop"),
      ["-id", window, "_NET_WM_WINDOW_TYPE", "_NET_WM_STATE", "WM_HINTS"],
      environment: ["DISPLAY": display.name])
    for said in [
      "_NET_WM_WINDOW_TYPE_NOTIFICATION", "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_ABOVE",
      "accepts input or input focus: False",
    ] {
      XCTAssert(properties.stdout.contains(said), "\(said) in \(properties.stdout)")
    }
    overlay.terminate()
    overlay.waitUntilExit()
    XCTAssertEqual(overlay.terminationStatus, 0)
  }

  /// Under twm, which places new windows by hand, the overlay neither waits to be placed nor
  /// spins: it shows at once, draws, and ends when its effect is over.
  func testTheOverlayShowsAndEndsUnderAWindowManagerThatPlacesByHand() throws {
    try requireTools(["/usr/bin/twm", "/usr/bin/xcompmgr"], for: "the overlay under twm")
    let display = try startXvfb(size: "800x600x24")
    defer { stopXvfb(display.server) }
    let manager = try launch("/usr/bin/twm", [], display: display.name)
    defer { manager.terminate() }
    let compositor = try launchCompositor(display: display.name)
    defer { compositor.terminate() }
    let snapshot = try temporaryDirectory().appendingPathComponent("twm.png")
    // Before, it spun in glfwShowWindow until someone placed it: the timeout would end it.
    let result = try confetti(
      ["overlay", "--preset", "tap-burst", "--snapshot", snapshot.path],
      environment: ["DISPLAY": display.name], timeout: 30)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stderr, "")
    XCTAssert(FileManager.default.fileExists(atPath: snapshot.path), "it drew the celebration")
    // The tap burst's light, as the compositor is given it (premultiplied): alpha as high as
    // its brightest channel, so that it shows over a white window too. Added with no alpha of
    // its own, it would vanish there.
    let frame = try PNG.read(snapshot)
    var (lit, uncovered) = (0, 0)
    for y in 0..<frame.height {
      for x in 0..<frame.width {
        let p = frame[x, y]
        let brightest = max(p.red, p.green, p.blue)
        if brightest > 0 { lit += 1 }
        if Int(p.alpha) < Int(brightest) - 1 { uncovered += 1 }
      }
    }
    XCTAssertGreaterThan(lit, 200, "the burst is drawn")
    XCTAssertEqual(uncovered, 0, "every lit pixel covers what is behind it as much as it shines")
  }

  /// A window manager that exited leaves its check window named on the root: GLFW 3.3.8 would
  /// abort (exit 134, silently); the window and the overlay say what is wrong in one line.
  func testAStaleWindowManagerCheckGivesOneLineAndExitOne() throws {
    try requireTools(["/usr/bin/openbox", "/usr/bin/xprop"], for: "the stale check window")
    let display = try startXvfb(size: "800x600x24")
    defer { stopXvfb(display.server) }
    let environment = ["DISPLAY": display.name]
    // A client that stays, so that the server does not reset when the manager is gone.
    let stays = try launch("/usr/bin/xev", ["-geometry", "10x10+0+0"], display: display.name)
    defer { stays.terminate() }
    let manager = try launch("/usr/bin/openbox", [], display: display.name)
    try waitForWindowManager(on: display.name)
    let named = try runProgram(
      URL(fileURLWithPath: "/usr/bin/xprop"), ["-root", "_NET_SUPPORTING_WM_CHECK"],
      environment: environment)
    let check = String(named.stdout.split(whereSeparator: \.isWhitespace).last ?? "")
    XCTAssert(check.hasPrefix("0x"), "the manager's check window: \(named.stdout)")
    kill(manager.processIdentifier, SIGKILL)
    manager.waitUntilExit()
    // Once the server has let the manager go: its check window gone, still named on the root.
    let gone = try waitFor {
      try runProgram(
        URL(fileURLWithPath: "/usr/bin/xwininfo"), ["-id", check], environment: environment
      ).status != 0
    }
    XCTAssert(gone, "the window manager's check window \(check) outlived it")
    for command in [["window"], ["overlay"], ["window", "--overlay"]] {
      let refused = try confetti(command + ["--exit-after", "1"], environment: environment)
      XCTAssertEqual(refused.status, 1, "\(command): \(refused.stderr)")
      XCTAssert(
        refused.stderr.contains("xprop -root -remove _NET_SUPPORTING_WM_CHECK"), refused.stderr)
      XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
    }
    // Cleared as the message says, the window opens.
    _ = try runProgram(
      URL(fileURLWithPath: "/usr/bin/xprop"), ["-root", "-remove", "_NET_SUPPORTING_WM_CHECK"],
      environment: environment)
    let opened = try confetti(["window", "--exit-after", "0.5"], environment: environment)
    XCTAssertEqual(opened.status, 0, opened.stderr)
  }

  /// SIGTERM and SIGINT end the overlay within a second whenever they come: as GLFW starts, as
  /// the window and its context are made, and while it draws.
  func testASignalEndsTheOverlayWithinASecondInEveryPhase() throws {
    let display = try compositedDisplay()
    for (delay, signal) in [
      (0.0, SIGTERM), (0.03, SIGINT), (0.08, SIGTERM), (0.15, SIGTERM), (0.3, SIGINT),
      (0.6, SIGTERM), (1.5, SIGTERM),
    ] {
      let overlay = try launch(
        confettiBinary.path, ["overlay", "--preset", "snow", "--loop"], display: display.name)
      defer { if overlay.isRunning { overlay.terminate() } }
      // The moment is what is tested, not a stand-in: whatever phase it is in, it ends.
      usleep(useconds_t(delay * 1_000_000))
      assertEndsWithinASecond(overlay, after: signal, " at \(delay) s")
    }
  }

  /// The desktop's settings files are read as files that may not be what they seem: a FIFO in
  /// the place of one is not waited on (it held the window and the overlay for ever), a device
  /// or a file past a megabyte is not read; a small file beside them still counts.
  func testSettingsFilesThatAreNotSmallFilesAreNotRead() throws {
    let config = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: config) }
    for folder in ["gtk-3.0", "gtk-4.0"] {
      try FileManager.default.createDirectory(
        at: config.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    XCTAssertEqual(mkfifo(config.appendingPathComponent("gtk-3.0/settings.ini").path, 0o600), 0)
    try FileManager.default.createSymbolicLink(
      atPath: config.appendingPathComponent("gtk-4.0/settings.ini").path,
      withDestinationPath: "/dev/zero")
    let kde = config.appendingPathComponent("kdeglobals")
    let setting = "[KDE]\nAnimationDurationFactor=0\n"
    try (setting + String(repeating: "# a comment\n", count: 100_000)).write(
      to: kde, atomically: true, encoding: .utf8)
    let environment = ["XDG_CONFIG_HOME": config.path, "PATH": "/nonexistent"]
    /// What the settings say, read on a thread of its own: a read that hangs fails the test.
    func reduced() throws -> Bool {
      final class Answer: @unchecked Sendable { var reduced = false }
      let answer = Answer()
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        answer.reduced = DesktopMotion.isReduced(in: environment)
        done.signal()
      }
      guard done.wait(timeout: .now() + 20) == .success else {
        throw TestFailure("reading the desktop's settings hung")
      }
      return answer.reduced
    }
    XCTAssertFalse(try reduced(), "a settings file past a megabyte is not read")
    try setting.write(to: kde, atomically: true, encoding: .utf8)
    XCTAssertTrue(try reduced(), "the small one beside the FIFO and the device counts")
  }

  /// The desktop's own setting for fewer animations (GTK's, GNOME's, KDE's) gives the window
  /// and the overlay reduced motion, as --reduce-motion does; CONFETTI_REDUCE_MOTION=0 says no.
  func testTheDesktopsReducedMotionSettingIsHonoured() throws {
    try requireTools(["/usr/bin/xdotool"], for: "the window's title")
    let display = try startXvfb(size: "800x600x24")
    defer { stopXvfb(display.server) }
    let home = try temporaryDirectory()
    let settings: [(file: String, text: String)] = [
      ("gtk-3.0/settings.ini", "[Settings]\ngtk-enable-animations=false\n"),
      ("gtk-4.0/settings.ini", "[Settings]\ngtk-enable-animations=0\n"),
      ("kdeglobals", "[KDE]\nAnimationDurationFactor=0\n"),
      // GNOME's, in the file of GSettings' keyfile backend (GSETTINGS_BACKEND=keyfile below).
      ("glib-2.0/settings/keyfile", "[org/gnome/desktop/interface]\nenable-animations=false\n"),
      ("nothing.ini", ""),
    ]
    for (index, setting) in settings.enumerated() {
      let config = home.appendingPathComponent("\(index)")
      let file = config.appendingPathComponent(setting.file)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try setting.text.write(to: file, atomically: true, encoding: .utf8)
      for overridden in [false, true] {
        let title = try windowTitle(
          on: display.name,
          with: [
            "XDG_CONFIG_HOME": config.path, "GSETTINGS_BACKEND": "keyfile",
            "CONFETTI_REDUCE_MOTION": overridden ? "0" : nil,
          ])
        let reduced = title.contains("(reduced motion)")
        let asked = !setting.text.isEmpty && !overridden
        XCTAssertEqual(
          reduced, asked, "\(setting.file), CONFETTI_REDUCE_MOTION=0 \(overridden): \(title)")
      }
    }
    // Reading the desktop's settings wrote nothing: the folders hold what the test put there.
    var written = Set<String>()
    for (index, setting) in settings.enumerated() {
      var path = "\(index)"
      written.insert(path)
      for part in setting.file.split(separator: "/") {
        path += "/\(part)"
        written.insert(path)
      }
    }
    let found = Set(
      FileManager.default.enumerator(atPath: home.path)?.allObjects as? [String] ?? [])
    XCTAssertEqual(found.subtracting(written), [], "what reading the desktop's settings wrote")
  }

  /// GNOME's setting, where its database is, is asked of `gsettings`: its "false" reduces the
  /// motion; one that does not answer within two seconds is left behind, and the window opens
  /// with full motion.
  func testGNOMEsSettingIsAskedOfGsettingsWhichCannotHoldTheWindow() throws {
    try requireTools(["/usr/bin/xdotool"], for: "the window's title")
    let schema = "/usr/share/glib-2.0/schemas/org.gnome.desktop.interface.gschema.xml"
    guard FileManager.default.fileExists(atPath: schema) else {
      throw unavailable("needs GNOME's settings schema (apt-get install gsettings-desktop-schemas)")
    }
    let display = try startXvfb(size: "800x600x24")
    defer { stopXvfb(display.server) }
    for (answer, reduced) in [("echo false", true), ("echo true", false), ("exec sleep 30", false)]
    {
      let folder = try temporaryDirectory()
      let gsettings = folder.appendingPathComponent("gsettings")
      try "#!/bin/sh\n\(answer)\n".write(to: gsettings, atomically: true, encoding: .utf8)
      XCTAssertEqual(chmod(gsettings.path, 0o755), 0)
      // GNOME's settings database is there to be asked (it is asked only where it is).
      let database = folder.appendingPathComponent("dconf/user")
      try FileManager.default.createDirectory(
        at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
      XCTAssert(FileManager.default.createFile(atPath: database.path, contents: Data()))
      let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
      let title = try windowTitle(
        on: display.name,
        with: [
          "XDG_CONFIG_HOME": folder.path, "GSETTINGS_BACKEND": nil, "CONFETTI_REDUCE_MOTION": nil,
          "PATH": folder.path + ":" + path,
        ])
      XCTAssertEqual(title.contains("(reduced motion)"), reduced, "gsettings: \(answer): \(title)")
    }
  }

  /// The title `confetti window` gives itself on `display` with `changes` to this process's
  /// environment (nil removes), once it shows the count; the window is then ended.
  private func windowTitle(on display: String, with changes: [String: String?]) throws -> String {
    let window = Process()
    window.executableURL = confettiBinary
    // Ended by the test once the title is read, however slowly the machine starts it.
    window.arguments = ["window", "--exit-after", "60"]
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = display
    for (name, value) in changes { environment[name] = value }
    window.environment = environment
    window.standardOutput = FileHandle.nullDevice
    window.standardError = FileHandle.nullDevice
    try window.run()
    defer {
      if window.isRunning { window.terminate() }
      window.waitUntilExit()
    }
    // GLFW names the window "Confetti" as it makes it; the program's own title, which says
    // whether motion is reduced, follows with the effect's name and the count.
    return try waitForTitle(of: try confettiWindow(on: display), on: display, "the program's title")
    {
      $0.contains(" particles")
    }
  }

  /// When the compositing manager stops, the overlay's transparent pixels would turn the whole
  /// desktop black: it ends with one line instead.
  func testTheOverlayEndsWhenTheCompositorStops() throws {
    let display = try compositedDisplay()
    let errors = try temporaryDirectory().appendingPathComponent("stderr.txt")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    let overlay = Process()
    overlay.executableURL = confettiBinary
    overlay.arguments = ["overlay", "--preset", "snow", "--loop"]
    overlay.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": display.name]) {
      $1
    }
    overlay.standardError = try FileHandle(forWritingTo: errors)
    try overlay.run()
    defer { if overlay.isRunning { overlay.terminate() } }
    // The compositor stops once the overlay draws (its title counts its pieces).
    let window = try confettiWindow(on: display.name)
    try waitForTitle(of: window, on: display.name, "pieces drawn") {
      $0.contains(" particles") && !$0.contains(" 0 particles")
    }
    display.compositor.terminate()
    display.compositor.waitUntilExit()
    let ended = waitFor(timeout: 3, poll: 0.02) { !overlay.isRunning }
    XCTAssert(ended, "the overlay went on without its compositor")
    XCTAssertEqual(overlay.terminationStatus, 1)
    let said = try String(contentsOf: errors, encoding: .utf8)
    XCTAssert(said.contains("the compositing manager stopped"), said)
    XCTAssertEqual(said.split(separator: "\n").count, 1, said)
  }
}

extension XCTestCase {
  /// When a preset's last piece is gone, as the library predicts it: its emitters fired by
  /// `trigger` at 0 on `screen` with seed 1, and run until they emit no more (a cannon's stream
  /// takes a moment).
  func predictedEnd(
    of preset: String, on screen: Size, firing trigger: EmitterTrigger = .start
  ) throws -> Double {
    var scene = try EffectScene(config: try Presets.named(preset), capacity: 8192, seed: 1)
    scene.trigger(trigger, window: screen, time: 0)
    var time = 0.0
    scene.advance(to: time, window: screen)
    while scene.isEmitting, time < 60 {
      time += 1.0 / 60
      scene.advance(to: time, window: screen)
    }
    return scene.ring.lastDeath
  }
}
