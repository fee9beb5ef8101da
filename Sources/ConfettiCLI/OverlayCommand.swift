import ArgumentParser
import Confetti
import ConfettiCelebration
import ConfettiCore
import ConfettiDesktop
import ConfettiGL
import ConfettiPlatform
import ConfettiTerminal
import FoundationEssentials

/// `confetti overlay`: the effect over the whole desktop, click-through, until it is over.
struct OverlayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "overlay",
    abstract: "Throw confetti over the desktop; exit when the last piece is gone.",
    discussion: """
      A transparent, always-on-top layer over a whole monitor, through which every click and \
      key reaches the windows below. It fires the effect's start emitters, or its key emitters \
      where it has none (by default the celebrate preset: two corner cannons whose pieces \
      flutter down and fade, over in 4 s), and exits 0 the moment the last particle is \
      gone (confetti run -- make celebrates a build this way). A continuous effect (snow, \
      rain) is on the screen for --duration seconds (10 by default), fading out over the last \
      one; with --loop any effect goes on until Ctrl-C or SIGTERM. Keys and clicks are never \
      its: they reach the windows below. Runs on Wayland desktops with a layer shell (sway, \
      KDE Plasma), natively; elsewhere it needs an X11 display (or XWayland, as on GNOME) with \
      a compositing window manager. Where neither is (over SSH, in a console), or with \
      --terminal, it is drawn in the terminal instead: with kitty's graphics or sixels where the \
      terminal has them, else in coloured block characters, on its alternate screen, which is \
      given back as it was; any key ends it (and is left for the shell).
      """
  )

  @OptionGroup(title: "Effect")
  var effect: EffectOptions

  @OptionGroup var overlay: OverlayOptions

  @OptionGroup(title: "Terminal") var terminal: TerminalOptions

  @Option(help: "Seed for every random draw, so a run can be repeated exactly.")
  var seed: UInt64 = 1

  @Option(help: "The most particles alive at once; the oldest make way beyond it.")
  var capacity: Int = 100_000

  @Option(help: "Close after this many seconds (for a demonstration or a script).")
  var exitAfter: Double?

  @Flag(
    help: ArgumentHelp(
      "Say on standard error, once the first frame is on the screen, how long each stage "
        + "before it took (the display, the window and GL context, the effect, the first "
        + "frame), from the program's start."))
  var timings = false

  // What only a celebration hands over (``OverlayHandoff``), named as it spells them.

  /// A JSON effect handed over in a file that is not its home (a celebration's): as the
  /// library's JSON effects, its relative image paths are found nowhere, not beside the file.
  @Option(name: .handoff(OverlayHandoff.Flag.jsonFile), help: .hidden)
  var jsonFile: String?

  /// The `confetti run` that started this overlay: it ends when that process does.
  @Option(name: .handoff(OverlayHandoff.Flag.parent), help: .hidden)
  var parent: Int32?

  /// A descriptor this overlay was given, to say down once its first frame is on screen
  /// (``Overlay/Settings/shownDescriptor``).
  @Option(name: .handoff(OverlayHandoff.Flag.shownDescriptor), help: .hidden)
  var shownFd: Int32?
  /// Made ahead by `confetti service`: told what to show on standard input.
  @Flag(name: .handoff(OverlayHandoff.Flag.standby), help: .hidden) var standby = false

  func validate() throws {
    if jsonFile != nil, effect.preset != nil || effect.config != nil {
      throw ValidationError(
        "give \(OverlayHandoff.Flag.jsonFile) alone, without --preset or --config")
    }
    if let refusal = ConfettiSystem.capacityRefusal(capacity, as: "--capacity") {
      throw ValidationError(refusal)
    }
    if let exitAfter, !(exitAfter.isFinite && exitAfter >= 0) {
      throw ValidationError("--exit-after must be a finite number of seconds")
    }
  }

  /// The effect: the handed-over JSON, else as the effect options say.
  private func loadEffect() throws -> Effect {
    guard let jsonFile else { return try effect.load(fallback: Presets.celebrationName) }
    return try Effect(handedOver: jsonFile)
  }

  func run() throws {
    if let parent, !OverlayHandoff.endsWith(parent: parent) { return }  // it has ended already
    StartTimings.isShown = timings
    var settings = overlay.settings
    (settings.shownDescriptor, settings.standby) = (shownFd, standby)
    try reportingFailures {
      let loaded = try loadEffect()
      /// The celebration in this terminal instead.
      func inTerminal() throws {
        try TerminalCelebration.celebrate(
          loaded, seed: seed, capacity: capacity, duration: overlay.place.duration,
          loop: overlay.loop, reduceMotion: effect.wantsReducedMotionOnScreen,
          primitive: effect.primitive, graphics: terminal.terminalGraphics,
          still: terminal.terminalStill, snapshot: overlay.place.snapshot, shownDescriptor: shownFd)
      }
      if terminal.comesFirst { return try inTerminal() }
      do {
        try show(
          WindowSettings(
            size: PixelSize(width: 1, height: 1), capacity: capacity, seed: seed,
            effect: loaded,
            configPath: effect.config, reduceMotion: effect.wantsReducedMotionOnScreen,
            primitive: effect.primitive, vsync: true, exitAfter: exitAfter,
            overlay: settings))
      } catch let error as WindowError where TerminalCelebration.canBeDrawn {
        // No desktop overlay here (no compositor, no layer shell): the terminal instead, and
        // why, once it is given back.
        try inTerminal()
        say("\(error); celebrated in the terminal instead")
      }
    }
  }
}
