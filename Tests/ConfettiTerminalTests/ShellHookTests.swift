import ConfettiTestSupport
import Foundation
import XCTest

/// `confetti shell-hook bash|zsh|fish`: in each shell, under tmux, a long command that succeeds
/// is celebrated (as `confetti run` celebrates) and a short or failed one is not; without a
/// desktop, or on an X11 one with no compositor, the terminal celebrates and a key ends it.
final class ShellHookTests: XCTestCase {
  /// Each shell as a user starts it, without their own configuration, and how it takes the
  /// hook's snippet.
  let shells: [(name: String, command: [String], load: (String) -> String)] = [
    ("bash", Tmux.bash, { "eval \"$(\($0))\"" }),
    ("zsh", ["env", "PS1=$ ", "zsh", "-f"], { "eval \"$(\($0))\"" }),
    (
      "fish", ["fish", "--no-config", "-C", "function fish_prompt; echo -n '$ '; end"],
      { "\($0) | source" }
    ),
  ]

  /// A stand-in for confetti that notes each start.
  func standIn(in folder: URL) throws -> (program: String, log: String) {
    let program = folder.appendingPathComponent("stand-in").path
    let log = folder.appendingPathComponent("log.txt").path
    try """
    #!/bin/sh
    echo "started $*" >> \(log)
    """.write(toFile: program, atomically: true, encoding: .utf8)
    chmod(program, 0o755)
    return (program, log)
  }

  func lines(of log: String) -> [String] {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
      .map(String.init)
  }

  func testALongSuccessIsCelebratedAndAShortOrFailedOneIsNot() throws {
    for shell in shells {
      _ = try requiredProgram(shell.name, for: "its shell hook")
      let folder = try temporaryDirectory()
      defer {
        _ = try? runProgram(URL(fileURLWithPath: "/usr/bin/pkill"), ["-f", folder.path])
        try? FileManager.default.removeItem(at: folder)
      }
      let (program, log) = try standIn(in: folder)
      let tmux = try Tmux(columns: 100, rows: 30, shell: shell.command, display: ":0")
      var mark = 0
      /// Types `command`, then a mark, and waits for the mark's output: the prompt is back.
      func run(_ command: String) throws {
        mark += 1
        try tmux.type("\(command); echo mark-\(mark)")
        try waitUntil("\(shell.name): the prompt after \(command)", timeout: 60) {
          try tmux.screen().contains("mark-\(mark)\n")
        }
      }
      try tmux.type(
        shell.load(
          "\(confettiBinary.path) shell-hook \(shell.name) --after 1 --preset snow "
            + "--program \(program)"))
      try run("true")
      try run("sh -c 'sleep 1.4; exit 3'")
      try run("sleep 1.4")
      try waitUntil("\(shell.name): the celebration", timeout: 30) { !lines(of: log).isEmpty }
      try run("sleep 0.2")
      try run("sleep 1.4")
      try waitUntil("\(shell.name): the second celebration", timeout: 30) {
        lines(of: log).filter { $0.hasPrefix("started") }.count == 2
      }
      XCTAssertEqual(
        lines(of: log),
        ["started run --preset snow -- true", "started run --preset snow -- true"],
        "\(shell.name): the long successes alone, celebrated as `confetti run` does")
      // Nothing the hook did is seen at the prompt (no job messages).
      XCTAssertFalse(try tmux.screen().contains("Done"), "\(shell.name)")
    }
  }

  func testWithoutADesktopTheTerminalCelebratesUntilAKey() throws {
    try checkTheTerminalCelebrates(display: nil)
  }

  /// An X11 desktop with no compositor cannot show the overlay: the terminal celebrates
  /// instead (the hook once started the overlay in the background, which failed unseen).
  func testOnAnX11DesktopWithNoCompositorTheTerminalCelebrates() throws {
    let display = try startXvfb()
    defer { stopXvfb(display.server) }
    try checkTheTerminalCelebrates(display: display.name)
  }

