import FoundationEssentials

/// What `confetti shell-hook` prints: a snippet for bash, zsh or fish to evaluate, that
/// celebrates after any command that took long and succeeded, by running `confetti run`.
package enum ShellHook {
  /// The shells a snippet is written for.
  package enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
  }

  /// The longest wait that can be asked for, in seconds: a week.
  package static let longest = 7 * 24 * 3600

  /// The snippet for `shell`: after a command of `after` seconds or more that exited 0, it runs
  /// `program` (the confetti program, by its full path) as `confetti run -- true`, with the
  /// preset `preset` if one is named.
  package static func snippet(
    for shell: Shell, after: Int, program: String, preset: String?
  ) -> String {
    let arguments = (preset.map { ["--preset", $0] } ?? []).map(quoted)
    let celebrate = ([quoted(program), "run"] + arguments + ["--", "true"])
      .joined(separator: " ")
    return snippet(for: shell, after: after, celebrate: celebrate)
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
