import ConfettiCelebration
import ConfettiPlatform
import FoundationEssentials
import Glibc

/// The celebration of a command that succeeded, as `confetti run` throws it: over the desktop,
/// handed off (``Celebration/handOff(_:waits:shouldStop:handing:)``), or in this terminal where
/// the terminal comes first (``TerminalCelebration/comesFirst(asked:in:)``) or the desktop
/// cannot show it. A stopping signal (``Interruption``) ends it, and is no failure.
package enum CommandCelebration {
  /// Throws `options`' celebration (`handing` adds to what the overlay is handed; `waits`, as
  /// ``Celebration/handOff(_:waits:shouldStop:handing:)`` says), or, where `terminalFirst` or
  /// the desktop cannot show it, draws `inTerminal` (the terminal's celebration, held until it
  /// is over or a key).
  ///
  /// Returns what to tell the person, in one line: why it was drawn in the terminal instead,
  /// or why it was shown nowhere ("…; the command succeeded"); nil where it was shown where
  /// first tried, or a stopping signal ended it.
  package static func celebrate(
    _ options: CelebrationOptions, terminalFirst: Bool, waits: Bool,
    handing: (inout OverlayHandoff) -> Void, inTerminal: () throws -> Void
  ) -> String? {
    if terminalFirst { return standIn(inTerminal, after: nil) }
    guard desktopIsNamed(in: ProcessInfo.processInfo.environment) else {
      return "no desktop to celebrate on (DISPLAY is not set)\(terminalRefused); the command "
        + "succeeded"
    }
    // Every stopping signal sent to confetti alone (SIGINT by kill too) ends the celebration;
    // the terminal's Ctrl-C reaches the overlay itself.
    Interruption.watch()
    do {
      try Celebration.handOff(
        options, waits: waits, shouldStop: { Interruption.caught != nil }, handing: handing)
      return nil
    } catch {
      // Ended by the person (a stopping signal): nothing to say.
      guard Interruption.caught == nil else { return nil }
      guard TerminalCelebration.canBeDrawn else {
        return "\(error)\(terminalRefused); the command succeeded"
      }
      // No overlay here (no compositor, a dead display): the terminal instead, and why.
      return standIn(inTerminal, after: "\(error)")
    }
  }

  /// Why the terminal was not celebrated in either, where output goes to one (a background job,
  /// TERM=dumb): "; nor in this terminal: …". Empty where it goes elsewhere (a file, a pipe).
  private static var terminalRefused: String {
    guard isatty(STDOUT_FILENO) == 1,
      let why = TerminalCelebration.refusal(in: ProcessInfo.processInfo.environment)
    else { return "" }
    return "; nor in this terminal: \(why)"
  }

  /// Draws `inTerminal`, standing in for the desktop for the reason `why`, if any; returns what
  /// to say once the terminal is given back.
  private static func standIn(_ inTerminal: () throws -> Void, after why: String?) -> String? {
    do {
      try inTerminal()
      return why.map { "\($0); celebrated in the terminal instead" }
    } catch {
      guard Interruption.caught == nil else { return nil }
      return "\(why.map { "\($0), and " } ?? "")\(error); the command succeeded"
    }
  }
}
