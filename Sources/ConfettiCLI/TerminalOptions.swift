import ArgumentParser
import ConfettiTerminal
import FoundationEssentials

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
  var comesFirst: Bool {
    TerminalCelebration.comesFirst(asked: isAsked, in: ProcessInfo.processInfo.environment)
  }
}

/// `--terminal-graphics`: kitty, sixel or cells.
extension TerminalGraphics: ExpressibleByArgument {}
