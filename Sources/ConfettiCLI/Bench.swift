import Confetti
import ConfettiBench
import ConfettiCore
import ConfettiGL
import ConfettiImage
import Foundation

/// `confetti bench`: a headless stress run, its baselines measured in the same run.
struct Bench {
  var counts: [Int]
  var modes: [BenchMode]
  var size: PixelSize
  var seconds: Double?
  var frames: Int?
  var churn: Bool
  var seed: UInt64
  var json: Bool
  var plot: String?
  /// The effect whose particles fill the scene.
  var effect: Effect
  /// The files the run reads (the effect's file, its pictures), which the plot must not be.
  var inputs: [String] = []
  var reduceMotion = false
  /// What the particles are drawn as in every mode.
  var primitive = SpritePrimitive.auto

  /// The effect's name as the reports give it.
  var effectName: String { effect.config.name }

  #if DEBUG
    static let build = "debug"
  #else
    static let build = "release"
  #endif

  /// The modes --compare runs. With churn, `floor` is left out: it keeps sprites for moments of
  /// the steady loop, and a churning scene has no loop.
  static func comparedModes(churn: Bool) -> [BenchMode] {
    churn ? [.gpu, .cpu, .cpuSIMD] : BenchMode.allCases
  }

  /// What a run measures, one row each: the modes at the chosen `primitive` (resolved), and with
  /// more than one mode the product with every other primitive too, as "gpu quads" and so on.
  static func rows(modes: [BenchMode], primitive: SpritePrimitive) -> [BenchRow] {
    var rows = modes.map { BenchRow(label: $0.rawValue, mode: $0, primitive: primitive) }
    if modes.count > 1, modes.contains(.gpu) {
      let others = SpritePrimitive.concrete.filter { $0 != primitive }
      rows.insert(
        contentsOf: others.map { BenchRow(label: "gpu \($0.rawValue)", mode: .gpu, primitive: $0) },
        at: 1)
    }
    return rows
  }

  /// Modes take turns in this many rounds, so that drift in the machine hits them all alike.
  static let rounds = 5
  /// Frames run before measuring, per mode.
  static let warmUpFrames = 5

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

    let rows = Self.rows(modes: modes, primitive: primitive.resolved(for: info))
    var sweep: [(count: Int, results: [String: ModeResult])] = []
    for count in counts {
      let results = try measure(count: count, rows: rows, info: info)
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
    if json { try printJSON(sweep: sweep, rows: rows, info: info) }
  }

  /// Runs every row for `count` particles, interleaved in rounds.
  private func measure(count: Int, rows: [BenchRow], info: GLInfo) throws -> [String: ModeResult] {
    let window = Size(width: Double(size.width), height: Double(size.height))
    let scenes = try rows.map { _ in try scene(count: count, window: window) }
    let images = try effect.images(for: scenes[0].shapes)
    let runs = try zip(rows, scenes).map {
      try BenchRun(
        mode: $0.mode, scene: $1, churn: churn, images: images, primitive: $0.primitive,
        info: info)
    }
    for run in runs {
      for _ in 0..<Self.warmUpFrames {
        try run.renderFrame(width: size.width, height: size.height, measured: false)
      }
      run.startMeasuring()
    }
    var progress = Progress()
    let begun = ContinuousClock.now
    for round in 0..<Self.rounds {
      // Rotate who goes first, so no mode always follows the same one.
      for index in runs.indices {
        let run = runs[(index + round) % runs.count]
        let roundStart = ContinuousClock.now
        var framesThisRound = 0
        while true {
          if let frames {
            let quota = frames * (round + 1) / Self.rounds - frames * round / Self.rounds
            if framesThisRound >= quota { break }
          } else if let seconds,
            (ContinuousClock.now - roundStart).milliseconds / 1000 >= seconds / Double(Self.rounds)
          {
            break
          }
          try run.renderFrame(width: size.width, height: size.height, measured: true)
          framesThisRound += 1
          progress.report(
            "N=\(count) round \(round + 1)/\(Self.rounds) \(rows[(index + round) % runs.count].label)",
            elapsed: (ContinuousClock.now - begun).milliseconds / 1000)
        }
      }
    }
    var results: [String: ModeResult] = [:]
    for (row, run) in zip(rows, runs) {
      run.finish()
      results[row.label] =
        run.result(
          particles: count, size: PixelRect(width: size.width, height: size.height),
          maxPointSize: info.maxPointSize
        ).rounded
    }
    return results
  }

  // MARK: Output

