import ArgumentParser
import CCrash
import CProcess
import Confetti
import ConfettiBench
import ConfettiCelebration
import ConfettiConfig
import ConfettiCore
import ConfettiDesktop
import ConfettiExport
import ConfettiGL
import ConfettiPlatform
import FoundationEssentials
import Glibc

@main
enum Main {
  /// Parses and runs `confetti …`. Every error is one line on stderr and a non-zero exit code.
  static func main() {
    StartTimings.mark("main")
    StandardStreams.keepOpen()
    // Started with SIGCHLD ignored (some daemons and shells leave it so), its children's ends
    // and statuses would be lost: ffmpeg's, the celebration's, `confetti run`'s command's.
    signal(SIGCHLD, SIG_DFL)
    // A crash gives the terminal back and says so in a few lines, never holding it at Swift's
    // 30-second prompt.
    confetti_crash_handlers_install("confetti")
    ChildProcess.keepStartingEnvironment()  // confetti run's command gets it untouched
    DriverMessages.quietDrivers()
    HeapPolicy.keepFreedMemory()  // where refused, frames on a software GL are only slower
    // The argument parser's time grows with the square of their count: thousands would hang.
    let count = CommandLine.arguments.count - 1
    if count > largestArgumentCount {
      say("\(count) arguments are too many: at most \(largestArgumentCount)")
      Glibc.exit(64)
    }
    if let refusal = notUTF8Argument() {
      say(refusal)
      Glibc.exit(64)
    }
    let arguments = Shorthands.expand(Array(CommandLine.arguments.dropFirst()))
    if arguments.count == 2, arguments[0] == "--generate-completion-script",
      let script = completionScript(for: arguments[1])
    {
      print(script, terminator: "")
      finishWritingStandardOutput()
      Glibc.exit(0)
    }
    if let (unknown, known) = unknownHelpTopic(arguments) {
      say("no command named \(unknown) (see '\(helpCommand(for: known))')")
      Glibc.exit(64)
    }
    do {
      var command = try ConfettiCommand.parseAsRoot(arguments)
      try command.run()
      finishWritingStandardOutput()
    } catch let exit as ExitCode {
      // Already reported by the command itself.
      Glibc.exit(exit.rawValue)
    } catch {
      let code = ConfettiCommand.exitCode(for: error)
      if code == .success {  // --help, --version, completion scripts
        print(ConfettiCommand.fullMessage(for: error))
        finishWritingStandardOutput()
        Glibc.exit(0)
      }
      // The parser's message, without the usage it may add (a value it quotes may hold a
      // newline of its own: say() shows that escaped).
      let message =
        ConfettiCommand.message(for: error)
        .split(separator: "\nUsage:", omittingEmptySubsequences: false).first?
        .split(separator: "\nHelp:", omittingEmptySubsequences: false).first?
        .trimmed ?? ""
      let hint = dashValueHint(message, arguments) + sizeHint(message)
      say("\(message)\(hint) (see '\(helpCommand(for: arguments))')")
      Glibc.exit(code.rawValue)
    }
  }
}

/// For the parser's "Missing value for '--OPTION …'" where the argument after --OPTION begins
/// with '-' (a colour or number it took for an option): how to give such a value.
func dashValueHint(_ message: String, _ arguments: [String]) -> String {
  guard message.hasPrefix("Missing value for '--"),
    let option = message.dropFirst("Missing value for '".count).split(separator: " ").first
      .map(String.init),
    let at = arguments.firstIndex(of: option), at + 1 < arguments.count,
    arguments[at + 1].hasPrefix("-"), arguments[at + 1] != "--"
  else { return "" }
  return ": a value that begins with '-' is given as \(option)=\(oneLine(arguments[at + 1]))"
}

/// For the parser's "The value '…' is invalid for '--size'": the forms a size takes.
func sizeHint(_ message: String) -> String {
  guard message.hasPrefix("The value '"), message.contains("' is invalid for '--size") else {
    return ""
  }
  return ": give \(PixelSize.forms)"
}

