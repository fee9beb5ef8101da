import ArgumentParser
import CProcess
import ConfettiCelebration
import ConfettiPlatform
import FoundationEssentials
import Glibc
import Synchronization

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
    completion: .custom { words, index, prefix in RunCommand.complete(words, index, prefix) })
  var command: [String] = []

  /// What the shells' completion offers for the word at `index` of `words` (typed up to
  /// `prefix`): after `--`, the programs on PATH, as a shell offers a command; then the files
  /// and folders the command's own arguments may name.
  static func complete(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    let manager = FileManager.default
    guard let separator = words.firstIndex(of: "--"), index == separator + 1 else {
      // A path typed so far: its folder's entries that begin with the rest.
      let slash = prefix.lastIndex(of: "/")
      let folder = slash.map { String(prefix[...$0]) } ?? ""
      let start = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
      let entries = (try? manager.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
      return entries.filter { $0.hasPrefix(start) && (!$0.hasPrefix(".") || start.hasPrefix(".")) }
        .sorted().map { folder + $0 }
    }
    if prefix.contains("/") { return [] }
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    var programs = Set<String>()
    for folder in folders {
      for name in (try? manager.contentsOfDirectory(atPath: String(folder))) ?? []
      where name.hasPrefix(prefix) && manager.isExecutableFile(atPath: "\(folder)/\(name)") {
        programs.insert(name)
      }
    }
    return programs.sorted()
  }

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
    let status = try ChildProcess.run(
      command, what: "the command", environment: ChildProcess.startingEnvironment)
    guard status == 0 else { throw ExitCode(status) }
    // Told to stop while it ran (Ctrl-C, SIGTERM, SIGHUP), even if it then exited 0 (a command
    // that catches them): no celebration.
    if let signal = ChildProcess.received, ChildProcess.stopping.contains(signal) { return }
    // From here: the time to the screen a user waits for.
    StartTimings.restart(at: "the command's end")
    StartTimings.isShown = timings
    celebrate()
  }

  /// The overlay, as a celebration of its own process: whatever becomes of it (no display, no
  /// compositor, a crash in the window system), the command's status is what confetti returns.
  private func celebrate() {
    if terminal.comesFirst { return inTerminal() }
    guard desktopIsNamed() else {
      say(
        "no desktop to celebrate on (DISPLAY is not set)\(terminalRefused); the command succeeded")
      return
    }
    var options = CelebrationOptions()
    (options.preset, options.path, options.seed) = (effect.preset, effect.config, seed)
    (options.monitor, options.duration) = (overlay.monitor, overlay.duration)
    options.reduceMotion = effect.reduceMotion ? true : nil
    // Every stopping signal sent to confetti alone (SIGINT by kill too) ends the celebration;
    // the terminal's Ctrl-C reaches the overlay itself.
    Interruption.watch()
    do {
      let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
      // One left on the screen by an earlier run ends: this one starts over it.
      if !wait { LeftCelebration.endTheLast() }
      let celebration = try Celebration(
        options, program: me.map { URL(fileURLWithPath: $0) }, environment: nil,
        temporaryFolder: nil,
        handing: {
          $0.primitive = effect.primitive.rawValue
          $0.snapshot = overlay.snapshot
        },
        goesOnAlone: !wait)
      if !wait {
        // Back to the shell once it is on the screen (or could not be shown, which is said).
        let deadline = Date().addingTimeInterval(Self.showingLimit)
        while Interruption.caught == nil {
          let shown = try celebration.waitUntilShown(timeout: 0.1)
          if shown || Date() >= deadline {
            if shown { StartTimings.firstFrameShown() }
            LeftCelebration.note(celebration.processIdentifier)
            celebration.leave()
            return
          }
          if !celebration.isRunning { return }  // over before a frame: nothing to show
        }
        celebration.close()
        return
      }
      var told = false
      while try !celebration.wait(timeout: 0.1) {
        if Interruption.caught != nil { celebration.close() }
        if timings, !told, try celebration.waitUntilShown(timeout: 0) {
          told = true
          StartTimings.firstFrameShown()
        }
      }
    } catch {
      // Ended by the person (a stopping signal): nothing to say.
      guard Interruption.caught == nil else { return }
      guard terminalCanCelebrate() else {
        return say("\(error)\(terminalRefused); the command succeeded")
      }
      // No overlay here (no compositor, a dead display): the terminal instead, and why.
      inTerminal(after: "\(error)")
    }
  }

  /// Why the terminal was not celebrated in either, where output goes to one (a background job,
  /// TERM=dumb): "; nor in this terminal: …". Empty where it goes elsewhere (a file, a pipe).
  private var terminalRefused: String {
    guard isatty(STDOUT_FILENO) == 1, let why = terminalRefusal() else { return "" }
    return "; nor in this terminal: \(why)"
  }

  /// The celebration in this terminal, held until it is over or a key (a terminal has no room
  /// for it to go on beside the prompt); `why`, if any, said once the terminal is given back.
  private func inTerminal(after why: String? = nil) {
    do {
      try celebrateInTerminal(
        try effect.load(fallback: Celebration.defaultPreset), seed: seed,
        duration: overlay.duration, reduceMotion: effect.wantsReducedMotionOnScreen,
        primitive: effect.primitive, options: terminal)
      if let why { say("\(why); celebrated in the terminal instead") }
    } catch {
      guard Interruption.caught == nil else { return }
      say("\(why.map { "\($0), and " } ?? "")\(error); the command succeeded")
    }
  }

  /// How long `run` waits for its celebration to be on the screen before it leaves it anyway.
  static let showingLimit: TimeInterval = 10
}

