import ArgumentParser
import Confetti
import ConfettiBench
import Foundation

@main
enum Main {
  /// Parses and runs `confetti …`, or `confetti render …`, which goes straight to its own parser:
  /// its options share names with the window's (--seed, --size), and a parent command would
  /// otherwise claim them. Every error is one line on stderr and a non-zero exit code.
  static func main() {
    var arguments = Array(CommandLine.arguments.dropFirst())
    let command: ParsableCommand.Type
    if arguments.first == "render" {
      arguments.removeFirst()
      command = Render.self
    } else {
      command = ConfettiCommand.self
    }
    do {
      var parsed = try command.parseAsRoot(arguments)
      try parsed.run()
    } catch let exit as ExitCode {
      // Already reported by the command itself.
      Foundation.exit(exit.rawValue)
    } catch {
      let code = command.exitCode(for: error)
      guard code != .success else { command.exit(withError: error) }  // --help
      let name = command == Render.self ? "confetti render" : "confetti"
      let message = command.message(for: error).split(separator: "\n").first ?? ""
      FileHandle.standardError.write(
        Data("confetti: \(message) (see '\(name) --help')\n".utf8))
      Foundation.exit(code.rawValue)
    }
  }
}

struct ConfettiCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "confetti",
    abstract: "Physics-based confetti, computed entirely by the GPU's vertex shader.",
    discussion: """
      With no command, opens a window:
        left click   a burst of confetti at the pointer (the effect's click emitters)
        space        the cannon: a burst from the bottom edge (the effect's key emitters)
        p, o         the next, the previous preset
        c            clear every particle
        esc, q       quit

      Other commands:
        confetti render …   render moments of a scene to PNG, headless (see confetti render --help)
        confetti --bench N  a headless stress run with N particles (add --compare, --json)
      """
  )

  @OptionGroup(title: "Effect")
  var effect: EffectOptions

  @Flag(help: "List the presets and what each does.")
  var listPresets = false

  @Option(help: "Seed for every random draw, so a run can be repeated exactly.")
  var seed: UInt64 = 1

  @Option(
    help: ArgumentHelp(
      "The window's initial size in points, WIDTHxHEIGHT (default 1280x720); "
        + "with --bench, the framebuffer's in pixels (default 1920x1080).", valueName: "WxH"))
  var size: PixelSize?

  @Option(help: "The most particles alive at once; the oldest make way beyond it.")
  var capacity: Int = 100_000

  @Option(
    help: ArgumentHelp(
      "Instead of a window: a headless stress run with N particles alive throughout.",
      valueName: "N"))
  var bench: Int?

  @Option(
    help: ArgumentHelp(
      "Instead of a window: --compare at each of these particle counts, a table and a plot.",
      valueName: "N,N,..."))
  var sweep: String?

  @Flag(help: "Bench: run the gpu, cpu and floor modes in turn and print their ratios.")
  var compare = false

  @Option(help: "Bench: the one mode to run (gpu, cpu or floor).")
  var mode: BenchMode = .gpu

  @Flag(help: "Bench: particles keep being re-born (the cost of spawning and uploading).")
  var churn = false

  @Option(help: "Bench: seconds measured per mode (default 10; 3 per count in a sweep).")
  var seconds: Double?

  @Option(help: "Bench: frames measured per mode, instead of --seconds.")
  var frames: Int?

  @Flag(help: "Bench: print one JSON object on stdout instead of tables.")
  var json = false

  @Option(help: "Sweep: where to write the SVG plot of median frame time against N.")
  var plot: String = "confetti-sweep.svg"

  @Flag(help: "Draw as fast as possible instead of in step with the display.")
  var noVsync = false

  @Option(help: .hidden)
  var exitAfter: Double?

  func validate() throws {
    let most = ParticleRenderer.maximumCapacity
    guard (1...most).contains(capacity) else {
      throw ValidationError("--capacity must be between 1 and \(most), not \(capacity)")
    }
    for count in try benchCounts() ?? [] where !(1...most).contains(count) {
      throw ValidationError(
        "the particle count must be between 1 and \(most) (the records of at most \(most) "
          + "fit one GL buffer), not \(count)")
    }
    if let size, size.width > 16384 || size.height > 16384 {
      throw ValidationError("--size \(size) is larger than any GL can draw (16384x16384 at most)")
    }
    if let seconds, !(seconds.isFinite && seconds > 0 && seconds <= 86_400) {
      throw ValidationError("--seconds must be a finite number of seconds above 0")
    }
    if let frames, !(1...10_000_000).contains(frames) {
      throw ValidationError("--frames must be between 1 and 10000000")
    }
    if try benchCounts() == nil, compare || churn || json || seconds != nil || frames != nil {
      throw ValidationError(
        "--compare, --churn, --json, --seconds and --frames go with --bench or --sweep")
    }
    if churn, mode == .floor, !compare {
      throw ValidationError("--churn has no floor: the floor places each particle once")
    }
    if bench != nil, sweep != nil {
      throw ValidationError("give --bench N or --sweep N,N,..., not both")
    }
    if let exitAfter, !(exitAfter.isFinite && exitAfter >= 0) {
      throw ValidationError("--exit-after must be a finite number of seconds")
    }
  }

  func run() throws {
    if listPresets {
      for name in Presets.names {
        print(
          name.padding(toLength: 18, withPad: " ", startingAt: 0)
            + (try Presets.named(name).summary))
      }
      return
    }
    try reportingFailures {
      let loaded = try effect.load(fallback: "confetti")
      if let counts = try benchCounts() {
        let sweeping = sweep != nil
        try Bench(
          counts: counts, modes: compare || sweeping ? Bench.comparedModes(churn: churn) : [mode],
          size: size ?? PixelSize(width: 1920, height: 1080),
          seconds: frames == nil ? (seconds ?? (sweeping ? 3 : 10)) : nil, frames: frames,
          churn: churn, seed: seed, json: json, plot: sweeping ? plot : nil,
          effect: effect.preset != nil || effect.config != nil ? loaded : nil,
          reduceMotion: effect.wantsReducedMotion
        ).run()
      } else {
        let app = try WindowApp(
          size: size ?? PixelSize(width: 1280, height: 720), capacity: capacity, seed: seed,
          effect: loaded, reduceMotion: effect.wantsReducedMotion, vsync: !noVsync,
          exitAfter: exitAfter)
        app.run()
      }
    }
  }

  /// The particle counts to bench: --bench's one, --sweep's list, or nil for the window.
  func benchCounts() throws -> [Int]? {
    if let bench { return [bench] }
    guard let sweep else { return nil }
    let counts = sweep.split(separator: ",", omittingEmptySubsequences: false).map {
      Int($0.trimmingCharacters(in: .whitespaces))
    }
    guard !counts.isEmpty, counts.allSatisfy({ $0 != nil }) else {
      throw ValidationError("--sweep takes particle counts separated by commas, like 1000,10000")
    }
    return counts.map { $0! }
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

extension BenchMode: ExpressibleByArgument {}
