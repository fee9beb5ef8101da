import CGLFW
import CX11
import Confetti
import ConfettiCelebration
import ConfettiCore
import ConfettiGL
import ConfettiImage
import ConfettiPlatform
import FoundationEssentials
import Glibc

/// The window as an overlay: transparent, undecorated, always on top, over a whole monitor, and
/// click-through (an empty X11 input shape), so that confetti falls over the desktop while
/// every click and key reaches the windows below. On a Wayland desktop whose compositor offers
/// the layer shell, ``LayerOverlay`` draws it natively instead; elsewhere it is this X11 window
/// (through XWayland on other Wayland desktops).
package struct Overlay {
  /// How light the overlay takes the desktop under it to be (``ConfettiSystem/backdrop``): it
  /// cannot see it, and a desktop may be a dark wallpaper or a white page, so halfway. Additive
  /// light is made half as vivid as over white (its light layer already covers the desktop as
  /// much as it shines), and shows over both.
  package static let assumedBackdropLightness = 0.5

  package struct Settings {
    /// The monitor to cover, from 1 (GLFW's order, the primary first); nil: the primary.
    package var monitor: Int?
    /// Keep running until stopped, instead of ending when the last particle is gone: a
    /// continuous effect emits on, a one-off effect is fired again each time it is over.
    package var loop: Bool
    /// Without ``loop``: how long a continuous effect is on the screen, in seconds
    /// (``Overlay/goesOn(_:at:elapsed:settings:)``).
    package var duration: Seconds = Celebration.defaultDuration
    /// A PNG to write the framebuffer to, as stored (premultiplied), once the effect has run
    /// ``OverlaySnapshot/time`` (`--snapshot`): what the compositor is given, for a bug report.
    package var snapshot: String?
    /// A descriptor to write one byte to, then close, once the first frame is on screen: how
    /// `confetti run` knows its celebration is showing, and leaves it to go on by itself.
    package var shownDescriptor: Int32?
    /// Made ahead of time: the window and context wait, unshown, for what to show on standard
    /// input (``OverlayHandoff/standby``, ``WindowSettings/told()``).
    package var standby = false

    package init(
      monitor: Int? = nil, loop: Bool = false, duration: Seconds = Celebration.defaultDuration,
      snapshot: String? = nil, shownDescriptor: Int32? = nil
    ) {
      (self.monitor, self.loop, self.duration, self.snapshot) = (monitor, loop, duration, snapshot)
      self.shownDescriptor = shownDescriptor
    }
  }

  private var snapshot: OverlaySnapshot
  private var shown: OverlayShown

  /// Runs the effect over the desktop until it is over: natively on a Wayland overlay layer
  /// where the compositor offers one, otherwise in an X11 window.
  /// A standby (``Settings/standby``) waits, its surface or window and GL context made, until
  /// it is told what to show, and ends quietly when it is told nothing.
  package static func run(_ settings: WindowSettings) throws {
    do {
      try show(settings)
    } catch is StandbyDismissed {}
  }

  private static func show(_ settings: WindowSettings) throws {
    let environment = ProcessInfo.processInfo.environment
    let x11 = !(environment["DISPLAY"] ?? "").isEmpty
    switch try LayerOverlay.open(settings) {
    case .opened(let layer):
      try layer.run()
    case .noLayerShell where !x11:
      throw WindowError(
        "this Wayland desktop offers no layer shell for an overlay (GNOME's does not) and no "
          + "X11 display (XWayland) is open to fall back on; use the window: confetti window")
    case .noCompositor where !x11:
      if let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty {
        throw WindowError(
          "cannot reach the Wayland compositor WAYLAND_DISPLAY names (\(wayland)), and no X11 "
            + "display is set to fall back on; run it from the desktop's own terminal")
      }
      throw WindowError(
        "no desktop to show the overlay on: neither WAYLAND_DISPLAY nor DISPLAY is set (a "
          + "remote shell?); run it from the desktop's own terminal")
    case .noCompositor, .noLayerShell:
      try WindowApp(settings).run()
    }
  }

  /// After the effect's system advanced to `time`, `elapsed` seconds after it started: whether
  /// the overlay goes on (``ConfettiSystem/goesOn(at:elapsed:duration:loop:)``).
  static func goesOn(
    _ system: ConfettiSystem, at time: Seconds, elapsed: Seconds, settings: Settings
  ) -> Bool {
    system.goesOn(at: time, elapsed: elapsed, duration: settings.duration, loop: settings.loop)
  }

  /// Checks the display, picks the monitor and sets the window hints; returns the monitor's
  /// area in screen coordinates. Call after glfwInit.
  static func prepare(_ settings: Settings) throws -> (
    x: Int32, y: Int32, width: Int32, height: Int32
  ) {
    guard confetti_x11_display_open() != 0 else {
      throw WindowError(
        "the overlay needs an X11 display (an X session, or XWayland under Wayland); "
          + "none is open here")
    }
    guard confetti_x11_has_compositor() != 0 else {
      throw WindowError(
        "the overlay needs a compositing window manager to show the desktop through it, and "
          + "none is running — start one (picom, xcompmgr, or a desktop's own), or use the "
          + "window: confetti window")
    }
    var count: Int32 = 0
    let monitors = glfwGetMonitors(&count)
    guard let monitors, count > 0 else {
      throw WindowError("the display reports no monitor to cover")
    }
    let index = (settings.monitor ?? 1) - 1
    guard (0..<Int(count)).contains(index) else {
      throw WindowError(
        "there is no monitor \(index + 1): this display has \(count) (--monitor 1 to \(count))")
    }
    var (x, y): (Int32, Int32) = (0, 0)
    glfwGetMonitorPos(monitors[index], &x, &y)
    guard let mode = glfwGetVideoMode(monitors[index]) else {
      throw WindowError("monitor \(index + 1) reports no video mode")
    }
    glfwWindowHint(GLFW_TRANSPARENT_FRAMEBUFFER, GLFW_TRUE)
    glfwWindowHint(GLFW_DECORATED, GLFW_FALSE)
    glfwWindowHint(GLFW_FLOATING, GLFW_TRUE)
    glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE)
    glfwWindowHint(GLFW_FOCUSED, GLFW_FALSE)
    glfwWindowHint(GLFW_FOCUS_ON_SHOW, GLFW_FALSE)
    // Shown once its X11 hints say it takes no focus (window managers read them at mapping).
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE)
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_FALSE)
    return (x, y, mode.pointee.width, mode.pointee.height)
  }

  /// Makes the just-created `window` an overlay at `frame`: checks that it got a visual with
  /// alpha and lets input through.
  init(
    window: OpaquePointer, at frame: (x: Int32, y: Int32, width: Int32, height: Int32),
    settings: Settings
  ) throws {
    guard glfwGetWindowAttrib(window, GLFW_TRANSPARENT_FRAMEBUFFER) == GLFW_TRUE else {
      throw WindowError(
        "the display offers no visual with alpha (ARGB) for a transparent window; "
          + "the overlay cannot see through — use the window: confetti window")
    }
    guard confetti_x11_pass_input_through(window) != 0 else {
      throw WindowError(
        "the X server lacks the XFixes extension, so the overlay could not let clicks "
          + "through; use the window: confetti window")
    }
    confetti_x11_stay_out_of_the_way(window)
    glfwSetWindowPos(window, frame.x, frame.y)
    confetti_x11_show(window)
    snapshot = OverlaySnapshot(path: settings.snapshot)
    shown = OverlayShown(descriptor: settings.shownDescriptor)
  }

  mutating func frameDrawn(at effectTime: Seconds, width: Int, height: Int) throws {
    try snapshot.frameDrawn(at: effectTime, width: width, height: height)
  }

  /// After a frame is swapped onto the screen.
  mutating func frameShown() { shown.frameShown() }
}

/// The framebuffer as a compositor is given it (premultiplied), written once to a PNG when the
/// effect has run ``time`` (`--snapshot`): what an overlay shows, for a bug report.
struct OverlaySnapshot {
  /// When the snapshot is taken, in seconds of the effect.
  static let time: Seconds = 0.4

  private var path: String?

  init(path: String?) { self.path = path }

  /// After a frame is drawn, `effectTime` seconds into the effect: writes the snapshot once.
  mutating func frameDrawn(at effectTime: Seconds, width: Int, height: Int) throws {
    guard let path, effectTime >= Self.time else { return }
    self.path = nil
    try PNG.write(try GLFrame.read(width: width, height: height), to: URL(fileURLWithPath: path))
  }
}