/// A child process that shares the terminal, its status returned as a shell gives it.
enum ChildProcess {
  /// The child being waited for, for the signal handlers (0: none).
  private static let running = Atomic<pid_t>(0)

  /// Signals passed on to the child: those sent to confetti alone, not to the terminal's
  /// process group (which the child is in already).
  static let forwarded = [SIGTERM, SIGHUP, SIGUSR1, SIGUSR2]
  /// Signals the terminal sends the whole group: confetti waits them out, the child decides.
  static let waitedOut = [SIGINT, SIGQUIT]
  /// The signals that ask a program to stop.
  static let stopping = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]

  /// The last signal received while a child ran (forwarded or waited out); 0: none.
  private static let lastSignal = Atomic<Int32>(0)
  /// The signals to forward, a bit each (1 << N), until one side takes them. A handler sets
  /// its bit and then reads ``running``; ``run(_:what:environment:)`` writes ``running`` and
  /// then reads them: one of the two (or both) sees the other, whatever thread the handler
  /// runs on, so none is lost between the spawn and the pid being noted; and each is taken,
  /// and so forwarded, once (a second SIGTERM can mean "force it").
  private static let pending = Atomic<UInt32>(0)

  /// The last signal received while the last child ran, if any.
  static var received: Int32? {
    let number = lastSignal.load(ordering: .sequentiallyConsistent)
    return number == 0 ? nil : number
  }

  /// Passes the signals ``pending`` holds on to `pid`, taking them. A stopped command acts on
  /// SIGTERM or SIGHUP only once it runs again: it is woken as `kill` and `timeout` wake what
  /// they end (their SIGCONT reaches confetti alone).
  private static func forwardPending(to pid: pid_t) {
    let taken = pending.exchange(0, ordering: .sequentiallyConsistent)
    for number in forwarded where taken & (1 << UInt32(number)) != 0 {
      kill(pid, number)
      if number == SIGTERM || number == SIGHUP { kill(pid, SIGCONT) }
    }
  }

  /// The environment confetti was started with, before it quieted the GL drivers' messages
  /// for itself: what a command it runs gets. Set first thing by ``keepStartingEnvironment()``.
  nonisolated(unsafe) private(set) static var startingEnvironment: [String]?

  static func keepStartingEnvironment() {
    var entries: [String] = []
    var entry = Glibc.environ
    while let text = entry.pointee {
      entries.append(String(cString: text))
      entry += 1
    }
    startingEnvironment = entries
  }

  /// Runs `arguments` (found on PATH) in `environment` (by default confetti's), waits for it and
  /// returns its status: its exit code, 128 + N when signal N ended it. The signals of
  /// ``forwarded`` are passed on to it (from the moment it starts); those of ``waitedOut`` are
  /// noted only (``received``). Throws ExitCode 127 or 126, said in one line, when it cannot be
  /// started.
  static func run(
    _ arguments: [String], what: String, environment: [String]? = nil
  ) throws -> Int32 {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The child starts with every signal at its default and none blocked, whatever confetti set.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in forwarded + waitedOut + [SIGPIPE] { sigaddset(&defaults, signal) }
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    // Handlers before the child exists: a signal in between is forwarded as soon as it does.
    lastSignal.store(0, ordering: .sequentiallyConsistent)
    pending.store(0, ordering: .sequentiallyConsistent)
    running.store(0, ordering: .sequentiallyConsistent)
    let previous = (forwarded + waitedOut).map { number in
      let handler: @convention(c) (Int32) -> Void =
        forwarded.contains(number)
        ? { number in
          ChildProcess.lastSignal.store(number, ordering: .sequentiallyConsistent)
          ChildProcess.pending.bitwiseOr(1 << UInt32(number), ordering: .sequentiallyConsistent)
          let pid = ChildProcess.running.load(ordering: .sequentiallyConsistent)
          if pid > 0 { ChildProcess.forwardPending(to: pid) }
        }
        : { number in ChildProcess.lastSignal.store(number, ordering: .sequentiallyConsistent) }
      return (number, signal(number, handler))
    }
    defer { for (number, handler) in previous { signal(number, handler) } }
    var argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var envp = environment.map { $0.map { strdup($0) } + [nil] }
    defer { envp?.forEach { free($0) } }
    var pid: pid_t = 0
    let failed =
      envp == nil
      ? posix_spawnp(&pid, arguments[0], nil, &attributes, &argv, Glibc.environ)
      : posix_spawnp(&pid, arguments[0], nil, &attributes, &argv, &envp!)
    guard failed == 0 else {
      say("cannot run \(arguments[0]): \(String(cString: strerror(failed)))")
      throw ExitCode(failed == ENOENT ? 127 : 126)
    }
    running.store(pid, ordering: .sequentiallyConsistent)
    defer { running.store(0, ordering: .sequentiallyConsistent) }
    forwardPending(to: pid)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else {
        say("lost \(what) (\(String(cString: strerror(errno))))")
        throw ExitCode(1)
      }
    }
    return confetti_exit_status(status)
  }
}
