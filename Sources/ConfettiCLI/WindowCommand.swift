import ArgumentParser
import CCrash
import Confetti
import ConfettiCore
import ConfettiDesktop
import ConfettiGL

/// `confetti` and `confetti window`: the interactive window.
struct Window: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "window",
    abstract: "Open a window and throw confetti in it (the default command).",
    discussion: WindowApp.controls
  )

  @OptionGroup(title: "Effect")
  var effect: EffectOptions

  @Option(help: "Seed for every random draw, so a run can be repeated exactly.")
  var seed: UInt64 = 1

  @Option(
    help: ArgumentHelp(
      "The window's initial size in points: WxH, or 720p, 1080p, 1440p, 4k. "
        + Self.defaultSize.defaultInHelp, valueName: "WxH"),
    transform: PixelSize.parsing(argument:))
  var size = Self.defaultSize

  /// The window's size when none is given, in points.
  static let defaultSize = PixelSize(width: 1280, height: 720)

  @Option(help: "The most particles alive at once; the oldest make way beyond it.")
  var capacity: Int = 100_000

  @Flag(help: "Draw as fast as possible instead of in step with the display.")
  var noVsync = false

  @Flag(help: "Read the --config file again whenever it changes (r reads it at any time).")
  var watch = false

  @Flag(help: "Throw it over the desktop instead (as confetti overlay does).")
  var overlay = false

  @OptionGroup(title: "Overlay")
  var overlayOptions: OverlayOptions

  @Option(help: "Close after this many seconds (for a demonstration or a script).")
  var exitAfter: Double?

  func validate() throws {
    if watch, effect.config == nil {
      throw ValidationError("--watch needs a --config file to watch")
    }
    if !overlay, overlayOptions.isGiven {
      throw ValidationError(
        "--monitor, --duration, --loop and --snapshot go with --overlay (or use confetti overlay)")
    }
    if let refusal = ConfettiSystem.capacityRefusal(capacity, as: "--capacity") {
      throw ValidationError(refusal)
    }
    if let refusal = size.drawableRefusal(as: "--size") { throw ValidationError(refusal) }
    if let exitAfter, !(exitAfter.isFinite && exitAfter >= 0) {
      throw ValidationError("--exit-after must be a finite number of seconds")
    }
  }

  func run() throws {
    try reportingFailures {
      let settings = WindowSettings(
        size: size, capacity: capacity, seed: seed,
        effect: try effect.load(fallback: overlay ? Presets.celebrationName : Presets.defaultName),
        configPath: effect.config, watch: watch,
        reduceMotion: effect.wantsReducedMotionOnScreen, primitive: effect.primitive,
        vsync: !noVsync,
        exitAfter: exitAfter,
        overlay: overlay ? overlayOptions.settings : nil)
      try show(settings)
    }
  }
}

/// Runs the window, or the overlay when `settings` has one, until it is over or a stopping
/// signal (``WindowSettings/showUntilStopped(beforeEnding:)``); what it has to say is said on
/// standard error.
func show(_ settings: WindowSettings) throws {
  var settings = settings
  settings.report = { say($0) }
  // A terminal borrowed (where the overlay could not be shown) is given back first.
  try settings.showUntilStopped { confetti_give_back_terminal_now() }
}