  private func checkTheTerminalCelebrates(display: String?) throws {
    for shell in shells {
      _ = try requiredProgram(shell.name, for: "its shell hook")
      let tmux = try Tmux(columns: 80, rows: 24, shell: shell.command, display: display)
      try tmux.type(shell.load("\(confettiBinary.path) shell-hook \(shell.name) --after 1"))
      try tmux.type("sleep 1.4; echo slept")
      try waitUntil("\(shell.name): the celebration in the terminal", timeout: 60) {
        try tmux.borrowed
      }
      try tmux.press("x")
      try waitUntil("\(shell.name): the end at a key", timeout: 30) { try !tmux.borrowed }
      XCTAssert(try tmux.screen().contains("slept"), "\(shell.name): the screen given back")
      try waitUntil("\(shell.name): the key at the prompt", timeout: 30) {
        // (fish may suggest how the line goes on, after the key.)
        try tmux.screen().split(separator: "\n").last?.hasPrefix("$ x") == true
      }
    }
  }

  func testBashsHookKeepsADebugTrapOfYourOwn() throws {
    // Your DEBUG trap, then the hook (twice, as a re-read .bashrc would): yours runs on before
    // each command, with the status of the one before and the command about to run.
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appendingPathComponent("yours.log").path
    let hook = "eval \"$(\(confettiBinary.path) shell-hook bash --program /bin/true)\""
    let script = """
      trap 'printf "%s|%s\\n" "$?" "$BASH_COMMAND" >> \(log)' DEBUG
      \(hook)
      \(hook)
      false
      echo "it's here"
      trap -p DEBUG
      """
    let result = try runProgram(URL(fileURLWithPath: "/bin/bash"), ["-c", script])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssert(result.stdout.contains("'__confetti_hook_preexec' DEBUG"), "the hook's trap is set")
    let yours = lines(of: log)
    XCTAssertEqual(yours.filter { $0 == "0|false" }.count, 1, "once a command: \(yours)")
    XCTAssert(yours.contains("1|echo \"it's here\""), "the status before, the command: \(yours)")
  }

  /// What an interactive `shell`, started by `start` with its prompt empty, prints reading
  /// the lines `lines` makes of `source`, the line that reads the shell's hook.
  /// The hook runs `program` (by default one that does nothing and succeeds) after a
  /// command of `after` seconds or more.
  private func interactive(
    _ shell: String, start: String, program: String = "/bin/true", after: Int = 10,
    _ lines: (_ source: String) -> [String]
  ) throws -> String {
    _ = try requiredProgram(shell, for: "its shell hook")
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let hook = folder.appendingPathComponent("hook")
    let made = try confetti(
      ["shell-hook", shell, "--program", program, "--after", String(after)])
    try made.stdout.write(to: hook, atomically: true, encoding: .utf8)
    let input = folder.appendingPathComponent("input")
    try (lines(". '\(hook.path)'").joined(separator: "\n") + "\n")
      .write(to: input, atomically: true, encoding: .utf8)
    return try runProgram(
      URL(fileURLWithPath: "/bin/sh"), ["-c", "\(start) < \"$0\" 2>&1", input.path]
    ).stdout
  }

  /// A PROMPT_COMMAND of your own, as text or as bash 5.1's array, runs on with the status of
  /// the command before it (the hook's own assignment once gave it 0), however often the hook
  /// is read, and one that ends in a semicolon stays good bash.
  func testBashsHookKeepsYourPromptCommandAndItsStatus() throws {
    /// What the PROMPT_COMMAND said, each prompt, in a bash reading `lines`.
    func saw(_ lines: (String) -> [String]) throws -> [String] {
      try interactive("bash", start: "PS1= bash --norc -i", lines)
        .split(separator: "\n").map(String.init).filter { $0.hasPrefix("saw ") }
    }
    XCTAssertEqual(
      try saw { ["PROMPT_COMMAND='echo saw $?;'", $0, $0, "false", "(exit 3)"] },
      ["saw 0", "saw 0", "saw 0", "saw 1", "saw 3"], "text")
    XCTAssertEqual(
      try saw { ["PROMPT_COMMAND=('echo saw $?')", $0, $0, "(exit 4)"] },
      ["saw 0", "saw 0", "saw 0", "saw 4"], "an array")
  }

