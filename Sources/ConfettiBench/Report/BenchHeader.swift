import ConfettiGL

extension BenchPlan {
  /// The build these figures come from, "debug" or "release": the bench's code, and the
  /// product's it measures, are built alike.
  package static var currentBuild: String {
    #if DEBUG
      return "debug"
    #else
      return "release"
    #endif
  }

  /// What a run of this plan measures, and on what (`info`'s GL, through `platform`'s EGL), as
  /// the bench prints it before its tables: a line each, with a note where the figures need one
  /// (a software GL, a debug build).
  package func header(info: GLInfo, platform: String) -> String {
    var lines = [
      "confetti --bench: \(churn ? "churn" : "steady") scene of \(effect.name)"
        + "\(reduceMotion ? " (reduced motion)" : "") at \(width)x\(height)",
      "renderer: \(info.renderer)",
      "GL version: \(info.version) (EGL \(platform))",
      "build: \(build)",
    ]
    if info.renderer.hasPrefix("llvmpipe") {
      lines.append(
        "note: llvmpipe rasterises on the CPU, some of it (a whole draw, or its last batch) "
          + "after its timer query has ended, so gpu ms understates its work: frame ms (to "
          + "glFinish) is the figure to read")
    }
    if build == "debug" {
      lines.append(
        "WARNING: this is a DEBUG build: figures are not representative. "
          + "Build with: swift build -c release")
    }
    return lines.map { $0 + "\n" }.joined()
  }
}