/// The most arguments the program takes (a command line needs some dozens at most).
let largestArgumentCount = 1024

/// Says which argument is not UTF-8, if one is: Swift would read it with its bad bytes
/// replaced, and a file name so changed names another file, or none.
func notUTF8Argument() -> String? {
  for index in 1..<Int(CommandLine.argc) {
    guard let argument = CommandLine.unsafeArgv[index] else { continue }
    let bytes = UnsafeBufferPointer(start: argument, count: strlen(argument))
      .map { UInt8(bitPattern: $0) }
    guard String(validating: bytes, as: UTF8.self) == nil else { continue }
    let shown = bytes.map {
      (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : String(formatting: "\\x%02X", $0)
    }
    return "argument \(index) (\(shown.joined())) is not UTF-8 text: give names and values in "
      + "UTF-8 (rename the file if need be)"
  }
  return nil
}

/// The parser's completion script for `shell`, where confetti adds to it; nil for the parser's
/// own. Each shell's offers the window's options at the top level too, where they are taken
/// (`confetti --preset <Tab>` offers the presets, as the README writes it), not the subcommands
/// alone.
func completionScript(for shell: String) -> String? {
  switch shell {
  case "bash":
    return inserting(
      """
          # The window's options, which the top level takes: confetti --preset <Tab>
          if [[ "${unparsed_words[0]}" == -* ]]; then
              _confetti_window
              return
          fi

      """,
      before: "    __confetti_offer_flags_options 0\n\n    # Offer subcommand / subcommand",
      into: ConfettiCommand.completionScript(for: .bash))
  case "zsh":
    // The words as they are: the window's function reads `confetti --preset …` as its own.
    return inserting(
      """
          # The window's options, which the top level takes: confetti --preset <Tab>
          if [[ "${words[2]}" == -* && "${words[2]}" != (--version|-h|--help) ]]; then
              _confetti_window
              return
          fi

      """,
      before:
        "    local -i ret=1\n    local -ar arg_specs=(\n        '--version[Show the version.]'",
      into: ConfettiCommand.completionScript(for: .zsh))
  case "fish":
    // Read as `confetti window --preset …`: the window's completions apply.
    return inserting(
      """
              # The window's options, which the top level takes: confetti --preset <Tab>
              if string match -qr -- '^-' $unparsed_tokens[2]
                  and not contains -- $unparsed_tokens[2] --version -h --help
                  set unparsed_tokens $unparsed_tokens[1] window $unparsed_tokens[2..]
              end

      """,
      before: "        __confetti_parse_subcommand 0 'version' 'h/help'\n        switch",
      into: ConfettiCommand.completionScript(for: .fish))
  default:
    return nil
  }
}

/// `script` with `addition` put before the first `anchor`; as it was if it has none (a parser
/// that writes its scripts otherwise: its own completion still works).
private func inserting(_ addition: String, before anchor: String, into script: String) -> String {
  guard let range = script.firstRange(of: anchor) else { return script }
  return script[..<range.lowerBound] + addition + script[range.lowerBound...]
}

/// The word after `confetti help` (and its subcommands) that names no command, if one does
/// not, with the words before it that do: the parser would show the top-level help and exit 0.
func unknownHelpTopic(_ arguments: [String]) -> (word: String, known: [String])? {
  guard arguments.first == "help" else { return nil }
  var command: ParsableCommand.Type = ConfettiCommand.self
  var known: [String] = []
  for argument in arguments.dropFirst() where !argument.hasPrefix("-") {
    // `confetti help help` is the help command's own help.
    if known.isEmpty, argument == "help" { return nil }
    guard
      let sub = command.configuration.subcommands.first(where: { $0._commandName == argument })
    else { return ("'\(oneLine(argument))'", known) }
    (command, known) = (sub, known + [argument])
  }
  return nil
}

/// The help to point at for `arguments`: that of the deepest command they name.
func helpCommand(for arguments: [String]) -> String {
  var command: ParsableCommand.Type = ConfettiCommand.self
  var words = ["confetti"]
  for argument in arguments {
    guard
      let sub = command.configuration.subcommands.first(where: { $0._commandName == argument })
    else { break }
    (command, words) = (sub, words + [argument])
  }
  return (words + ["--help"]).joined(separator: " ")
}

/// Says `line` on standard error as the program's own: "confetti: …", on one line whatever it
/// echoes: control characters (a newline or an escape in a name given) are written as escapes,
/// and a line over 2,000 characters keeps its start and end around "…".
func say(_ line: String) {
  StandardStreams.writeError("confetti: \(oneLine(line))\n")
}

/// The standard streams, made safe to lose: a program started with one of them closed, or whose
/// standard error is a full disk or a pipe nobody reads, still runs and ends as it would.
enum StandardStreams {
  /// Opens /dev/null on each of descriptors 0, 1 and 2 that is closed, so that no file, pipe or
  /// socket opened later lands there (and gets the program's messages written into it).
  ///
  /// A closed standard output gets /dev/full instead: what a command prints fails there, and
  /// ``finishWritingStandardOutput()`` says so, so that a command whose work is to print (a
  /// preset, the schema, the shaders) never succeeds having printed nothing.
  static func keepOpen() {
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO]
    where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      if descriptor == STDOUT_FILENO { outputWasClosed = true }
      let null = open(
        descriptor == STDOUT_FILENO ? "/dev/full" : "/dev/null",
        descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
      if null >= 0, null != descriptor {
        dup2(null, descriptor)
        close(null)
      }
    }
  }

  /// Whether standard output was closed when the program started (it is /dev/full now).
  nonisolated(unsafe) static var outputWasClosed = false

  /// Writes `text` to standard error as far as it goes: a closed pipe (no SIGPIPE), a full
  /// disk or a closed descriptor loses the message, never the program.
  static func writeError(_ text: String) {
    let bytes = Array(text.utf8)
    let previous = signal(SIGPIPE, SIG_IGN)
    defer { signal(SIGPIPE, previous) }
    var written = 0
    while written < bytes.count {
      let result = bytes[written...].withUnsafeBufferPointer {
        write(STDERR_FILENO, $0.baseAddress, $0.count)
      }
      if result > 0 {
        written += result
      } else if result < 0, errno == EINTR {
        continue
      } else {
        return
      }
    }
  }
}

