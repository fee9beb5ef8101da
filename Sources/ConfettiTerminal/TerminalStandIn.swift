import Confetti
import ConfettiCelebration
import ConfettiCore
import ConfettiPlatform
import FoundationEssentials
import Glibc

/// Whether `environment` names a desktop to show an overlay on (DISPLAY or WAYLAND_DISPLAY, not
/// empty).
package func desktopIsNamed(in environment: [String: String]) -> Bool {
  !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
}

extension TerminalCelebration {
  /// Whether a celebration can be drawn in the terminal on standard output, in this process's
  /// environment (``refusal(in:)`` says why not).
  package static var canBeDrawn: Bool { refusal(in: ProcessInfo.processInfo.environment) == nil }

  /// Whether to celebrate in the terminal from the start, rather than over the desktop: `asked`
  /// for, or no desktop is named in `environment` (neither DISPLAY nor WAYLAND_DISPLAY: a remote
  /// shell, a console) and the terminal can be drawn in.
  package static func comesFirst(asked: Bool, in environment: [String: String]) -> Bool {
    asked || (!desktopIsNamed(in: environment) && refusal(in: environment) == nil)
  }

  /// Celebrates with `effect` in the terminal on standard output, until it is over, a key, or a
  /// stopping signal (Ctrl-C, Ctrl-Z, SIGTERM, SIGHUP: ``Interruption``), and gives the
  /// terminal back as it was. The other arguments are ``Settings``' members of their names
  /// (`duration` nil: ``Celebration/defaultDuration``); `shownDescriptor`, if any, is written
  /// one byte once the first frame is out (``OverlayShown``).
  package static func celebrate(
    _ effect: Effect, seed: UInt64, capacity: Int = 100_000, duration: Seconds?,
    loop: Bool = false, reduceMotion: Bool, primitive: SpritePrimitive,
    graphics: TerminalGraphics?, still: Seconds?, snapshot: String? = nil,
    shownDescriptor: Int32? = nil
  ) throws {
    Interruption.watch()
    // Ctrl-Z ends it too: a suspended celebration would leave the terminal borrowed.
    signal(SIGTSTP) { _ in TerminalSuspension.asked = 1 }
    defer { signal(SIGTSTP, SIG_DFL) }
    var settings = Settings()
    settings.graphics = graphics
    settings.seed = seed
    settings.capacity = capacity
    settings.duration = duration ?? Celebration.defaultDuration
    settings.loop = loop
    settings.reduceMotion = reduceMotion
    settings.primitive = primitive
    settings.still = still
    settings.snapshot = snapshot
    settings.shouldStop = { Interruption.caught != nil || TerminalSuspension.asked != 0 }
    var shown = OverlayShown(descriptor: shownDescriptor)
    settings.shown = { shown.frameShown() }
    _ = try run(effect, settings)
  }
}

/// Whether Ctrl-Z (SIGTSTP) came while the terminal was borrowed.
enum TerminalSuspension {
  /// 1 once it came (set in the signal handler).
  nonisolated(unsafe) static var asked: Int32 = 0
}
