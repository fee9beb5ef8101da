import ArgumentParser
import ConfettiCore
import Foundation

@main
enum Main {
  /// `confetti render …` goes straight to its own parser: its options share names with the
  /// window's (--seed, --size), and a parent command would otherwise claim them.
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "render" {
      Render.main(Array(arguments.dropFirst()))
    } else {
      Confetti.main(arguments)
    }
  }
}

struct Confetti: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "confetti",
    abstract: "Physics-based confetti, computed entirely by the GPU's vertex shader.",
    discussion: """
      With no command, opens a window:
        left click   a burst of confetti at the pointer
        space        the cannon: a burst from the bottom edge
        c            clear every particle
        esc, q       quit

      Other commands:
        confetti render …   render moments of a scene to PNG, headless (see confetti render --help)
      """
  )

  @Option(help: "Seed for every random draw, so a run can be repeated exactly.")
  var seed: UInt64 = 1

  @Option(help: "The window's initial size in points, WIDTHxHEIGHT.")
  var size: PixelSize = PixelSize(width: 1280, height: 720)

  @Option(help: "The most particles alive at once; the oldest make way beyond it.")
  var capacity: Int = 100_000

  @Flag(help: "Draw as fast as possible instead of in step with the display.")
  var noVsync = false

  @Option(help: .hidden)
  var exitAfter: Double?

  func validate() throws {
    guard (1...50_000_000).contains(capacity) else {
      throw ValidationError("--capacity must be between 1 and 50000000, not \(capacity)")
    }
    if let exitAfter, !(exitAfter.isFinite && exitAfter >= 0) {
      throw ValidationError("--exit-after must be a finite number of seconds")
    }
  }

  func run() throws {
    try reportingFailures {
      let app = try WindowApp(
        size: size, capacity: capacity, seed: seed, vsync: !noVsync, exitAfter: exitAfter)
      app.run()
    }
  }
}

/// Runs `body`; a failure becomes one line on stderr, "confetti: …", and exit code 1.
func reportingFailures(_ body: () throws -> Void) throws {
  do {
    try body()
  } catch let error as ExitCode {
    throw error
  } catch {
    FileHandle.standardError.write(Data("confetti: \(error)\n".utf8))
    throw ExitCode.failure
  }
}

/// A size given as WIDTHxHEIGHT on the command line.
struct PixelSize: ExpressibleByArgument, Equatable, CustomStringConvertible {
  var width: Int
  var height: Int

  init(width: Int, height: Int) {
    (self.width, self.height) = (width, height)
  }

  init?(argument: String) {
    let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0,
      height > 0
    else { return nil }
    self.init(width: width, height: height)
  }

  var description: String { "\(width)x\(height)" }
  var defaultValueDescription: String { description }
}