/// Flushes standard output and exits 1 with one line if it could not all be written (a full
/// disk, a closed pipe): a cut-off schema or preset file must not look like a success.
func finishWritingStandardOutput() {
  // Every stream: a write that failed earlier leaves its data buffered, and fails again here;
  // or, when the buffer filled and was written out (and lost) along the way, the stream's
  // error flag says so.
  let earlier = errno
  if fflush(nil) != 0 || confetti_standard_output_failed() != 0 {
    let reason =
      StandardStreams.outputWasClosed
      ? "it is closed" : String(cString: strerror(errno != 0 ? errno : earlier))
    say("cannot write standard output: \(reason)")
    exit(1)
  }
}

/// The spellings the command line had before it had subcommands, still accepted:
/// `confetti --bench N …` is `confetti bench N …`, `confetti --sweep …` is
/// `confetti bench --sweep …`, `confetti --list-presets` is `confetti presets list`. And a
/// negative number after an option is that option's value (`--time -1` is `--time=-1`), so
/// that it gets the option's own message instead of "missing value".
enum Shorthands {
  static func expand(_ arguments: [String]) -> [String] {
    var arguments = negativeValuesAttached(arguments)
    guard !ConfettiCommand.subcommandNames.contains(arguments.first ?? "") else { return arguments }
    if arguments == ["--list-presets"] { return ["presets", "list"] }
    if let at = arguments.firstIndex(where: { $0 == "--bench" || $0.hasPrefix("--bench=") }) {
      let option = arguments.remove(at: at)
      let value: String? =
        option.hasPrefix("--bench=")
        ? String(option.dropFirst("--bench=".count))
        : (at < arguments.count ? arguments.remove(at: at) : nil)
      return ["bench"] + (value.map { ["--particles=" + $0] } ?? ["--particles"]) + arguments
    }
    if arguments.contains(where: { $0 == "--sweep" || $0.hasPrefix("--sweep=") }) {
      return ["bench"] + arguments
    }
    return arguments
  }

