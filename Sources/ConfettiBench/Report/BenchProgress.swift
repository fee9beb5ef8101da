import ConfettiPlatform

/// The lines that tell how a run goes on, one every few seconds, for standard error (standard
/// output stays for the results).
package struct BenchProgress {
  /// When the last line was told, in seconds from the count's start.
  private var lastReport: Double = 0

  /// Progress from a count's start.
  package init() {}

  /// The line that tells that `what` runs, `elapsed` seconds in, if the last one is 3 s old or
  /// more ("bench: 6 s: N=1000 round 2/5 gpu"); nil otherwise.
  package mutating func line(_ what: String, elapsed: Double) -> String? {
    guard elapsed - lastReport >= 3 else { return nil }
    lastReport = elapsed
    return "bench: \(String(formatting: "%.0f", elapsed)) s: \(what)\n"
  }
}
