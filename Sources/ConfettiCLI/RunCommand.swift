import ArgumentParser
import CProcess
import ConfettiCelebration
import ConfettiPlatform
import ConfettiTerminal
import FoundationEssentials

/// `confetti run [OPTIONS] -- COMMAND [ARGUMENTS…]`: runs the command as the shell would, then,
/// if it succeeded, throws the effect over the desktop; always exits with the command's status.
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run a command; if it succeeds, throw confetti over the desktop.",
    discussion: """
        confetti run -- make -j8

      The command runs with this terminal: its input, its output, and Ctrl-C reach it as they \
      would without confetti, and SIGTERM and SIGHUP sent to confetti are passed on to it. When \
      it exits 0, the effect is thrown over the desktop (as confetti overlay does), and confetti \
      returns as soon as it is on the screen: the celebration goes on by itself (--wait stays \
      until it is over), and the next one starts over it. When the command fails, nothing is \
      shown. Either way confetti \
      exits with the command's own status (128 + N when a signal N ended it; 127 when it cannot \
      be found, 126 when it cannot be run), so it fits in a script or a Makefile. Where no \
      overlay can be shown (a remote shell, a console, no compositor), or with --terminal, the \
      celebration is drawn in the terminal instead, on its alternate screen, which is given \
      back as it was: it holds the terminal until it is over (about 4 s), and any key ends it \
      at once and is left for the shell. Where it cannot be drawn there either (output to a \
      file or a pipe), one line on stderr says why, and the status is still the command's.
      """
  )

  @OptionGroup(title: "Effect")
  var effect: EffectOptions

  @Option(help: "Seed for every random draw, so a run can be repeated exactly.")
  var seed: UInt64 = 1

  @OptionGroup(title: "Overlay") var overlay: OverlayPlaceOptions

  @OptionGroup(title: "Terminal") var terminal: TerminalOptions

  @Flag(
    help: """
      Stay until the celebration is over, instead of returning as soon as it is on the screen \
      (it then goes on by itself).
      """)
  var wait = false

  @Flag(
    help: ArgumentHelp(
      "Say on standard error how long after the command ended the celebration's first frame "
        + "was on the screen (the stages of it: confetti overlay --timings)."))
  var timings = false

  @Argument(
    parsing: .postTerminator,
    help: ArgumentHelp("The command and its arguments, after --.", valueName: "command"),
    completion: .custom { ShellCompletion.commandLine($0, $1, $2) })
  var command: [String] = []

  func validate() throws {
    guard !command.isEmpty else {
      throw ValidationError("give the command to run after --: confetti run -- make")
    }
    // A bad effect file is said before the command runs, not after a long build.
    do {
      _ = try effect.load(fallback: Celebration.defaultPreset).config.validated()
    } catch {
      throw ValidationError("\(error); the command was not run")
    }
  }

  func run() throws {
    let status: Int32
    do {
      status = try SupervisedCommand.run(
        command, environment: SupervisedCommand.startingEnvironment)
    } catch let error as SupervisedCommandError {
      say(error.description)
      throw ExitCode(error.status)
    }
    guard status == 0 else { throw ExitCode(status) }
    // Told to stop while it ran, even if it then exited 0: no celebration.
    if SupervisedCommand.wasToldToStop { return }
    // From here: the time to the screen a user waits for.
    StartTimings.restart(at: "the command's end")
    StartTimings.isShown = timings
    celebrate()
  }

  /// The overlay, as a celebration of its own process: whatever becomes of it (no display, no
  /// compositor, a crash in the window system), the command's status is what confetti returns.
  /// Where it cannot be shown, the terminal's celebration stands in, held until it is over or a
  /// key (a terminal has no room for it to go on beside the prompt).
  private func celebrate() {
    var options = CelebrationOptions()
    (options.preset, options.path, options.seed) = (effect.preset, effect.config, seed)
    (options.monitor, options.duration) = (overlay.monitor, overlay.duration)
    options.reduceMotion = effect.reduceMotion ? true : nil
    let note = CommandCelebration.celebrate(
      options, terminalFirst: terminal.comesFirst, waits: wait,
      handing: {
        $0.primitive = effect.primitive.rawValue
        $0.snapshot = overlay.snapshot
      },
      inTerminal: {
        try TerminalCelebration.celebrate(
          try effect.load(fallback: Celebration.defaultPreset), seed: seed,
          duration: overlay.duration, reduceMotion: effect.wantsReducedMotionOnScreen,
          primitive: effect.primitive, graphics: terminal.terminalGraphics,
          still: terminal.terminalStill, snapshot: overlay.snapshot)
      })
    if let note { say(note) }
  }
}