  private static func negativeValuesAttached(_ arguments: [String]) -> [String] {
    var result: [String] = []
    for (index, argument) in arguments.enumerated() {
      // After --, the words are a command's (confetti run -- cmd --level -1), not ours.
      if argument == "--" { return result + arguments[index...] }
      if let last = result.last, last.hasPrefix("--"), !last.contains("="),
        argument.hasPrefix("-"), argument.dropFirst().first?.isNumber == true
      {
        result[result.count - 1] = last + "=" + argument
      } else {
        result.append(argument)
      }
    }
    return result
  }
}

struct ConfettiCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "confetti",
    abstract: "Physics-based confetti: in a window, over the desktop, in a terminal, in a video.",
    discussion: """
      With no command, opens a window (its options: confetti window --help).
      \(WindowApp.controls)

      confetti run throws the effect over the desktop when a command succeeds, and exits with \
      the command's status either way:
        confetti run -- make

      confetti --bench N is short for confetti bench --particles N.
      """,
    version: ConfettiVersion.current,
    subcommands: [
      Window.self, OverlayCommand.self, RunCommand.self, Render.self, BenchCommand.self,
      PresetsCommand.self, SchemaCommand.self, ShadersCommand.self, ShellHookCommand.self,
      VersionCommand.self,
    ],
    defaultSubcommand: Window.self
  )

  /// The subcommands' names, as typed.
  static var subcommandNames: [String] {
    configuration.subcommands.map { $0._commandName } + ["help"]
  }
}

