import Glibc

/// Where the time goes between the program's start and its first frame on the screen, stage by
/// stage: what `confetti overlay --timings` says (and the time-to-screen benchmark reads).
/// Each stage is marked as it ends; the first mark is the program's `main`.
package enum StartTimings {
  nonisolated(unsafe) private static var marks: [(stage: String, at: Double)] = []
  /// Whether the stages are said when the first frame is on the screen.
  nonisolated(unsafe) package static var isShown = false

  /// Seconds on the monotonic clock.
  package static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Forgets the stages so far, and counts from `start`, now.
  package static func restart(at start: String) {
    marks = [(start, now())]
  }

  /// Notes that `stage` has ended, now (once: a stage marked again keeps its first time).
  package static func mark(_ stage: String) {
    guard !marks.contains(where: { $0.stage == stage }) else { return }
    marks.append((stage, now()))
  }

  /// The stages so far, each with its milliseconds, and their sum: `display 9 ms, …; 150 ms
  /// from main`.
  package static var summary: String {
    guard let first = marks.first else { return "no stage was marked" }
    var parts: [String] = []
    var previous = first.at
    for mark in marks.dropFirst() {
      parts.append("\(mark.stage) \(Int(((mark.at - previous) * 1000).rounded())) ms")
      previous = mark.at
    }
    let total = Int(((previous - first.at) * 1000).rounded())
    return parts.joined(separator: ", ") + "; \(total) ms from \(first.stage)"
  }

  /// Marks the first frame on the screen and, if asked, says every stage on standard error.
  package static func firstFrameShown() {
    mark("first frame")
    guard isShown else { return }
    isShown = false
    let line = "timings: " + summary + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer {
      write(STDERR_FILENO, $0.baseAddress, $0.count - 1)
    }
  }
}
