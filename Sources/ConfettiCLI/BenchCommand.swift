import ArgumentParser
import Confetti
import ConfettiBench
import ConfettiCore
import ConfettiGL
import ConfettiPlatform
import Glibc

/// `confetti bench`: a headless stress run, with its baselines measured in the same run.
struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Measure frames of N particles, headless, beside baselines measured in the same run.",
    discussion: """
      Modes: gpu (the product: the vertex shader evaluates the motion), cpu (Swift evaluates it \
      for each particle every frame, the usual way, and uploads the results), cpu-simd (the \
      same formulas as the shader, eight particles at a time with SIMD, on every core: a careful \
      CPU path), floor (the same sprites drawn with no motion at all). Every mode draws the \
      same picture. Without --preset or --config, the particles are the classic cannon's.
      """
  )

  @OptionGroup(title: "Effect")
  var effect: EffectOptions

  @Option(
    help: ArgumentHelp("Particles alive throughout (also: confetti --bench N).", valueName: "N"))
  var particles: Int?

  @Option(
    help: ArgumentHelp(
      "--compare at each of these particle counts, a table and a plot.", valueName: "N,N,..."))
  var sweep: String?

  @Flag(help: "Run every mode in turn (and gpu as each primitive) and print their ratios.")
  var compare = false

  @Option(help: "The one mode to run.")
  var mode: BenchMode = .gpu

  @Flag(help: "Particles keep being re-born (the cost of spawning and uploading).")
  var churn = false

  @Option(help: "Seconds measured per mode (default 10; 3 per count in a sweep).")
  var seconds: Double?

  @Option(help: "Frames measured per mode, instead of --seconds.")
  var frames: Int?

  @Flag(help: "Print one JSON object on stdout instead of tables.")
  var json = false

  @Option(
    help: ArgumentHelp(
      "Where a sweep writes its SVG plot of median frame time against N (default: "
        + "\(Self.defaultPlot))."),
    completion: .file(extensions: ["svg"]))
  var plot: String?

  static let defaultPlot = "confetti-sweep.svg"

  @Option(help: "Seed for every random draw, so a run can be repeated exactly.")
  var seed: UInt64 = 1

  @Option(
    help: ArgumentHelp(
      "The framebuffer's size in pixels: WxH, or 720p, 1080p, 1440p, 4k. "
        + Self.defaultSize.defaultInHelp, valueName: "WxH"),
    transform: PixelSize.parsing(argument:))
  var size = Self.defaultSize

  /// The framebuffer's size when none is given.
  static let defaultSize = PixelSize(width: 1920, height: 1080)

  func validate() throws {
    let naming = "--particles, --bench or --sweep"
    if let refusal = BenchPlan.countRefusal(try counts(), naming: naming) {
      throw ValidationError(refusal)
    }
    if let refusal = size.drawableRefusal(as: "--size") { throw ValidationError(refusal) }
    if let seconds, !(seconds.isFinite && seconds > 0 && seconds <= 86_400) {
      throw ValidationError("--seconds must be a number of seconds above 0, at most 86400")
    }
    if let frames, !(1...10_000_000).contains(frames) {
      throw ValidationError("--frames must be between 1 and 10000000")
    }
    if seconds != nil, frames != nil {
      throw ValidationError("give --seconds or --frames, not both")
    }
    if churn, mode == .floor, !compare {
      throw ValidationError("--churn has no floor: the floor places each particle once")
    }
    if particles != nil, sweep != nil {
      throw ValidationError("give --particles N (or --bench N) or --sweep N,N,..., not both")
    }
    if sweep != nil, try counts().count < 2 {
      throw ValidationError("--sweep takes two particle counts or more; for one, --particles N")
    }
    if let plot {
      guard sweep != nil else {
        throw ValidationError("--plot draws a sweep's figures: give --sweep N,N,... too")
      }
      guard plot.lowercased().hasSuffix(".svg"), plot.count > 4 else {
        throw ValidationError(
          "--plot writes an SVG file: give a name ending in .svg, not '\(plot)'")
      }
    }
  }

  func run() throws {
    try reportingFailures {
      let sweeping = sweep != nil
      let loaded = try effect.load(fallback: Presets.benchmarkName)
      let plan = BenchPlan(
        modes: compare || sweeping ? BenchPlan.comparedModes(churn: churn) : [mode],
        width: size.width, height: size.height,
        seconds: frames == nil ? (seconds ?? (sweeping ? 3 : 10)) : nil, frames: frames,
        churn: churn, seed: seed, effect: loaded.config, reduceMotion: effect.wantsReducedMotion,
        build: BenchPlan.currentBuild)
      let session = BenchSession(
        plan: plan, counts: try counts(), primitive: effect.primitive,
        plot: sweeping ? plot ?? Self.defaultPlot : nil, inputs: effect.files(of: loaded))
      var progress = BenchProgress()
      let outcome = try session.run(
        images: loaded.images(for:),
        started: { info, platform in
          guard !json else { return }
          print(plan.header(info: info, platform: platform), terminator: "")
          fflush(nil)  // before the progress lines on stderr
        },
        measured: { count, rows, results in
          progress = BenchProgress()  // each count's from its own start
          guard !json else { return }
          print("")
          print(BenchPlan.table(count: count, rows: rows, results: results), terminator: "")
        },
        progress: { what, elapsed in
          if let line = progress.line(what, elapsed: elapsed) { StandardStreams.writeError(line) }
        })
      if let plot = outcome.plot, !json {
        print("plot of median frame time and app CPU time against N: \(plot)")
      }
      if json {
        let report = try plan.report(sweep: outcome.sweep, rows: outcome.rows, info: outcome.info)
        print(String(decoding: report, as: UTF8.self))
      }
    }
  }

  /// The particle counts to bench: --particles' one (100,000 by default), or --sweep's list.
  func counts() throws -> [Int] {
    guard let sweep else { return [particles ?? 100_000] }
    guard let counts = BenchPlan.counts(listed: sweep) else {
      throw ValidationError("--sweep takes particle counts separated by commas, like 1000,10000")
    }
    return counts
  }
}

/// A mode, as its name: gpu, cpu, cpu-simd or floor.
extension BenchMode: ExpressibleByArgument {}