/// `confetti` and `confetti window`: the interactive window.
struct Window: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Open a window and throw confetti in it (the default command).",
    discussion: WindowApp.controls
  )

  @OptionGroup(title: "Effect")
  var effect: EffectOptions

  @Option(help: "Seed for every random draw, so a run can be repeated exactly.")
  var seed: UInt64 = 1

  @Option(
    help: ArgumentHelp(
      "The window's initial size in points: WxH, or 720p, 1080p, 1440p, 4k.", valueName: "WxH"))
  var size: PixelSize = PixelSize(width: 1280, height: 720)

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

  @Option(help: .hidden)
  var exitAfter: Double?

  func validate() throws {
    if watch, effect.config == nil {
      throw ValidationError("--watch needs a --config file to watch")
    }
    if !overlay, overlayOptions.isGiven {
      throw ValidationError(
        "--monitor, --duration and --loop go with --overlay (or use confetti overlay)")
    }
    let most = ConfettiSystem.maximumCapacity
    guard (1...most).contains(capacity) else {
      throw ValidationError("--capacity must be between 1 and \(most), not \(capacity)")
    }
    try size.checkDrawable(as: "--size")
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

/// `confetti bench`: a headless stress run, with its baselines measured in the same run.
struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Measure frames of N particles, headless, beside baselines measured in the same run.",
    discussion: """
      Modes: gpu (the product: the vertex shader evaluates the motion), cpu (Swift evaluates it \
      for each particle every frame, the usual way, and uploads the results), cpu-simd (the \
      same formulas as the shader, eight particles at a time with SIMD, on every core: a careful \
      CPU path), floor (the same sprites drawn with no motion at all). Every mode draws the \
      same picture. Without --preset or --config, the particles are the classic cannon's.
      """
  )

  @OptionGroup(title: "Effect")
  var effect: EffectOptions

  @Option(
    help: ArgumentHelp("Particles alive throughout (also: confetti --bench N).", valueName: "N"))
  var particles: Int?

  @Option(
    help: ArgumentHelp(
      "--compare at each of these particle counts, a table and a plot.", valueName: "N,N,..."))
  var sweep: String?

  @Flag(help: "Run every mode in turn (and gpu as each primitive) and print their ratios.")
  var compare = false

  @Option(help: "The one mode to run.")
  var mode: BenchMode = .gpu

  @Flag(help: "Particles keep being re-born (the cost of spawning and uploading).")
  var churn = false

  @Option(help: "Seconds measured per mode (default 10; 3 per count in a sweep).")
  var seconds: Double?

  @Option(help: "Frames measured per mode, instead of --seconds.")
  var frames: Int?

  @Flag(help: "Print one JSON object on stdout instead of tables.")
  var json = false

  @Option(
    help: ArgumentHelp(
      "Where a sweep writes its SVG plot of median frame time against N (default: "
        + "\(Self.defaultPlot))."),
    completion: .file(extensions: ["svg"]))
  var plot: String?

  static let defaultPlot = "confetti-sweep.svg"

  @Option(help: "Seed for every random draw, so a run can be repeated exactly.")
  var seed: UInt64 = 1

  @Option(
    help: ArgumentHelp(
      "The framebuffer's size in pixels: WxH, or 720p, 1080p, 1440p, 4k.", valueName: "WxH"))
  var size: PixelSize = PixelSize(width: 1920, height: 1080)

  func validate() throws {
    let most = ConfettiSystem.maximumCapacity
    for count in try counts() where !(1...most).contains(count) {
      throw ValidationError(
        "the particle count (--particles, --bench or --sweep) must be between 1 and \(most) "
          + "(the records of at most \(most) fit one GL buffer), not \(count)")
    }
    try size.checkDrawable(as: "--size")
    if let seconds, !(seconds.isFinite && seconds > 0 && seconds <= 86_400) {
      throw ValidationError("--seconds must be a number of seconds above 0, at most 86400")
    }
    if let frames, !(1...10_000_000).contains(frames) {
      throw ValidationError("--frames must be between 1 and 10000000")
    }
    if seconds != nil, frames != nil {
      throw ValidationError("give --seconds or --frames, not both")
    }
    if churn, mode == .floor, !compare {
      throw ValidationError("--churn has no floor: the floor places each particle once")
    }
    if particles != nil, sweep != nil {
      throw ValidationError("give --particles N (or --bench N) or --sweep N,N,..., not both")
    }
    if sweep != nil, try counts().count < 2 {
      throw ValidationError("--sweep takes two particle counts or more; for one, --particles N")
    }
    if let plot {
      guard sweep != nil else {
        throw ValidationError("--plot draws a sweep's figures: give --sweep N,N,... too")
      }
      guard plot.lowercased().hasSuffix(".svg"), plot.count > 4 else {
        throw ValidationError(
          "--plot writes an SVG file: give a name ending in .svg, not '\(plot)'")
      }
    }
  }

  func run() throws {
    try reportingFailures {
      let sweeping = sweep != nil
      let loaded = try effect.load(fallback: Presets.benchmarkName)
      let plan = BenchPlan(
        modes: compare || sweeping ? BenchPlan.comparedModes(churn: churn) : [mode],
        width: size.width, height: size.height,
        seconds: frames == nil ? (seconds ?? (sweeping ? 3 : 10)) : nil, frames: frames,
        churn: churn, seed: seed, effect: loaded.config, reduceMotion: effect.wantsReducedMotion,
        build: Bench.build)
      try Bench(
        counts: try counts(), plan: plan, json: json,
        plot: sweeping ? plot ?? Self.defaultPlot : nil, effect: loaded,
        inputs: effect.files(of: loaded), primitive: effect.primitive
      ).run()
    }
  }

  /// The particle counts to bench: --particles' one (100,000 by default), or --sweep's list.
  func counts() throws -> [Int] {
    guard let sweep else { return [particles ?? 100_000] }
    let counts = sweep.split(separator: ",", omittingEmptySubsequences: false).map {
      Int($0.trimmed)
    }
    guard !counts.isEmpty, counts.allSatisfy({ $0 != nil }) else {
      throw ValidationError("--sweep takes particle counts separated by commas, like 1000,10000")
    }
    return counts.map { $0! }
  }
}

