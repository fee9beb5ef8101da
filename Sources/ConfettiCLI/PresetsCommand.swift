import ArgumentParser
import Confetti
import ConfettiCore

/// `confetti presets list|show NAME`.
struct PresetsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "presets",
    abstract: "The named effects: list them, or print one to copy and edit.",
    subcommands: [List.self, Show.self],
    defaultSubcommand: List.self
  )

  /// `confetti presets list`: each preset's name and what it does.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "Each preset and what it does.")

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

  /// `confetti presets show NAME`: a preset's file, as it is.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
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
