import CGLFW
import CX11
import Confetti
import ConfettiCore
import ConfettiGL
import ConfettiPlatform
import FoundationEssentials
import Glibc

/// What the window (or the overlay) runs, and how.
package struct WindowSettings {
  package var size: PixelSize
  package var capacity: Int
  package var seed: UInt64
  package var effect: Effect
  /// The configuration file the effect came from: `r` and `--watch` read it again.
  package var configPath: String?
  package var watch = false
  package var reduceMotion: Bool
  package var primitive: SpritePrimitive
  package var vsync: Bool
  package var exitAfter: Seconds?
  /// Set: a transparent, click-through window over a whole monitor (see ``Overlay``).
  package var overlay: Overlay.Settings?
  /// Asked once a frame: true ends the window or overlay as if it were closed (the program
  /// answers true once a signal has asked it to stop).
  package var shouldStop: () -> Bool = { false }
  /// Told, in one line, what the window has to say that is not a failure: a reload, a bad
  /// edit of the watched file. The library itself never prints.
  package var report: (String) -> Void = { _ in }

  package init(
    size: PixelSize, capacity: Int, seed: UInt64, effect: Effect, configPath: String? = nil,
    watch: Bool = false, reduceMotion: Bool, primitive: SpritePrimitive, vsync: Bool,
    exitAfter: Seconds? = nil, overlay: Overlay.Settings? = nil
  ) {
    (self.size, self.capacity, self.seed, self.effect) = (size, capacity, seed, effect)
    (self.configPath, self.watch, self.reduceMotion) = (configPath, watch, reduceMotion)
    (self.primitive, self.vsync, self.exitAfter, self.overlay) = (
      primitive, vsync, exitAfter, overlay
    )
  }
}

