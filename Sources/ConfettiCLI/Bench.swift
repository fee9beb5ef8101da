import Confetti
import ConfettiBench
import ConfettiCore
import ConfettiGL
import ConfettiImage
import Foundation

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

  private func printTable(count: Int, rows benchRows: [BenchRow], results: [String: ModeResult]) {
    print("")
    print("N = \(count) particles")
    let header = [
      "mode", "drawn as", "frames", "frame ms: min", "median", "p95", "p99", "max",
      "gpu ms median", "app cpu ms median", "bytes/frame", "particles/s", "px/particle",
    ]
    var rows = [header]
    for row in benchRows {
      guard let r = results[row.label] else { continue }
      rows.append(
        [row.label, r.primitive, "\(r.frames)"]
          + [r.frame_ms.min, r.frame_ms.median, r.frame_ms.p95, r.frame_ms.p99, r.frame_ms.max]
          .map(figure)
          + [
            figure(r.gpu_ms.median), figure(r.app_cpu_ms.median),
            "\(Int(r.upload_bytes_per_frame))", String(format: "%.3g", r.particles_per_second),
            String(format: "%.1f", r.pixels_per_particle),
          ])
    }
    let widths = header.indices.map { column in rows.map { $0[column].count }.max()! }
    for row in rows {
      print(
        zip(row, widths).enumerated().map { column, cell in
          let (text, width) = cell
          return column < 2
            ? text.padding(toLength: width, withPad: " ", startingAt: 0) : text.leftPadded(width)
        }.joined(separator: "  "))
    }
    let ratios = BenchPlan.ratios(results)
    if !ratios.isEmpty {
      print(
        "ratios of medians: "
          + ratios.sorted { $0.key < $1.key }.map {
            "\($0.key) \(String(format: "%.4g", $0.value))"
          }
          .joined(separator: ", "))
    }
  }

}

/// A line on stderr every few seconds while a run goes on (stdout stays for the results).
struct Progress {
  private var lastReport: Double = 0

  mutating func report(_ what: String, elapsed: Double) {
    guard elapsed - lastReport >= 3 else { return }
    lastReport = elapsed
    StandardStreams.writeError("bench: \(String(format: "%.0f", elapsed)) s: \(what)\n")
  }
}

/// A figure for the tables: whole numbers above 100, three or four decimals down to 0.001, and
/// two significant digits (with an exponent) below that.
private func figure(_ value: Double) -> String {
  switch abs(value) {
  case 100...: return String(format: "%.0f", value)
  case 10..<100: return String(format: "%.1f", value)
  case 1..<10: return String(format: "%.2f", value)
  case 0.001..<1: return String(format: "%.4f", value)
  default: return String(format: "%.2g", value)
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    String(repeating: " ", count: max(0, width - count)) + self
  }
}
