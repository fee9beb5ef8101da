import ConfettiConfig
import ConfettiCore
import ConfettiGL
import ConfettiImage
import FoundationEssentials
import Glibc

/// One measured row of a bench run: a mode, drawn as a primitive.
package struct BenchRow: Equatable, Sendable {
  /// What the row is called in the table and the report: the mode's name, and for the product
  /// drawn as another primitive, "gpu quads" and so on.
  package var label: String
  /// What draws the frames: the product or a baseline.
  package var mode: BenchMode
  /// What the pieces are drawn as.
  package var primitive: SpritePrimitive

  /// The row `label`: `mode` drawing `primitive`.
  package init(label: String, mode: BenchMode, primitive: SpritePrimitive) {
    (self.label, self.mode, self.primitive) = (label, mode, primitive)
  }
}

/// What `confetti bench` measures and how: the rows, the scenes, the rounds the modes take turns
/// in, and the JSON report. The program adds only its printing around it.
package struct BenchPlan: Sendable {
  /// The modes measured, in the table's order.
  package var modes: [BenchMode]
  /// The framebuffer's width in pixels, and the scene's in points.
  package var width: Int
  /// The framebuffer's height in pixels, and the scene's in points.
  package var height: Int
  /// Seconds measured per mode (split over the rounds), or else ``frames``.
  package var seconds: Double?
  /// Frames measured per mode (split over the rounds).
  package var frames: Int?
  /// Particles keep being born (N / 3 s per second) instead of one steady loop.
  package var churn: Bool
  /// Every random draw of the scene comes from it.
  package var seed: UInt64
  /// The effect whose particles fill the scene.
  package var effect: EffectConfig
  /// Each piece appears near where its motion would take it and fades in place.
  package var reduceMotion: Bool
  /// "debug" or "release": the build measured, said in the report.
  package var build: String

  /// A plan measuring `modes` as the other arguments say (each is the member of its name).
  package init(
    modes: [BenchMode], width: Int, height: Int, seconds: Double?, frames: Int?, churn: Bool,
    seed: UInt64, effect: EffectConfig, reduceMotion: Bool, build: String
  ) {
    (self.modes, self.width, self.height, self.seconds, self.frames) =
      (modes, width, height, seconds, frames)
    (self.churn, self.seed, self.effect, self.reduceMotion, self.build) =
      (churn, seed, effect, reduceMotion, build)
  }

  /// Modes take turns in this many rounds, so that drift in the machine hits them all alike.
  package static let rounds = 5
  /// Frames run before measuring, per mode.
  package static let warmUpFrames = 5

  /// The modes --compare runs. With churn, `floor` is left out: it keeps sprites for moments of
  /// the steady loop, and a churning scene has no loop.
  package static func comparedModes(churn: Bool) -> [BenchMode] {
    churn ? [.gpu, .cpu, .cpuSIMD] : BenchMode.allCases
  }

  /// What a run measures, one row each: the modes at the chosen `primitive` (resolved), and with
  /// more than one mode the product with every other primitive too, as "gpu quads" and so on.
  package func rows(primitive: SpritePrimitive) -> [BenchRow] {
    var rows = modes.map { BenchRow(label: $0.rawValue, mode: $0, primitive: primitive) }
    if modes.count > 1, modes.contains(.gpu) {
      let others = SpritePrimitive.concrete.filter { $0 != primitive }
      rows.insert(
        contentsOf: others.map { BenchRow(label: "gpu \($0.rawValue)", mode: .gpu, primitive: $0) },
        at: 1)
    }
    return rows
  }

  /// Runs every row for `count` particles on the current context into the bound framebuffer,
  /// interleaved in rounds, and returns each row's figures by label. `images` makes the pictures
  /// of the scene's shape table; `progress` hears what runs, with the seconds elapsed.
  package func measure(
    count: Int, rows: [BenchRow], info: GLInfo, images: (ShapeTable) throws -> [RGBAImage],
    progress: (String, Double) -> Void = { _, _ in }
  ) throws -> [String: ModeResult] {
    let window = Size(width: Double(width), height: Double(height))
    let scenes = try rows.map { _ in
      try BenchScene(
        count: count, window: window, seed: seed, churn: churn, effect: effect,
        reduceMotion: reduceMotion)
    }
    let pictures = try images(scenes[0].shapes)
    let runs = try zip(rows, scenes).map {
      try BenchRun(
        mode: $0.mode, scene: $1, churn: churn, images: pictures, primitive: $0.primitive,
        info: info)
    }
    for run in runs {
      for _ in 0..<Self.warmUpFrames {
        try run.renderFrame(width: width, height: height, measured: false)
      }
      run.startMeasuring()
    }
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
          } else if let seconds, framesThisRound > 0,
            (ContinuousClock.now - roundStart).milliseconds / 1000 >= seconds / Double(Self.rounds)
          {
            // A round measures one frame at least, however short its share of --seconds.
            break
          }
          try run.renderFrame(width: width, height: height, measured: true)
          framesThisRound += 1
          let label = rows[(index + round) % runs.count].label
          progress(
            "N=\(count) round \(round + 1)/\(Self.rounds) \(label)",
            (ContinuousClock.now - begun).milliseconds / 1000)
        }
      }
    }
    var results: [String: ModeResult] = [:]
    for (row, run) in zip(rows, runs) {
      run.finish()
      results[row.label] =
        run.result(
          particles: count, size: PixelRect(width: width, height: height), info: info
        ).rounded
    }
    return results
  }

  /// gpu over each baseline, for frame time, GPU time and app CPU time, where both ran; to four
  /// significant digits.
  package static func ratios(_ results: [String: ModeResult]) -> [String: Double] {
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

  /// The `--json` report of a run of `rows` at each count of `sweep`: one object for one count,
  /// `{"sweep": [...]}` for several, on one line, every object's keys sorted. Each object
  /// holds the run's facts, then one mode's figures beside them (`mode` and its figures), or,
  /// with more than one row, `modes` (each mode's own object, as a single-mode run writes it)
  /// and `ratios`.
  package func report(
    sweep: [(count: Int, results: [String: ModeResult])], rows: [BenchRow], info: GLInfo
  ) throws -> Data {
    /// A count as a JSON number.
    func number(_ value: Int) -> JSONValue { .number(Double(value)) }
    /// What was run on what: the same in every object of a count.
    func facts(_ count: Int) -> [(key: String, value: JSONValue)] {
      [
        ("renderer", .string(info.renderer)), ("gl_version", .string(info.version)),
        ("particles", number(count)), ("width", number(width)), ("height", number(height)),
        ("build", .string(build)), ("scenario", .string(churn ? "churn" : "steady")),
        ("effect", .string(effect.name)),
      ]
    }
    /// One mode's object: the facts, the mode, its figures.
    func single(_ count: Int, _ mode: String, _ result: ModeResult) -> JSONValue {
      .object(facts(count) + [("mode", .string(mode))] + result.jsonMembers)
    }
    /// The object of one count's run.
    func report(_ count: Int, _ results: [String: ModeResult]) -> JSONValue {
      if rows.count == 1, let only = results[rows[0].label] {
        return single(count, rows[0].label, only)
      }
      return .object(
        facts(count) + [
          ("modes", .object(results.map { ($0.key, single(count, $0.key, $0.value)) })),
          ("ratios", .object(Self.ratios(results).map { ($0.key, .number($0.value)) })),
        ])
    }
    let json: JSONValue =
      sweep.count == 1
      ? report(sweep[0].count, sweep[0].results)
      : .object([("sweep", .array(sweep.map { report($0.count, $0.results) }))])
    return Data(try json.sortedByKey.text(.oneLine).utf8)
  }
}

extension ModeResult {
  /// The figures as a report writes them, beside the run's facts.
  var jsonMembers: [(key: String, value: JSONValue)] {
    [
      ("primitive", .string(primitive)), ("frames", .number(Double(frames))),
      ("frame_ms", frame_ms.json), ("gpu_ms", gpu_ms.json), ("app_cpu_ms", app_cpu_ms.json),
      ("upload_bytes_per_frame", .number(upload_bytes_per_frame)),
      ("particles_per_second", .number(particles_per_second)),
      ("pixels_per_particle", .number(pixels_per_particle)),
    ]
  }
}

extension Summary {
  /// The distribution as a report writes it.
  var json: JSONValue {
    .object([
      ("min", .number(min)), ("median", .number(median)), ("p95", .number(p95)),
      ("p99", .number(p99)), ("max", .number(max)),
    ])
  }
}
