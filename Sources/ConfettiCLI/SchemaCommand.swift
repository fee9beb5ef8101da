import ArgumentParser
import ConfettiConfig

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
