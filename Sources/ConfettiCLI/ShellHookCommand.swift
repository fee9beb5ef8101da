import ArgumentParser
import ConfettiCore
import ConfettiPresets
import FoundationEssentials
import Glibc

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

  enum Shell: String, ExpressibleByArgument, CaseIterable {
    case bash, zsh, fish
  }

  @Argument(help: ArgumentHelp("The shell: bash, zsh or fish.", valueName: "shell"))
  var shell: Shell

  @Option(
    help: ArgumentHelp(
      "How long a command must take to be celebrated, in whole seconds.", valueName: "seconds"))
  var after = 10

  @Option(
    help: ArgumentHelp("A named effect (see confetti presets list).", valueName: "name"),
    completion: .list(Presets.names))
  var preset: String?

  /// The program the snippet runs: by default this one, by its full path.
  @Option(help: .hidden)
  var program: String?

  /// The longest wait that can be asked for: a week.
  static let longest = 7 * 24 * 3600

  func validate() throws {
    guard (1...Self.longest).contains(after) else {
      throw ValidationError("--after must be 1 to \(Self.longest) seconds, not \(after)")
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
    let arguments = (preset.map { ["--preset", $0] } ?? []).map(Self.quoted)
    let celebrate = ([Self.quoted(me), "run"] + arguments + ["--", "true"])
      .joined(separator: " ")
    print(Self.snippet(for: shell, after: after, celebrate: celebrate), terminator: "")
  }

  /// `word` in single quotes, as every one of the three shells reads it.
  static func quoted(_ word: String) -> String {
    "'" + word.replacing("'", with: "'\\''") + "'"
  }

  /// The snippet for `shell` that runs `celebrate` (a command line: `confetti run -- true`)
  /// after a command of `after` seconds or more that exited 0. It celebrates as `run` does:
  /// over the desktop, back once it is on the screen; else (no desktop, or an X11 one with no
  /// compositor) in the terminal, until it is over or a key.
  static func snippet(for shell: Shell, after: Int, celebrate: String) -> String {
    let header = """
      # confetti: a celebration after any command that took \(after) s or more and succeeded
      # (confetti shell-hook \(shell.rawValue)).

      """
    switch shell {
    case .bash:
      return header + """
        # Microseconds (bash 5's EPOCHREALTIME; whole seconds before it).
        __confetti_hook_now() {
          __confetti_hook_time=${EPOCHREALTIME:-$SECONDS.000000}
          __confetti_hook_time=${__confetti_hook_time/[.,]/}
        }
        # Every variable set before it is read: a shell with `set -u` stays quiet.
        __confetti_hook_armed=1 __confetti_hook_started= __confetti_hook_status=0
        __confetti_hook_user_trap=${__confetti_hook_user_trap-}
        # A DEBUG trap of your own goes on running after the hook's, with the same $? and
        # $BASH_COMMAND (taken once: sourcing this again keeps it).
        __confetti_hook_take_trap() {
          eval "set -- $1"
          case ${3-} in *__confetti_hook_preexec*) ;; *) __confetti_hook_user_trap=${3-} ;; esac
        }
        __confetti_hook_take_trap "$(trap -p DEBUG)"
        # Gives $? back. Always called as `__confetti_hook_status_is N && :`: a command that
        # fails before && is no failure to `set -e`, and the list's status is still N.
        __confetti_hook_status_is() { return "$1"; }
        __confetti_hook_preexec() {
          local hook_status=$?
          if [ -n "$__confetti_hook_armed" ]; then
            __confetti_hook_armed=
            __confetti_hook_now
            __confetti_hook_started=$__confetti_hook_time
          fi
          [ -n "$__confetti_hook_user_trap" ] || return 0
          __confetti_hook_status_is "$hook_status" && :
          eval "$__confetti_hook_user_trap"
        }
        __confetti_hook_precmd() {
          __confetti_hook_now
          if [ -n "$__confetti_hook_started" ] && [ "$__confetti_hook_status" = 0 ] &&
            [ $((__confetti_hook_time - __confetti_hook_started)) -ge \(after)000000 ]; then
            \(celebrate) 2>/dev/null || :
          fi
          __confetti_hook_started=
          __confetti_hook_armed=1
        }
        trap '__confetti_hook_preexec' DEBUG
        # The command's status taken first, then given back for a PROMPT_COMMAND of your own
        # (as text, or bash 5.1's array), which runs in between; once, however often this is read.
        case "${PROMPT_COMMAND[*]-}" in
          *__confetti_hook_precmd*) ;;
          *)
            __confetti_hook_first='__confetti_hook_status=$?; __confetti_hook_status_is "$__confetti_hook_status" && :'
            if [[ "$(declare -p PROMPT_COMMAND 2>/dev/null)" == "declare -a"* ]]; then
              PROMPT_COMMAND=("$__confetti_hook_first" "${PROMPT_COMMAND[@]}" __confetti_hook_precmd)
            else
              PROMPT_COMMAND="$__confetti_hook_first
        ${PROMPT_COMMAND-}
        __confetti_hook_precmd"
            fi
            ;;
        esac

        """
    case .zsh:
      return header + """
        autoload -Uz add-zsh-hook
        zmodload -F zsh/datetime p:EPOCHREALTIME
        __confetti_hook_preexec() { __confetti_hook_started=$EPOCHREALTIME }
        __confetti_hook_precmd() {
          local hook_status=$?
          if [[ -n $__confetti_hook_started ]] &&
            (( hook_status == 0 && EPOCHREALTIME - __confetti_hook_started >= \(after) )); then
            \(celebrate) 2>/dev/null || :
          fi
          __confetti_hook_started=
        }
        __confetti_hook_started=  # (set before it is read: a shell with nounset stays quiet)
        add-zsh-hook preexec __confetti_hook_preexec
        add-zsh-hook precmd __confetti_hook_precmd
        # First, to read the command's status before another hook changes it.
        precmd_functions=(__confetti_hook_precmd ${precmd_functions:#__confetti_hook_precmd})

        """
    case .fish:
      return header + """
        function __confetti_hook_postexec --on-event fish_postexec
            set -l hook_status $status
            if test $hook_status -eq 0; and test $CMD_DURATION -ge \(after * 1000)
                \(celebrate) 2>/dev/null
            end
        end

        """
    }
  }
}
