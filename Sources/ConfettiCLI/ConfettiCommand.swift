import ArgumentParser
import CCrash
import Confetti
import ConfettiCelebration
import ConfettiCore
import ConfettiDesktop
import ConfettiGL
import ConfettiPlatform
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
    SupervisedCommand.keepStartingEnvironment()  // confetti run's command gets it untouched
    DriverMessages.quietDrivers()
    HeapPolicy.keepFreedMemory()  // where refused, frames on a software GL are only slower
    if let refusal = ProgramArguments.refusal(most: largestArgumentCount) {
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
      // The parser's message alone, without its usage (say() writes a newline in it escaped).
      let message = ConfettiCommand.message(for: error)
      say("\(message)\(dashValueHint(message, arguments)) (see '\(helpCommand(for: arguments))')")
      Glibc.exit(code.rawValue)
    }
  }
}

/// For the parser's "Missing value for '--OPTION …'" where the argument after --OPTION begins
/// with '-' (a colour or number it took for an option): how to give such a value.
///
/// The one place the parser's own message is read: only the parser knows which options take a
/// value, and its errors are opaque but for their text. Where the text is otherwise, no hint is
/// added and the parser's message stands alone.
func dashValueHint(_ message: String, _ arguments: [String]) -> String {
  guard message.hasPrefix("Missing value for '--"),
    let option = message.dropFirst("Missing value for '".count).split(separator: " ").first
      .map(String.init),
    let at = arguments.firstIndex(of: option), at + 1 < arguments.count,
    arguments[at + 1].hasPrefix("-"), arguments[at + 1] != "--"
  else { return "" }
  return ": a value that begins with '-' is given as \(option)=\(oneLine(arguments[at + 1]))"
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
    guard let sub = ConfettiCommand.subcommand(of: command, named: argument) else {
      return ("'\(oneLine(argument))'", known)
    }
    (command, known) = (sub, known + [argument])
  }
  return nil
}

/// The help to point at for `arguments`: that of the deepest command they name.
func helpCommand(for arguments: [String]) -> String {
  var command: ParsableCommand.Type = ConfettiCommand.self
  var words = ["confetti"]
  for argument in arguments {
    guard let sub = ConfettiCommand.subcommand(of: command, named: argument) else { break }
    (command, words) = (sub, words + [argument])
  }
  return (words + ["--help"]).joined(separator: " ")
}

/// `confetti`: the root command, whose subcommands are the program's commands.
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
      ServiceCommand.self, VersionCommand.self,
    ],
    defaultSubcommand: Window.self
  )

  /// The subcommands' names, as typed.
  static var subcommandNames: [String] {
    configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
  }

  /// The subcommand of `command` typed as `word`, if any (each names itself in its
  /// configuration).
  static func subcommand(of command: ParsableCommand.Type, named word: String)
    -> ParsableCommand.Type?
  {
    command.configuration.subcommands.first { $0.configuration.commandName == word }
  }
}
