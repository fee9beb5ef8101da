import ArgumentParser

/// The parser's completion script for `shell`, where confetti adds to it; nil for the parser's
/// own. Each shell's offers the window's options at the top level too, where they are taken
/// (`confetti --preset <Tab>` offers the presets, as the README writes it), not the subcommands
/// alone.
///
/// The parser's scripts offer a default subcommand's options only after its name, and it has
/// no setting for that: so a few lines go into its script, before a line of it found by its
/// text. A script written otherwise (another version of the parser) is left as it is.
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