  /// A shell where an unset variable is an error (bash's `set -u`, zsh's nounset) reads the
  /// hook and runs its prompts without a word (they once complained at every prompt).
  func testTheHooksAreQuietWhereUnsetVariablesAreErrors() throws {
    for (shell, strict, start) in [
      ("bash", "set -u", "PS1= bash --norc -i"), ("zsh", "setopt nounset", "PS1= zsh -f -i"),
    ] {
      let said = try interactive(shell, start: start) { [strict, $0, $0, "false", "echo done"] }
      XCTAssert(said.contains("done"), "\(shell): \(said)")
      for complaint in ["unbound variable", "parameter not set"] {
        XCTAssertFalse(said.contains(complaint), "\(shell): \(said)")
      }
    }
  }

  /// The hook never changes a shell's fate: under `set -e` (with `set -u` and pipefail, a
  /// DEBUG trap of your own, a PROMPT_COMMAND as text or array) a failed command where errexit
  /// lets it be (`! true`, `false || …`) leaves the shell alive, each command sees the status the
  /// one before left, and a celebration that fails (here a program that exits 1 after a
  /// command long enough to be celebrated) is not the shell's failure. (The hook once gave a
  /// status back with a command that failed, and errexit ended the shell.)
  func testTheHooksKeepAShellWithErrexitAlive() throws {
    let bashSetUps: [(name: String, lines: [String])] = [
      ("set -e", ["set -e"]),
      ("set -euo pipefail", ["set -euo pipefail"]),
      ("a DEBUG trap of yours", ["trap ': yours' DEBUG", "set -e"]),
      ("PROMPT_COMMAND as text", ["PROMPT_COMMAND='echo prompt $?'", "set -e"]),
      ("PROMPT_COMMAND as an array", ["PROMPT_COMMAND=('echo prompt $?')", "set -e"]),
    ]
    let commands = [
      "! true", "echo alive 1", "false || echo alive 2 $?", "(exit 3) || echo status $?",
      "sleep 1.2", "echo alive 3",
    ]
    for (shell, setUps, start) in [
      ("bash", bashSetUps, "PS1= bash --norc -i"),
      ("zsh", [("setopt errexit", ["setopt errexit"])], "PS1= zsh -f -i"),
    ] {
      for (name, lines) in setUps {
        let said = try interactive(shell, start: start, program: "/bin/false", after: 1) {
          lines + [$0] + commands
        }
        for line in ["alive 1", "alive 2 1", "status 3", "alive 3"] {
          XCTAssert(
            said.split(separator: "\n").contains { $0.hasSuffix(line) },
            "\(shell), \(name): the shell lived on to say \"\(line)\": \(said)")
        }
      }
    }
  }

  func testTheHookRefusesWhatItCannotDo() throws {
    let shell = try confetti(["shell-hook", "tcsh"])
    XCTAssertEqual(shell.status, 64)
    XCTAssert(shell.stderr.contains("'bash', 'zsh' or 'fish'"), shell.stderr)
    let after = try confetti(["shell-hook", "bash", "--after", "0"])
    XCTAssertEqual(after.status, 64)
    XCTAssert(after.stderr.contains("--after must be 1 to 604800 seconds, not 0"), after.stderr)
    // A quote in the program's path is the shell's to read, not to run.
    let quoted = try confetti(["shell-hook", "bash", "--program", "/tmp/it's"])
    XCTAssertEqual(quoted.status, 0)
    XCTAssert(quoted.stdout.contains("'/tmp/it'\\''s' run -- true"), quoted.stdout)
  }
}
