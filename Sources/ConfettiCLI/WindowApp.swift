import CGLFW
import Confetti
import Foundation

/// The interactive window: set up, loop (events, update, draw), tear down. The effect is a
/// ``ConfettiSystem`` on the window's context, as any host program would use it.
final class WindowApp {
  private let window: OpaquePointer
  /// Released before the window: its GL objects are deleted on the window's context.
  private var system: ConfettiSystem!
  /// The effect given on the command line, then the presets the p key cycles through.
  private var effects: [Effect]
  private var effectIndex = 0
  private let capacity: Int
  private let seed: UInt64
  private let reduceMotion: Bool
  private let primitive: SpritePrimitive
  private let start = ContinuousClock.now
  private let exitAfter: Seconds?
  /// Whether the last frame drawn had no particles, so the screen already shows the backdrop.
  private var screenIsEmpty = false
  private var frameCounter = FrameCounter()
  /// The title last set: setting a title sends the window an event, which would wake an idle
  /// loop again and again, so an unchanged title is not set.
  private var title = ""

  init(
    size: PixelSize, capacity: Int, seed: UInt64, effect: Effect, reduceMotion: Bool,
    primitive: SpritePrimitive,
    vsync: Bool, exitAfter: Seconds?
  ) throws {
    // The effect (its shapes and images) is checked before any window opens: nothing starts
    // half-configured.
    _ = try effect.images(for: EffectScene(config: effect.config, capacity: 1, seed: seed).shapes)
    effects = try Presets.names.map { try Effect.preset($0) }
    if effect.imageFolder != nil {
      effects.insert(effect, at: 0)
    } else {
      effectIndex = effects.firstIndex { $0.config.name == effect.config.name } ?? 0
    }
    self.capacity = capacity
    self.seed = seed
    self.reduceMotion = reduceMotion
    self.primitive = primitive
    self.exitAfter = exitAfter
    guard glfwInit() == GLFW_TRUE else {
      throw WindowError(
        "cannot open a window: \(Self.glfwError()) — run it in a desktop session "
          + "or under Xvfb (xvfb-run confetti), or use `confetti render`, which needs no display")
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3)
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3)
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE)
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE)
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE)
    let created = DriverMessages.silenced {
      glfwCreateWindow(Int32(size.width), Int32(size.height), "Confetti", nil, nil)
    }
    guard let window = created
    else {
      let why = Self.glfwError()
      glfwTerminate()
      throw WindowError(
        "cannot make an OpenGL 3.3 core window: \(why) — update the graphics "
          + "driver, or use Mesa's llvmpipe (LIBGL_ALWAYS_SOFTWARE=1)")
    }
    self.window = window
    glfwMakeContextCurrent(window)
    glfwSwapInterval(vsync ? 1 : 0)
    do {
      system = try makeSystem(effect, seed: seed)
    } catch {
      glfwDestroyWindow(window)
      glfwTerminate()
      throw error
    }
    installCallbacks()
  }

  deinit {
    system?.release()
    system = nil
    glfwSetWindowUserPointer(window, nil)
    glfwDestroyWindow(window)
    glfwTerminate()
  }

  /// `effect` on the window's context, its start emitters started now.
  private func makeSystem(_ effect: Effect, seed: UInt64) throws -> ConfettiSystem {
    let system = try ConfettiSystem(
      effect: effect, size: windowSize, capacity: capacity, seed: seed,
      reduceMotion: reduceMotion, primitive: primitive)
    system.trigger(.start, time: now)
    return system
  }

  /// Seconds since the window opened: the one clock reading of the whole program.
  private var now: Seconds {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  }

  /// The window's size in points (GLFW screen coordinates): the physics' frame of reference.
  private var windowSize: Size {
    var width: Int32 = 0
    var height: Int32 = 0
    glfwGetWindowSize(window, &width, &height)
    return Size(width: Double(width), height: Double(height))
  }

  func run() {
    while glfwWindowShouldClose(window) == GLFW_FALSE {
      let time = now
      if let exitAfter, time >= exitAfter { break }
      if windowSize.width > 0, windowSize.height > 0 { system.size = windowSize }
      system.advance(to: time)
      var width: Int32 = 0
      var height: Int32 = 0
      glfwGetFramebufferSize(window, &width, &height)
      if !system.isAlive(at: time) && screenIsEmpty {
        // Nothing moves and the screen shows it: sleep until an event. Zero cost when idle.
        updateTitle(force: true)
        if exitAfter == nil { glfwWaitEvents() } else { glfwWaitEventsTimeout(0.05) }
      } else if width == 0 || height == 0 || glfwGetWindowAttrib(window, GLFW_ICONIFIED) != 0 {
        // Minimised (X11 keeps an iconified window's framebuffer size, hence the attribute):
        // draw nothing, but keep handling events, and the clock keeps running.
        glfwWaitEventsTimeout(0.25)
      } else {
        drawFrame(width: Int(width), height: Int(height))
        glfwSwapBuffers(window)
        glfwPollEvents()
      }
    }
  }

  private func drawFrame(width: Int, height: Int) {
    let time = now
    do {
      GLFrame.clear(to: GLFrame.background)
      try system.draw(in: PixelRect(width: width, height: height), at: time)
    } catch {
      say("\(error)")
      glfwSetWindowShouldClose(window, GLFW_TRUE)
    }
    screenIsEmpty = !system.isAlive(at: time)
    frameCounter.count(at: time)
    updateTitle(force: false)
  }

  private func updateTitle(force: Bool) {
    let time = now
    guard force || frameCounter.titleIsStale(at: time) else { return }
    let alive = system.aliveCount(at: time)
    let idle = !system.isAlive(at: time)
    let rate = idle ? "idle" : String(format: "%.0f fps", frameCounter.rate)
    let calm = reduceMotion ? " (reduced motion)" : ""
    let title = "Confetti — \(system.effect.config.name)\(calm) — \(alive) particles — \(rate)"
    if title != self.title {
      glfwSetWindowTitle(window, title)
      self.title = title
    }
    frameCounter.titleShown(at: time)
  }

  // MARK: Input

  private func installCallbacks() {
    glfwSetWindowUserPointer(window, Unmanaged.passUnretained(self).toOpaque())
    glfwSetMouseButtonCallback(window) { window, button, action, _ in
      guard button == GLFW_MOUSE_BUTTON_LEFT, action == GLFW_PRESS else { return }
      WindowApp.of(window)?.pointerPressed()
    }
    glfwSetKeyCallback(window) { window, key, _, action, _ in
      guard action == GLFW_PRESS else { return }
      WindowApp.of(window)?.keyPressed(key)
    }
    glfwSetWindowRefreshCallback(window) { window in
      // Exposed or resized while idle: the backdrop must be redrawn.
      WindowApp.of(window)?.screenIsEmpty = false
    }
  }

  private static func of(_ window: OpaquePointer?) -> WindowApp? {
    guard let pointer = glfwGetWindowUserPointer(window) else { return nil }
    return Unmanaged<WindowApp>.fromOpaque(pointer).takeUnretainedValue()
  }

  private func pointerPressed() {
    // Cursor positions are in screen coordinates, i.e. window points, as the physics is: the
    // projection alone scales points to framebuffer pixels on a HiDPI display.
    var x = 0.0
    var y = 0.0
    glfwGetCursorPos(window, &x, &y)
    let trigger = [.click, .key, .start].first(where: system.has) ?? .click
    system.trigger(trigger, at: Point(x: x, y: y), time: now)
    screenIsEmpty = false
  }

  private func keyPressed(_ key: Int32) {
    switch key {
    case GLFW_KEY_SPACE:
      let trigger = [.key, .click, .start].first(where: system.has) ?? .key
      system.trigger(trigger, time: now)
    case GLFW_KEY_P: switchEffect(by: 1)
    case GLFW_KEY_O: switchEffect(by: -1)
    case GLFW_KEY_C: system.removeAll(keepingStartEmitters: true)
    case GLFW_KEY_ESCAPE, GLFW_KEY_Q: glfwSetWindowShouldClose(window, GLFW_TRUE)
    default: return
    }
    screenIsEmpty = false
  }

  /// Moves to the next (or previous) effect: the particles of the last one are cleared.
  private func switchEffect(by step: Int) {
    let next = (effectIndex + step + effects.count) % effects.count
    do {
      let replacement = try makeSystem(effects[next], seed: seed &+ UInt64(next))
      system.release()
      system = replacement
      effectIndex = next
    } catch {
      say("\(error)")
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

/// A failure to open or run the window, said in one line.
struct WindowError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Frames per second over the last half second, for the title.
struct FrameCounter {
  private var frames = 0
  private var since: Seconds = 0
  private var lastTitle: Seconds = -1
  private(set) var rate = 0.0

  mutating func count(at time: Seconds) {
    frames += 1
    if time - since >= 0.5 {
      rate = Double(frames) / (time - since)
      frames = 0
      since = time
    }
  }

  func titleIsStale(at time: Seconds) -> Bool { time - lastTitle >= 0.5 }

  mutating func titleShown(at time: Seconds) { lastTitle = time }
}