/// The interactive window: set up, loop (events, update, draw), tear down. The effect is a
/// ``ConfettiSystem`` on the window's context, as any host program would use it, driven by a
/// ``PlaybackClock`` that the keys pause, slow, speed up and run backwards.
package final class WindowApp {
  /// The keys, as `confetti --help` and `confetti window --help` list them.
  package static let controls = """
    In the window:
      left click   the effect's click emitters at the pointer (confetti: a burst)
      space        the effect's key emitters (confetti: two corner cannons); an
                   effect with neither starts again
      p, o         the next, the previous preset
      k, pause     pause and play
      [, ]         half and double speed (1/8 to 8 times)
      left, right  paused: step a frame; held: run time backwards (or on)
      r            read the --config file again
      c            clear every particle
      esc, q       quit
    """

  /// How often the overlay checks that its compositor still runs, in seconds.
  static let compositorCheck: Seconds = 0.5

  /// How long the window keeps particles that have ended, so that time can run back over them.
  static let history: Seconds = 120

  private let window: OpaquePointer
  private let settings: WindowSettings
  /// Released before the window: its GL objects are deleted on the window's context.
  private var system: ConfettiSystem!
  /// The effect given on the command line, then the presets the p key cycles through, each
  /// decoded when it is first shown (all of them at the start took 30 ms before an overlay's
  /// first frame).
  private var effects: [Effect?]
  /// Where the presets start in ``effects``: 1 when a file's effect comes first.
  private var firstPreset = 0
  private var effectIndex = 0
  /// The clock reading at which the current effect started.
  private var effectStart: Seconds = 0
  /// When the window opened (a standby's: when it was told what to show): wall time's zero.
  private var opened = ContinuousClock.now
  private var clock: PlaybackClock
  /// The overlay's X11 side, when the window is one.
  private var overlay: Overlay?
  /// The reading and framebuffer size of the frame on screen: while they stay, nothing is drawn.
  private var shown: (reading: Seconds, width: Int32, height: Int32)?
  /// The framebuffer size the system's GL state was last set for (its scissor box): a frame of
  /// another size is cleared whole and sets it anew. A frame drawn again for a key or a click
  /// keeps it.
  private var drawnSize: (width: Int32, height: Int32)?
  private var frameCounter = FrameCounter()
  /// One frame a refresh at most, with vsync asked for: nil without (`--no-vsync`).
  private var pacer: FramePacer?
  /// The title last set: setting a title sends the window an event, which would wake an idle
  /// loop again and again, so an unchanged title is not set.
  private var title = ""
  /// The last reload's error, shown in the title until a reload succeeds.
  private var reloadError: String?
  private var watched: FileWatch?

  package init(_ given: WindowSettings) throws {
    var settings = given
    // A standby overlay is told its effect once its window and context are made.
    let standby = settings.overlay?.standby == true
    // The effect (its shapes and images) is checked before any window opens: nothing starts
    // half-configured.
    if !standby { try Self.check(settings) }
    // The first effect opens at the reading `confetti render` opens it at: the same moment of
    // the same effect is then the same picture, gusts of wind (a function of the clock) and all.
    clock = PlaybackClock(reading: ConfettiSystem.openingReading, wall: 0)
    StartTimings.mark("effects read")
    var staleWindow: UInt = 0
    var checking: UnsafeMutableRawPointer?
    // Kept open until GLFW has connected: on a server with no other client, the check's leaving
    // would reset it just as GLFW connects ("Failed to open display", under xvfb-run).
    defer { confetti_x11_close(checking) }
    if confetti_x11_stale_wm_check(&staleWindow, &checking) != 0 {
      throw WindowError(
        "the X display's root window still names a window manager that is no longer running "
          + "(_NET_SUPPORTING_WM_CHECK, window 0x\(String(staleWindow, radix: 16))), and "
          + "GLFW 3.3 aborts on it; start a window manager, or clear it: "
          + "xprop -root -remove _NET_SUPPORTING_WM_CHECK")
    }
    confetti_x11_say_when_the_display_is_lost()
    guard Self.initializeGLFW() else {
      throw WindowError(
        "cannot open a window: \(Self.glfwError()) — run it in a desktop session "
          + "or under Xvfb (xvfb-run confetti), or use `confetti render`, which needs no display")
    }
    StartTimings.mark("display")
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3)
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3)
    // The window is sized for the monitor's scale, which X11 takes from Xft.dpi: one that is
    // not a number of dots per inch (0, -96, abc) gives a scale of 0 or less, GLFW asks for a
    // window no X server makes, and the X error ends the program without a word. Such a
    // window opens unscaled instead.
    let scale = Self.primaryMonitorScale()
    let scales = scale.isFinite && scale > 0 && scale <= Self.largestScale
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, scales ? GLFW_TRUE : GLFW_FALSE)
    if !scales {
      let shown = String(formatting: "%g", Double(scale))
      settings.report(
        "the display's scale is \(shown) (on X11 it is Xft.dpi ÷ 96): the window opens "
          + "unscaled; give Xft.dpi a number of dots per inch, such as 96, with xrdb")
    }
    var frame = (
      x: Int32(0), y: Int32(0), width: Int32(settings.size.width),
      height: Int32(settings.size.height)
    )
    if let overlaySettings = settings.overlay {
      do {
        frame = try Overlay.prepare(overlaySettings)
      } catch {
        glfwTerminate()
        throw error
      }
    }
    // A compatibility profile where the driver has one: its points are whole-pixel squares,
    // which Mesa's llvmpipe draws faster (GLInfo.drawsWholePixelPoints). Else a core profile.
    let created = DriverMessages.silenced { () -> OpaquePointer? in
      for (profile, forwardCompatible) in [
        (GLFW_OPENGL_COMPAT_PROFILE, GLFW_FALSE), (GLFW_OPENGL_CORE_PROFILE, GLFW_TRUE),
      ] {
        glfwWindowHint(GLFW_OPENGL_PROFILE, profile)
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, forwardCompatible)
        if let window = glfwCreateWindow(frame.width, frame.height, "Confetti", nil, nil) {
          return window
        }
      }
      return nil
    }
    guard let window = created
    else {
      let why = Self.glfwError()
      glfwTerminate()
      throw WindowError(
        "cannot make an OpenGL 3.3 window: \(why) — update the graphics "
          + "driver, or use Mesa's llvmpipe (LIBGL_ALWAYS_SOFTWARE=1)")
    }
    self.window = window
    do {
      if standby {
        glfwMakeContextCurrent(window)
        settings = try settings.told()
        opened = .now
        try Self.check(settings)
      }
      (effects, firstPreset, effectIndex) = Self.effects(settings)
      self.settings = settings
      if settings.watch, let path = settings.configPath { watched = FileWatch(path: path) }
      if let overlaySettings = settings.overlay {
        overlay = try Overlay(window: window, at: frame, settings: overlaySettings)
      }
      glfwMakeContextCurrent(window)
      StartTimings.mark("window and context")
      glfwSwapInterval(settings.vsync ? 1 : 0)
      if settings.vsync {
        pacer = FramePacer(refreshRate: Self.refreshRate(of: settings.overlay?.monitor))
      }
      system = try makeSystem(settings.effect, seed: settings.seed)
      StartTimings.mark("effect")
    } catch {
      glfwDestroyWindow(window)
      glfwTerminate()
      throw error
    }
    installCallbacks()
  }

  /// Checks the effect's shapes and images.
  private static func check(_ settings: WindowSettings) throws {
    let effect = settings.effect
    _ = try effect.images(
      for: EffectScene(config: effect.config, capacity: 1, seed: settings.seed).shapes)
  }

  /// The effects the p key cycles through, the given one in its place or first; where the
  /// presets start; the given one's index.
  private static func effects(_ settings: WindowSettings) -> (
    [Effect?], firstPreset: Int, index: Int
  ) {
    let effect = settings.effect
    var effects: [Effect?] = Presets.names.map { _ in nil }
    if settings.configPath == nil, effect.imageFolder == nil,
      let index = Presets.names.firstIndex(of: effect.config.name)
    {
      effects[index] = effect
      return (effects, 0, index)
    }
    effects.insert(effect, at: 0)
    return (effects, 1, 0)
  }

  /// `glfwInit()`, without the X input method's table of compose sequences. GLFW 3.3 opens an
  /// input method for typed text, which parses the locale's Compose file (512 KB for
  /// en_US.UTF-8, about 9 ms here) before any window; neither the window nor the overlay reads
  /// typed text (keys arrive as keys), so libX11 is pointed at an empty table while GLFW starts
  /// (`XCOMPOSEFILE`, libX11's own setting), and the environment is put back as it was for
  /// whatever this process starts later.
  private static func initializeGLFW() -> Bool {
    let name = "XCOMPOSEFILE"
    let was = getenv(name).map { String(cString: $0) }
    setenv(name, "/dev/null", 1)
    defer {
      if let was { setenv(name, was, 1) } else { unsetenv(name) }
    }
    return glfwInit() == GLFW_TRUE
  }

  /// The primary monitor's content scale (the smaller of its two), or 1 with no monitor.
  private static func primaryMonitorScale() -> Float {
    guard let monitor = glfwGetPrimaryMonitor() else { return 1 }
    var (x, y): (Float, Float) = (1, 1)
    glfwGetMonitorContentScale(monitor, &x, &y)
    return x.isNaN || y.isNaN ? .nan : min(x, y)
  }

  /// The largest monitor scale the window is sized by (768 dots per inch on X11).
  static let largestScale: Float = 8

  deinit {
    system?.close()
    system = nil
    glfwSetWindowUserPointer(window, nil)
    glfwDestroyWindow(window)
    glfwTerminate()
  }

  /// `effect` on the window's context, started now: its start emitters, or, with none, its key
  /// (or click) emitters, so that the window opens with something happening.
  private func makeSystem(_ effect: Effect, seed: UInt64) throws -> ConfettiSystem {
    let system = try ConfettiSystem(
      effect: effect, size: windowSize, capacity: settings.capacity, seed: seed,
      reduceMotion: settings.reduceMotion, primitive: settings.primitive)
    system.history = Self.history
    // The window's context is the system's own: a steady frame asks the GL nothing (one
    // query a frame for an effect with light, whose layer is laid over the backdrop).
    system.glStatePolicy = .cache
    // The window's backdrop is its own dark one; an overlay's is the desktop, unseen.
    if settings.overlay != nil { system.backdropLightness = Overlay.assumedBackdropLightness }
    effectStart = now
    system.fireOpening(time: now)
    (shown, drawnSize) = (nil, nil)
    return system
  }

  /// Wall seconds since the window opened.
  private var wall: Seconds {
    (ContinuousClock.now - opened).seconds
  }

  /// The clock reading of this moment: the one clock of the whole program, which the keys
  /// pause, slow and run backwards.
  private var now: Seconds { clock.reading }

  /// The window's size in points (GLFW screen coordinates): the physics' frame of reference.
  private var windowSize: Size {
    var width: Int32 = 0
    var height: Int32 = 0
    glfwGetWindowSize(window, &width, &height)
    return Size(width: Double(width), height: Double(height))
  }

  package func run() throws {
    var compositorSeen = wall
    while glfwWindowShouldClose(window) == GLFW_FALSE {
      if settings.shouldStop() { break }
      // Without its compositor the overlay's transparent pixels are black: the whole desktop
      // would be hidden.
      if overlay != nil, wall - compositorSeen >= Self.compositorCheck {
        guard confetti_x11_has_compositor() != 0 else {
          throw WindowError(
            "the compositing manager stopped, and without it the overlay would hide the "
              + "desktop: it has ended")
        }
        compositorSeen = wall
      }
      clock.earliest = system.earliestExactReading
      let time = clock.update(wall: wall)
      if let exitAfter = settings.exitAfter, wall >= exitAfter { break }
      if watched?.changed() == true { reload() }
      if windowSize.width > 0, windowSize.height > 0 { try system.resize(to: windowSize) }
      system.advance(to: time)
      if let overlaySettings = settings.overlay, overlay != nil,
        !Overlay.goesOn(system, at: time, elapsed: time - effectStart, settings: overlaySettings)
      {
        break
      }
      var width: Int32 = 0
      var height: Int32 = 0
      glfwGetFramebufferSize(window, &width, &height)
      if let shown, shown.width == width, shown.height == height,
        shown.reading == time || !system.isAlive(time: time) && !system.isAlive(time: shown.reading)
      {
        // What is on screen is this moment (paused, or nothing left): sleep until an event.
        // Zero cost when idle; a held arrow key or a watched file wakes it in a while, and
        // --exit-after at its moment.
        updateTitle(force: true)
        if watched != nil || clock.isHeld || overlay != nil {
          glfwWaitEventsTimeout(0.05)
        } else if let exitAfter = settings.exitAfter {
          glfwWaitEventsTimeout(max(0.001, exitAfter - wall))
        } else {
          glfwWaitEvents()
        }
      } else if width == 0 || height == 0 || glfwGetWindowAttrib(window, GLFW_ICONIFIED) != 0 {
        // Minimised (X11 keeps an iconified window's framebuffer size, hence the attribute):
        // draw nothing, but keep handling events, and the clock keeps running.
        glfwWaitEventsTimeout(0.25)
      } else {
        drawFrame(at: time, width: width, height: height)
        glfwSwapBuffers(window)
        overlay?.frameShown()
        glfwPollEvents()
        waitForTheNextRefresh()
      }
    }
  }

  /// Waits, handling events meanwhile, until the pacer lets the next frame be drawn.
  private func waitForTheNextRefresh() {
    guard var pacer else { return }
    let until = wall + pacer.wait(shownAt: wall)
    self.pacer = pacer
    // The clock is read once a turn: read twice, it could pass `until` between the test and
    // the wait, and GLFW aborts on a negative timeout.
    while !settings.shouldStop() {
      let left = until - wall
      guard left > 0 else { break }
      glfwWaitEventsTimeout(left)
    }
  }

  /// The refresh rate of monitor `number` (from 1; nil: the primary), 0 where it says none.
  private static func refreshRate(of number: Int?) -> Int {
    var count: Int32 = 0
    guard let monitors = glfwGetMonitors(&count), count > 0 else { return 0 }
    let index = min(max(0, (number ?? 1) - 1), Int(count) - 1)
    return Int(glfwGetVideoMode(monitors[index])?.pointee.refreshRate ?? 0)
  }

  private func drawFrame(at time: Seconds, width: Int32, height: Int32) {
    do {
      // The last draw's scissor box is kept: a new size is cleared whole, and set anew.
      let resized = drawnSize.map { $0.width != width || $0.height != height } ?? true
      if resized { system.resetGLStateCache() }
      GLFrame.clear(to: overlay == nil ? GLFrame.background : .transparent, whole: resized)
      try system.draw(in: PixelRect(width: Int(width), height: Int(height)), time: time)
      try overlay?.frameDrawn(at: time - effectStart, width: Int(width), height: Int(height))
    } catch {
      settings.report("\(error)")
      glfwSetWindowShouldClose(window, GLFW_TRUE)
    }
    shown = (time, width, height)
    drawnSize = (width, height)
    frameCounter.count(at: wall)
    updateTitle(force: false)
  }

  private func updateTitle(force: Bool) {
    guard force || frameCounter.titleIsStale(at: wall) else { return }
    let time = now
    // Nothing alive: no need to scan the particles kept for rewinding.
    let alive = system.isAlive(time: time) ? system.aliveCount(time: time) : 0
    let idle = !system.isAlive(time: time) && !clock.isPaused
    let calm = settings.reduceMotion ? " (reduced motion)" : ""
    var parts = ["Confetti", "\(system.effect.config.name)\(calm)", "\(alive) particles"]
    // A capacity too small for the effect is said, not hidden.
    if system.droppedCount > 0 {
      parts.append("\(system.droppedCount) dropped: raise --capacity")
    }
    // Paused, nothing is drawn: no frame rate to show.
    if !clock.isPaused {
      // A slow rate keeps a decimal: 9.6 fps is not 10.
      let rate = frameCounter.rate
      parts.append(idle ? "idle" : String(formatting: rate < 20 ? "%.1f fps" : "%.0f fps", rate))
    }
    let at = String(formatting: "%.3f s", time - effectStart)
    var playing: [String] = []
    if clock.isPaused { playing.append("paused at \(at)") }
    if clock.isRunningBackwards { playing.append("◀ back at \(at)") }
    if clock.speed != 1 { playing.append(speedLabel(clock.speed)) }
    if !playing.isEmpty { parts.append(playing.joined(separator: " ")) }
    if let reloadError { parts.append("error: \(reloadError)") }
    parts.append(
      "click · space · p next preset (\(effectIndex + 1)/\(effects.count)) · "
        + (clock.isPaused ? "k play · ← → step" : "k pause"))
    let title = parts.joined(separator: " — ")
    if title != self.title {
      glfwSetWindowTitle(window, title)
      self.title = title
    }
    frameCounter.titleShown(at: wall)
  }

  private func speedLabel(_ speed: Double) -> String {
    speed >= 1 ? "\(Int(speed))×" : "1/\(Int(1 / speed))×"
  }

  // MARK: Input

  private func installCallbacks() {
    glfwSetWindowUserPointer(window, Unmanaged.passUnretained(self).toOpaque())
    glfwSetMouseButtonCallback(window) { window, button, action, _ in
      guard button == GLFW_MOUSE_BUTTON_LEFT, action == GLFW_PRESS else { return }
      WindowApp.of(window)?.pointerPressed()
    }
    glfwSetKeyCallback(window) { window, key, _, action, _ in
      if action == GLFW_PRESS {
        WindowApp.of(window)?.keyPressed(key)
      } else if action == GLFW_RELEASE {
        WindowApp.of(window)?.keyReleased(key)
      }
    }
    glfwSetWindowRefreshCallback(window) { window in
      // Exposed or resized while idle: the frame must be drawn again.
      WindowApp.of(window)?.shown = nil
    }
  }

  private static func of(_ window: OpaquePointer?) -> WindowApp? {
    guard let pointer = glfwGetWindowUserPointer(window) else { return nil }
    return Unmanaged<WindowApp>.fromOpaque(pointer).takeUnretainedValue()
  }

  private func pointerPressed() {
    // Cursor positions are in screen coordinates, i.e. window points, as the physics is: the
    // projection alone scales points to framebuffer pixels on a HiDPI display. A click fires
    // click emitters, or the key emitters of an effect without any: never the effect's own
    // start emitters, which would run twice (a second rain) for good. The overlay's clicks are
    // the desktop's.
    guard overlay == nil else { return }
    var x = 0.0
    var y = 0.0
    glfwGetCursorPos(window, &x, &y)
    clock.update(wall: wall)
    if let trigger = [EmitterTrigger.click, .key].first(where: system.has) {
      system.trigger(trigger, at: Point(x: x, y: y), time: now)
    }
    shown = nil
  }

  private func keyPressed(_ key: Int32) {
    // The overlay's keys are the desktop's: none pauses, switches or ends it.
    guard overlay == nil else { return }
    clock.update(wall: wall)
    switch key {
    case GLFW_KEY_SPACE:
      if let trigger = [EmitterTrigger.key, .click].first(where: system.has) {
        system.trigger(trigger, time: now)
      } else {
        // Only start emitters (rain, a timed fall): start the effect again.
        system.clear()
        effectStart = now
        system.trigger(.start, time: now)
      }
    case GLFW_KEY_P: switchEffect(by: 1)
    case GLFW_KEY_O: switchEffect(by: -1)
    case GLFW_KEY_K, GLFW_KEY_PAUSE: clock.togglePause(wall: wall)
    case GLFW_KEY_LEFT_BRACKET: clock.changeSpeed(by: -1, wall: wall)
    case GLFW_KEY_RIGHT_BRACKET: clock.changeSpeed(by: 1, wall: wall)
    case GLFW_KEY_LEFT: clock.hold(.backward, wall: wall)
    case GLFW_KEY_RIGHT: clock.hold(.forward, wall: wall)
    case GLFW_KEY_R: reload()
    case GLFW_KEY_C: system.clear(keepingStartEmitters: true)
    case GLFW_KEY_ESCAPE, GLFW_KEY_Q: glfwSetWindowShouldClose(window, GLFW_TRUE)
    default: return
    }
    shown = nil
    updateTitle(force: true)
  }

  private func keyReleased(_ key: Int32) {
    switch key {
    case GLFW_KEY_LEFT: clock.release(.backward, wall: wall)
    case GLFW_KEY_RIGHT: clock.release(.forward, wall: wall)
    default: return
    }
    shown = nil
  }

  /// Moves to the next (or previous) effect: the particles of the last one are cleared, and so
  /// is the title's note of a bad configuration file (a later change to it is read again).
  private func switchEffect(by step: Int) {
    let next = (effectIndex + step + effects.count) % effects.count
    do {
      let effect = try effects[next] ?? Effect.preset(Presets.names[next - firstPreset])
      effects[next] = effect
      let replacement = try makeSystem(effect, seed: settings.seed &+ UInt64(next))
      system.close()
      system = replacement
      effectIndex = next
      reloadError = nil
    } catch {
      settings.report("\(error)")
    }
  }

  /// Reads the configuration file again and, if it is good, runs it from now; a bad one leaves
  /// the last good effect running and says what is wrong (on stderr and in the title).
  private func reload() {
    guard let path = settings.configPath else {
      reloadError = "r reloads a --config file; this effect is a preset"
      return
    }
    do {
      // The system checks the effect's shapes and images as it is made.
      let effect = try Effect(path: path)
      let replacement = try makeSystem(effect, seed: settings.seed)
      system.close()
      system = replacement
      effects[0] = effect
      effectIndex = 0
      reloadError = nil
      settings.report("reloaded \(path)")
    } catch {
      let message = "\(error)"
      if message != reloadError {
        settings.report("\(message) (still running the last good effect)")
      }
      reloadError = message
    }
    updateTitle(force: true)
  }

  private static func glfwError() -> String {
    var description: UnsafePointer<CChar>?
    let code = glfwGetError(&description)
    guard code != GLFW_NO_ERROR, let description else { return "unknown GLFW error" }
    let text = String(cString: description)
    if code == GLFW_PLATFORM_ERROR, text.contains("DISPLAY") || text.contains("display") {
      return "no display (\(text))"
    }
    return text
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Seconds {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}

/// A failure to open or run the window, the overlay or a celebration, said in one line.
public struct WindowError: Error, CustomStringConvertible {
  public var description: String
  /// A failure of the window's, saying why in one line.
  public init(_ description: String) { self.description = description }
}

/// Frames per second over the last half second of drawing, for the title. A pause in drawing
/// (an idle window, a paused clock) starts the count afresh, so the first frames after it are
/// not reported as 0 fps.
struct FrameCounter {
  private var frames = 0
  private var since: Seconds = 0
  private var last: Seconds = -.infinity
  private var lastTitle: Seconds = -1
  private(set) var rate = 0.0

  /// A gap between frames, in seconds, after which the count starts again.
  static let gap: Seconds = 0.25

  mutating func count(at time: Seconds) {
    if time - last > Self.gap {
      (frames, since) = (0, time)
    } else {
      frames += 1
    }
    last = time
    if time - since >= 0.5 {
      rate = Double(frames) / (time - since)
      frames = 0
      since = time
    }
  }

  func titleIsStale(at time: Seconds) -> Bool { time - lastTitle >= 0.5 }

  mutating func titleShown(at time: Seconds) { lastTitle = time }
}

/// A file's identity and modification time, polled: editors that save by renaming a new file
/// over the old one are seen too.
struct FileWatch {
  let path: String
  private var last: (Int, Int, Int)?

  init(path: String) {
    self.path = path
    last = Self.stamp(path)
  }

  /// Whether the file changed (or appeared, or went) since the last call.
  mutating func changed() -> Bool {
    let now = Self.stamp(path)
    defer { last = now }
    return now.map { n in last.map { $0 != n } ?? true } ?? (last != nil)
  }

  private static func stamp(_ path: String) -> (Int, Int, Int)? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return (
      Int(status.st_ino), Int(status.st_mtim.tv_sec) * 1_000_000_000 + status.st_mtim.tv_nsec,
      Int(status.st_size)
    )
  }
}
