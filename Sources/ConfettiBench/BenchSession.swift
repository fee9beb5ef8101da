import ConfettiCore
import ConfettiGL
import ConfettiImage

/// A whole `confetti bench` run: a headless context of its own, ``BenchPlan``'s rows measured
/// at each particle count in turn, and a sweep's plot written. The program hears each step, to
/// print it.
package struct BenchSession {
  /// What is measured, and how.
  package var plan: BenchPlan
  /// The particle counts, measured in this order: one, or a sweep's several.
  package var counts: [Int]
  /// What the particles are drawn as in every mode (auto: the fastest on this GL).
  package var primitive: SpritePrimitive
  /// Where a sweep writes its SVG plot; nil: nowhere.
  package var plot: String?
  /// The files the run reads (the effect's file, its pictures), which the plot must not be.
  package var inputs: [String]

  /// A session of `plan` at each of `counts`, its plot (for more than one count) to `plot`.
  package init(
    plan: BenchPlan, counts: [Int], primitive: SpritePrimitive, plot: String?, inputs: [String]
  ) {
    (self.plan, self.counts, self.primitive, self.plot, self.inputs) =
      (plan, counts, primitive, plot, inputs)
  }

  /// What a session measured: the GL it ran on, the rows, and each count's figures by row.
  package struct Outcome {
    /// The GL the figures were measured on.
    package var info: GLInfo
    /// The rows measured, in the order printed.
    package var rows: [BenchRow]
    /// Each count's figures, by row label.
    package var sweep: [(count: Int, results: [String: ModeResult])]
    /// Where the plot was written; nil: none was.
    package var plot: String?
  }

  /// Measures every count, then writes the plot. `started` hears the GL and its platform once
  /// the context is made; `measured`, each count's figures as they are done; `progress`, what
  /// runs with the seconds elapsed. `images` makes the pictures of a scene's shape table.
  /// Throws before measuring anything when the plot cannot be written.
  package func run(
    images: (ShapeTable) throws -> [RGBAImage], started: (GLInfo, String) -> Void,
    measured: (Int, [BenchRow], [String: ModeResult]) -> Void,
    progress: (String, Double) -> Void
  ) throws -> Outcome {
    if let plot {
      // Find out now, not after minutes of measuring, that the plot cannot be written; nothing
      // is created or replaced until it is.
      try OutputFile.check(plot, sparing: inputs)
    }
    let context = try DriverMessages.silenced { try HeadlessContext() }
    // Every GL object below dies on this context: it must outlive them all.
    return try withExtendedLifetime(context) {
      let info = context.info
      let target = try OffscreenTarget(width: plan.width, height: plan.height, info: info)
      target.bind()
      started(info, context.platform)
      let rows = plan.rows(primitive: primitive.resolved(for: info))
      var outcome = Outcome(info: info, rows: rows, sweep: [])
      for count in counts {
        let results = try plan.measure(
          count: count, rows: rows, info: info, images: images, progress: progress)
        outcome.sweep.append((count, results))
        measured(count, rows, results)
      }
      if let plot, counts.count > 1 {
        try SweepPlot(
          labels: rows.map(\.label),
          points: outcome.sweep.map {
            ($0.count, $0.results.mapValues { ($0.frame_ms.median, $0.app_cpu_ms.median) })
          },
          renderer: info.renderer, size: PixelSize(width: plan.width, height: plan.height)
        ).write(to: plot)
        outcome.plot = plot
      }
      return outcome
    }
  }
}