  private func printHeader(info: GLInfo, platform: String) {
    print(
      "confetti --bench: \(churn ? "churn" : "steady") scene of \(effectName)"
        + "\(reduceMotion ? " (reduced motion)" : "") at \(size.width)x\(size.height)")
    print("renderer: \(info.renderer)")
    print("GL version: \(info.version) (EGL \(platform))")
    print("build: \(Self.build)")
    if info.renderer.hasPrefix("llvmpipe") {
      print(
        "note: llvmpipe rasterises on the CPU after its timer query has ended, so gpu ms "
          + "understates its work: frame ms (to glFinish) is the figure to read")
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
    let ratios = Self.ratios(results)
    if !ratios.isEmpty {
      print(
        "ratios of medians: "
          + ratios.sorted { $0.key < $1.key }.map {
            "\($0.key) \(String(format: "%.4g", $0.value))"
          }
          .joined(separator: ", "))
    }
  }

  /// gpu over each baseline, for frame time, GPU time and app CPU time, where both ran; to four
  /// significant digits.
  static func ratios(_ results: [String: ModeResult]) -> [String: Double] {
    guard let gpu = results[BenchMode.gpu.rawValue] else { return [:] }
    var ratios: [String: Double] = [:]
    for other in [BenchMode.cpu, .cpuSIMD, .floor] {
      guard let base = results[other.rawValue] else { continue }
      let name = "gpu/\(other.rawValue)"
      if base.frame_ms.median > 0 {
        ratios["\(name) frame_ms"] = gpu.frame_ms.median / base.frame_ms.median
      }
      if base.gpu_ms.median > 0 {
        ratios["\(name) gpu_ms"] = gpu.gpu_ms.median / base.gpu_ms.median
      }
      if base.app_cpu_ms.median > 0 {
        ratios["\(name) app_cpu_ms"] = gpu.app_cpu_ms.median / base.app_cpu_ms.median
      }
    }
    return ratios.mapValues { ratio in
      guard ratio > 0, ratio.isFinite else { return ratio }
      let scale = pow(10, 3 - floor(log10(ratio)))
      return (ratio * scale).rounded() / scale
    }
  }

  /// A fresh scene of `count` of the effect's particles: each mode starts from the same one.
  private func scene(count: Int, window: Size) throws -> BenchScene {
    try BenchScene(
      count: count, window: window, seed: seed, churn: churn,
      effect: effect.config, reduceMotion: reduceMotion)
  }

  private func printJSON(
    sweep: [(count: Int, results: [String: ModeResult])], rows: [BenchRow], info: GLInfo
  ) throws {
    func report(_ count: Int, _ results: [String: ModeResult]) -> JSONReport {
      var report = JSONReport(
        renderer: info.renderer, gl_version: info.version, particles: count, width: size.width,
        height: size.height, build: Self.build, scenario: churn ? "churn" : "steady",
        effect: effectName)
      if rows.count == 1, let only = results[rows[0].label] {
        report.mode = rows[0].label
        report.result = only
      } else {
        // Each mode a whole report of its own, as a single-mode run prints it.
        report.modes = Dictionary(
          uniqueKeysWithValues: results.map { label, result in
            var single = report
            single.mode = label
            single.result = result
            return (label, single)
          })
        report.ratios = Self.ratios(results)
      }
      return report
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data: Data
    if sweep.count == 1 {
      data = try encoder.encode(report(sweep[0].count, sweep[0].results))
    } else {
      data = try encoder.encode(["sweep": sweep.map { report($0.count, $0.results) }])
    }
    print(String(decoding: data, as: UTF8.self))
  }
}

/// One measured row of a bench run: a mode, drawn as a primitive.
struct BenchRow {
  var label: String
  var mode: BenchMode
  var primitive: SpritePrimitive
}

/// The `--json` object: run facts, then either one mode's figures at the top level or
/// `modes` and `ratios` (with `--compare`).
struct JSONReport: Encodable {
  var renderer: String
  var gl_version: String
  var particles: Int
  var width: Int
  var height: Int
  var build: String
  var scenario: String
  var effect: String
  var mode: String?
  var result: ModeResult?
  var modes: [String: JSONReport]?
  var ratios: [String: Double]?

  enum CodingKeys: String, CodingKey {
    case renderer, gl_version, particles, width, height, build, scenario, effect, mode, modes
    case ratios
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(renderer, forKey: .renderer)
    try container.encode(gl_version, forKey: .gl_version)
    try container.encode(particles, forKey: .particles)
    try container.encode(width, forKey: .width)
    try container.encode(height, forKey: .height)
    try container.encode(build, forKey: .build)
    try container.encode(scenario, forKey: .scenario)
    try container.encode(effect, forKey: .effect)
    try container.encodeIfPresent(mode, forKey: .mode)
    try container.encodeIfPresent(modes, forKey: .modes)
    try container.encodeIfPresent(ratios, forKey: .ratios)
    // One mode: its figures sit beside the run facts.
    try result?.encode(to: encoder)
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
