import ConfettiCore

/// The distribution of a benchmark measurement: min, median, 95th and 99th percentile, max.
package struct Summary: Equatable, Sendable {
  package var min: Double
  package var median: Double
  package var p95: Double
  package var p99: Double
  package var max: Double

  /// Summarises `samples` with nearest-rank percentiles; all zero when there are none.
  package init(_ samples: [Double]) {
    let sorted = samples.sorted()
    guard let first = sorted.first, let last = sorted.last else {
      (min, median, p95, p99, max) = (0, 0, 0, 0, 0)
      return
    }
    func percentile(_ p: Double) -> Double {
      let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
      return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }
    min = first
    max = last
    p95 = percentile(95)
    p99 = percentile(99)
    median =
      sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
  }
}
