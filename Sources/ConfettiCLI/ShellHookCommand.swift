import ArgumentParser
import ConfettiCore
import ConfettiPresets
import ConfettiTerminal
import FoundationEssentials

/// `confetti shell-hook bash|zsh|fish`: a snippet for the shell to `eval` that celebrates after
/// any command that took long and succeeded.
struct ShellHookCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "shell-hook",
    abstract: "Print a snippet that makes your shell celebrate every long command that succeeds.",
    discussion: """
        eval "$(confetti shell-hook bash)"             # in ~/.bashrc
        eval "$(confetti shell-hook zsh)"              # in ~/.zshrc
        confetti shell-hook fish | source              # in ~/.config/fish/config.fish

      After any command that took --after seconds or more (10 by default) and exited 0, the \
      shell throws confetti as `confetti run` does: over the desktop where there is one, the \
      prompt back as soon as it is on the screen; else (over SSH, in a console, on an X11 \
      desktop with no compositor) in the terminal, before the prompt, where the first key you \
      type ends it and goes to the prompt. Failed, \
      interrupted and short commands are not celebrated. bash's hook uses the DEBUG trap (a \
      DEBUG trap of your own runs on after it) and PROMPT_COMMAND; zsh's, its preexec and precmd \
      hooks; fish's, the fish_postexec event.
      """)

  @Argument(help: ArgumentHelp("The shell: bash, zsh or fish.", valueName: "shell"))
  var shell: ShellHook.Shell

  @Option(
    help: ArgumentHelp(
      "How long a command must take to be celebrated, in whole seconds.", valueName: "seconds"))
  var after = 10

  @Option(
    help: ArgumentHelp("A named effect (see confetti presets list).", valueName: "name"),
    completion: .list(Presets.names))
  var preset: String?

  /// The program the snippet runs: by default this one, by its full path.
  @Option(help: "The confetti program the snippet runs (default: this one, by its full path).")
  var program: String?

  func validate() throws {
    guard (1...ShellHook.longest).contains(after) else {
      throw ValidationError("--after must be 1 to \(ShellHook.longest) seconds, not \(after)")
    }
    if let preset, !Presets.names.contains(preset) {
      throw ValidationError(
        "no preset named \"\(oneLine(preset))\"; the presets are "
          + Presets.names.joined(separator: ", "))
    }
  }

  func run() throws {
    let me =
      program ?? (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? "confetti"
    print(ShellHook.snippet(for: shell, after: after, program: me, preset: preset), terminator: "")
  }
}

/// The shell, as its name: bash, zsh or fish.
extension ShellHook.Shell: ExpressibleByArgument {}
