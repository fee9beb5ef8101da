import ArgumentParser
import Confetti
import ConfettiCore
import ConfettiGL

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
    print("renderer: \(HeadlessContext.rendererLine)")
    print("licence: MIT (LICENSE in the source; /usr/share/doc/confetti/copyright when installed)")
  }
}
