import Confetti
import ConfettiBench
import ConfettiCore
import ConfettiGL
import ConfettiImage
import ConfettiPlatform
import FoundationEssentials
import Glibc

/// `confetti bench`: a headless stress run, its baselines measured in the same run
/// (``BenchPlan`` measures; this prints).
struct Bench {
  var counts: [Int]
  var plan: BenchPlan
  var json: Bool
  var plot: String?
  /// The effect, for its pictures.
  var effect: Effect
  /// The files the run reads (the effect's file, its pictures), which the plot must not be.
  var inputs: [String] = []
  /// What the particles are drawn as in every mode.
  var primitive = SpritePrimitive.auto

  #if DEBUG
    static let build = "debug"
  #else
    static let build = "release"
  #endif

  var size: PixelSize { PixelSize(width: plan.width, height: plan.height) }

  func run() throws {
    if let plot {
      // Find out now, not after minutes of measuring, that the plot cannot be written; nothing
      // is created or replaced until it is.
      try OutputFile.check(plot, sparing: inputs)
    }
    let context = try DriverMessages.silenced { try HeadlessContext() }
    // Every GL object below dies on this context: it must outlive them all.
    try withExtendedLifetime(context) { try run(on: context) }
  }

  private func run(on context: HeadlessContext) throws {
    let info = context.info
    let target = try OffscreenTarget(width: size.width, height: size.height, info: info)
    target.bind()
    if !json {
      printHeader(info: info, platform: context.platform)
      fflush(nil)  // before the progress lines on stderr
    }

    let rows = plan.rows(primitive: primitive.resolved(for: info))
    var sweep: [(count: Int, results: [String: ModeResult])] = []
    for count in counts {
      var progress = Progress()
      let results = try plan.measure(
        count: count, rows: rows, info: info, images: effect.images(for:)
      ) { progress.report($0, elapsed: $1) }
      sweep.append((count, results))
      if !json { printTable(count: count, rows: rows, results: results) }
    }
    if let plot, counts.count > 1 {
      try SweepPlot(
        labels: rows.map(\.label),
        points: sweep.map {
          ($0.count, $0.results.mapValues { ($0.frame_ms.median, $0.app_cpu_ms.median) })
        },
        renderer: info.renderer, size: size
      ).write(to: plot)
      if !json { print("plot of median frame time and app CPU time against N: \(plot)") }
    }
    if json {
      print(String(decoding: try plan.report(sweep: sweep, rows: rows, info: info), as: UTF8.self))
    }
  }

  // MARK: Output

  private func printHeader(info: GLInfo, platform: String) {
    print(
      "confetti --bench: \(plan.churn ? "churn" : "steady") scene of \(plan.effect.name)"
        + "\(plan.reduceMotion ? " (reduced motion)" : "") at \(size.width)x\(size.height)")
    print("renderer: \(info.renderer)")
    print("GL version: \(info.version) (EGL \(platform))")
    print("build: \(Self.build)")
    if info.renderer.hasPrefix("llvmpipe") {
      print(
        "note: llvmpipe rasterises on the CPU, some of it (a whole draw, or its last batch) "
          + "after its timer query has ended, so gpu ms understates its work: frame ms (to "
          + "glFinish) is the figure to read")
    }
    if Self.build == "debug" {
      print(
        "WARNING: this is a DEBUG build: figures are not representative. "
          + "Build with: swift build -c release")
    }
  }

  private func printTable(count: Int, rows: [BenchRow], results: [String: ModeResult]) {
    print("")
    print(BenchPlan.table(count: count, rows: rows, results: results), terminator: "")
  }
}

/// A line on stderr every few seconds while a run goes on (stdout stays for the results).
struct Progress {
  private var lastReport: Double = 0

  mutating func report(_ what: String, elapsed: Double) {
    guard elapsed - lastReport >= 3 else { return }
    lastReport = elapsed
    StandardStreams.writeError("bench: \(String(formatting: "%.0f", elapsed)) s: \(what)\n")
  }
}
