import CWayland
import Confetti
import ConfettiCelebration
import ConfettiCore
import ConfettiGL
import ConfettiPlatform
import FoundationEssentials
import Glibc

/// The overlay drawn natively on a Wayland desktop whose compositor offers the layer shell
/// (sway, KDE Plasma, Hyprland, labwc…): a surface on the overlay layer over a whole output, with
/// an empty input region and no keyboard focus, so that every click and key reaches the windows
/// below. The effect runs in it as in the X11 overlay (``Overlay``) and ends the same way.
package final class LayerOverlay {
  /// What opening it gave: an overlay, or why there is none and the X11 window is to be tried.
  enum Opening {
    case opened(LayerOverlay)
    /// No Wayland compositor to connect to.
    case noCompositor
    /// A Wayland compositor without the layer shell (GNOME's, Weston).
    case noLayerShell
  }

  /// How long a frame waits for the compositor to ask for the next, in milliseconds: a hidden
  /// or stalled output still lets the effect's clock, its end and signals be seen this often.
  static let frameWait: Int32 = 100

  private let surface: OpaquePointer
  private var settings: WindowSettings
  private var overlay: Overlay.Settings

  /// Connects to the Wayland compositor, if there is one, and puts a surface on its overlay
  /// layer; throws when a compositor with the layer shell could not give one.
  static func open(_ settings: WindowSettings) throws -> Opening {
    guard let overlay = settings.overlay,
      ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"].map({ !$0.isEmpty }) ?? false
    else { return .noCompositor }
    var status = CONFETTI_WL_FAILED
    var message = [CChar](repeating: 0, count: 256)
    let surface = DriverMessages.silenced {
      confetti_wl_overlay_open(Int32(overlay.monitor ?? 0), &status, &message, message.count)
    }
    guard let surface else {
      switch status {
      case CONFETTI_WL_NO_COMPOSITOR: return .noCompositor
      case CONFETTI_WL_NO_LAYER_SHELL: return .noLayerShell
      default:
        let why = String(
          decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
          as: UTF8.self)
        throw WindowError("cannot show the overlay on this Wayland desktop: \(why)")
      }
    }
    StartTimings.mark("display, surface and context")
    return .opened(LayerOverlay(surface: surface, settings: settings, overlay: overlay))
  }

  private init(surface: OpaquePointer, settings: WindowSettings, overlay: Overlay.Settings) {
    self.surface = surface
    self.settings = settings
    self.overlay = overlay
  }

  deinit { confetti_wl_overlay_close(surface) }

  /// The surface's size in points and the scale of its pixels.
  private var size: (points: Size, pixels: PixelRect) {
    var (width, height, scale): (Int32, Int32, Int32) = (0, 0, 1)
    confetti_wl_overlay_size(surface, &width, &height, &scale)
    return (
      Size(width: Double(width), height: Double(height)),
      PixelRect(width: Int(width) * Int(scale), height: Int(height) * Int(scale))
    )
  }

  /// Runs the effect until it is over, a signal comes, or the compositor closes the surface.
  func run() throws {
    // A standby waits here, its surface and context made: it is shown by its first frame.
    if overlay.standby {
      settings = try settings.told()
      overlay = settings.overlay ?? overlay
    }
    let system = try ConfettiSystem(
      effect: settings.effect, size: size.points, capacity: settings.capacity, seed: settings.seed,
      reduceMotion: settings.reduceMotion, primitive: settings.primitive)
    StartTimings.mark("effect")
    defer { system.close() }
    // The surface's context is the system's own: a steady frame asks the GL nothing (one
    // query a frame for an effect with light, whose layer is laid over the backdrop).
    system.glStatePolicy = .cache
    system.backdropLightness = Overlay.assumedBackdropLightness
    var drawn: PixelRect?
    let opened = ContinuousClock.now
    var wall: Seconds { (ContinuousClock.now - opened).seconds }
    system.fireOpening(time: 0)
    var snapshot = OverlaySnapshot(path: overlay.snapshot)
    var shown = OverlayShown(descriptor: overlay.shownDescriptor)
    while !settings.shouldStop() {
      let time = wall
      if let exitAfter = settings.exitAfter, time >= exitAfter { break }
      let (points, pixels) = size
      try system.resize(to: points)
      system.advance(to: time)
      guard Overlay.goesOn(system, at: time, elapsed: time, settings: overlay) else { break }
      // The last draw's scissor box is kept: a new size is cleared whole, and set anew.
      let resized = pixels != drawn
      if resized { system.resetGLStateCache() }
      GLFrame.clear(to: .transparent, whole: resized)
      try system.draw(in: pixels, time: time)
      drawn = pixels
      try snapshot.frameDrawn(at: time, width: pixels.width, height: pixels.height)
      guard confetti_wl_overlay_swap(surface) == 0 else {
        throw WindowError("the Wayland compositor took no frame from the overlay")
      }
      shown.frameShown()
      switch confetti_wl_overlay_wait(surface, Self.frameWait) {
      case 0: continue
      case -1: return  // closed by the compositor (its output went away): the overlay is over
      default:
        throw WindowError("the Wayland compositor went away (it stopped, or the connection broke)")
      }
    }
  }
}
