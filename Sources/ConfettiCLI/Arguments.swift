/// The most arguments the program takes (a command line needs some dozens at most).
let largestArgumentCount = 1024

/// The spellings the command line had before it had subcommands, still accepted:
/// `confetti --bench N …` is `confetti bench N …`, `confetti --sweep …` is
/// `confetti bench --sweep …`, `confetti --list-presets` is `confetti presets list`. And a
/// negative number after an option is that option's value (`--time -1` is `--time=-1`), so
/// that it gets the option's own message instead of "missing value".
enum Shorthands {
  /// `arguments` as the parser takes them: each old spelling written as it is now.
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

  /// `arguments` with each negative number after an option joined to it (`--time=-1`).
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
