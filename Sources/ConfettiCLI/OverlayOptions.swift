import ArgumentParser
import ConfettiCelebration
import ConfettiDesktop

/// The overlay's own options, shared by `confetti overlay` and `confetti window --overlay`.
struct OverlayOptions: ParsableArguments {
  @OptionGroup var place: OverlayPlaceOptions

  @Flag(
    help: """
      Keep going until interrupted (Ctrl-C, SIGTERM): a continuous effect (snow, rain) emits on, \
      a one-off effect is thrown again each time it is over.
      """)
  var loop = false

  /// The place's own values are checked by it; here, whether they go with `--loop`.
  func validate() throws {
    guard loop else { return }
    do {
      try Celebration.check(monitor: place.monitor, duration: place.duration, loop: loop) {
        "--\($0)"
      }
    } catch let error as CelebrationError {
      throw ValidationError(error.description)
    }
  }

  var isGiven: Bool { place.isGiven || loop }

  var settings: Overlay.Settings {
    Overlay.Settings(
      monitor: place.monitor, loop: loop,
      duration: place.duration ?? Celebration.defaultDuration, snapshot: place.snapshot)
  }
}

/// Where and for how long a celebration is thrown over the desktop: the options `confetti run`
/// shares with the overlay (which adds `--loop`; a run's celebration ends).
struct OverlayPlaceOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp("The monitor to cover, from 1 (default: the primary).", valueName: "n"))
  var monitor: Int?

  @Option(
    help: ArgumentHelp(
      "How long a continuous effect (snow, rain) is on the screen, in seconds: it fades out "
        + "over its last second. One-off effects end by themselves.",
      valueName: "seconds"))
  var duration: Double?

  @Option(
    name: .handoff(OverlayHandoff.Flag.snapshot),
    help: ArgumentHelp(
      "Also write what the celebration shows 0.4 s in to FILE (PNG, as the compositor is given "
        + "it); in a terminal, its first frame, with FILE.layout (the cells drawn into) and "
        + "FILE.choice (the graphics chosen): for a bug report.",
      valueName: "FILE"))
  var snapshot: String?

  func validate() throws {
    do {
      try Celebration.check(monitor: monitor, duration: duration, loop: false) { "--\($0)" }
    } catch let error as CelebrationError {
      throw ValidationError(error.description)
    }
  }

  var isGiven: Bool { monitor != nil || snapshot != nil || duration != nil }
}

/// Names the handoff's flags take.
extension NameSpecification {
  /// The long name `flag` (`--shown-fd`) spells: a handoff's flag, as the program reads it.
  static func handoff(_ flag: String) -> NameSpecification {
    .customLong(String(flag.dropFirst(2)))
  }
}
