import ArgumentParser
import Confetti
import ConfettiCelebration
import ConfettiCore
import ConfettiDesktop
import ConfettiTerminal
import FoundationEssentials
import Glibc

/// How `confetti run` and `overlay` celebrate in the terminal instead of over the desktop.
struct TerminalOptions: ParsableArguments {
  @Flag(
    help: """
      Celebrate in this terminal, not over the desktop (what happens anyway where no desktop \
      can show it: over SSH, in a console, without a compositor). Any key ends it.
      """)
  var terminal = false

  @Option(
    help: ArgumentHelp(
      "How to draw in the terminal: kitty, sixel or cells (default: the best it answers it "
        + "has; cells inside tmux and screen). Implies --terminal.",
      valueName: "kind"))
  var terminalGraphics: TerminalGraphics?

  /// Draws the moment this many seconds in, still, until the duration is over or a key.
  @Option(
    help: ArgumentHelp(
      "In the terminal, draw the moment this many seconds in, still, until the duration is "
        + "over or a key (the moment `confetti render --time` renders).",
      valueName: "seconds"))
  var terminalStill: Double?

  /// Whether the terminal was asked for.
  var isAsked: Bool { terminal || terminalGraphics != nil }

  /// Whether to celebrate in the terminal from the start: asked for, or no desktop is named
  /// (neither DISPLAY nor WAYLAND_DISPLAY: a remote shell, a console) and the terminal can.
  var comesFirst: Bool { isAsked || (!desktopIsNamed() && terminalCanCelebrate()) }
}

/// Whether the environment names a desktop to show an overlay on (DISPLAY or WAYLAND_DISPLAY,
/// not empty).
func desktopIsNamed() -> Bool {
  let environment = ProcessInfo.processInfo.environment
  return !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
}

/// `--terminal-graphics`: kitty, sixel or cells.
extension TerminalGraphics: ExpressibleByArgument {}

/// Why a celebration cannot be drawn in the terminal on standard output, in one line; nil when
/// it can (``TerminalCelebration/refusal(in:)``).
func terminalRefusal() -> String? {
  TerminalCelebration.refusal(in: ProcessInfo.processInfo.environment)
}

/// Whether a celebration can be drawn in the terminal on standard output.
func terminalCanCelebrate() -> Bool { terminalRefusal() == nil }

/// Celebrates with `effect` in the terminal on standard output, until it is over, a key, or a
/// stopping signal (Ctrl-C, Ctrl-Z, SIGTERM, SIGHUP), and gives the terminal back as it was.
/// `shownDescriptor`, if any, is written one byte once the first frame is out.
func celebrateInTerminal(
  _ effect: Effect, seed: UInt64, capacity: Int = 100_000, duration: Seconds?, loop: Bool = false,
  reduceMotion: Bool, primitive: SpritePrimitive, options: TerminalOptions,
  snapshot: String? = nil, shownDescriptor: Int32? = nil
) throws {
  Interruption.watch()
  // Ctrl-Z ends it too: a suspended celebration would leave the terminal borrowed.
  signal(SIGTSTP) { _ in TerminalSuspension.asked = 1 }
  defer { signal(SIGTSTP, SIG_DFL) }
  var settings = TerminalCelebration.Settings()
  settings.graphics = options.terminalGraphics
  settings.seed = seed
  settings.capacity = capacity
  settings.duration = duration ?? Celebration.defaultDuration
  settings.loop = loop
  settings.reduceMotion = reduceMotion
  settings.primitive = primitive
  settings.still = options.terminalStill
  settings.snapshot = snapshot
  settings.shouldStop = { Interruption.caught != nil || TerminalSuspension.asked != 0 }
  var shown = OverlayShown(descriptor: shownDescriptor)
  settings.shown = { shown.frameShown() }
  _ = try TerminalCelebration.run(effect, settings)
}

/// Whether Ctrl-Z (SIGTSTP) came while the terminal was borrowed.
enum TerminalSuspension {
  nonisolated(unsafe) static var asked: Int32 = 0
}