/// `confetti presets list|show NAME`.
struct PresetsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "presets",
    abstract: "The named effects: list them, or print one to copy and edit.",
    subcommands: [List.self, Show.self],
    defaultSubcommand: List.self
  )

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Each preset and what it does.")

    func run() throws {
      try reportingFailures {
        for name in Presets.names {
          print(
            name + String(repeating: " ", count: max(18 - name.count, 0))
              + (try Presets.named(name).summary))
        }
      }
    }
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "A preset's configuration file, to copy, edit and use with --config.")

    @Argument(help: "The preset's name.", completion: .list(Presets.names))
    var name: String

    func validate() throws {
      guard Presets.names.contains(name) else {
        throw ValidationError(
          "no preset named \"\(name)\"; the presets are \(Presets.names.joined(separator: ", "))")
      }
    }

    func run() throws {
      print(Presets.source(of: name)!, terminator: "")
    }
  }
}

/// `confetti schema`: the configuration format as a JSON Schema, for editors.
struct SchemaCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schema",
    abstract: "Print the configuration format as a JSON Schema, for editors' completion and checks."
  )

  func run() throws {
    print(ConfigSchema.jsonSchema())
  }
}

/// `confetti version`: the version, and with --verbose where it came from, what it would draw
/// with and its licence.
struct VersionCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "version",
    abstract: "Print the version; --verbose adds the commit, the GL renderer and the licence."
  )

  @Flag(name: .shortAndLong, help: "Add the commit, the renderer it would use and the licence.")
  var verbose = false

  func run() throws {
    print("confetti \(ConfettiVersion.current)")
    guard verbose else { return }
    print("commit: \(buildCommit)")
    print("renderer: \(Self.renderer)")
    print("licence: MIT (LICENSE in the source; /usr/share/doc/confetti/copyright when installed)")
  }

  /// The renderer a headless context gets here, or why there is none.
  static var renderer: String {
    do {
      let context = try DriverMessages.silenced { try HeadlessContext() }
      return "\(context.info.renderer), \(context.info.version) (headless; a window may differ)"
    } catch {
      return "none: \(error)"
    }
  }
}

/// Runs `body`; a failure becomes one line on stderr, "confetti: …", and exit code 1.
func reportingFailures(_ body: () throws -> Void) throws {
  do {
    try body()
  } catch let error as ExitCode {
    throw error
  } catch let error as InterruptedError {
    say("\(error)")
    throw ExitCode(128 + error.signal)
  } catch {
    say("\(error)")
    throw ExitCode.failure
  }
}

/// A size given as WIDTHxHEIGHT, or by name (1080p), on the command line.
extension PixelSize: ExpressibleByArgument {
  public init?(argument: String) { self.init(parsing: argument) }

  public var defaultValueDescription: String { description }

  /// Throws unless a GL could draw a framebuffer this size (`option` names it in the message).
  func checkDrawable(as option: String) throws {
    guard width <= Self.largest, height <= Self.largest else {
      throw ValidationError(
        "\(option) \(self) is larger than any GL can draw (\(Self.largest)x\(Self.largest) at most)"
      )
    }
  }
}

extension BenchMode: ExpressibleByArgument {}
