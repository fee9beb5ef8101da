import ConfettiPlatform
import Glibc

/// A render's progress bar on standard error, for a terminal only (any host that renders in
/// one): `rendering ━━━━━━──── 45/120 · 38 fps · 0:01 elapsed · 0:02 left`, then, for an
/// animation, `ffmpeg is finishing clip.webm (120 frames in 0:03)`.
package final class ProgressBar {
  /// Whether the bar is drawn: asked for, and standard error is a terminal.
  package let shown: Bool
  /// The file written, named while ffmpeg finishes it.
  package let out: String
  /// Seconds on a monotonic clock.
  package let now: () -> Double
  /// When the bar was made: the render's start.
  private let started: Double
  /// When the first frame was done: the rate is counted from there, past the GL's set-up.
  private var firstFrame: Double?

  /// A bar for the render of `out`, drawn where `shown` and standard error is a terminal.
  package init(shown: Bool, out: String = "", now: @escaping () -> Double = monotonicSeconds) {
    self.shown = shown && isatty(STDERR_FILENO) != 0
    self.out = out
    self.now = now
    started = now()
  }

  /// Draws the bar at `progress`, over the bar drawn before.
  package func show(_ progress: RenderProgress) {
    guard shown else { return }
    let time = now()
    if firstFrame == nil, progress.done > 0 { firstFrame = time }
    // Frames a second since the first: none yet before the second frame.
    let rate = firstFrame.flatMap { first in
      progress.done > 1 && time > first ? Double(progress.done - 1) / (time - first) : nil
    }
    let line = progress.line(elapsed: time - started, rate: rate, out: out)
    StandardStreams.writeError("\r\(line)\u{1B}[K")
  }

  /// Wipes the bar off its line, for what is said next.
  package func clear() {
    if shown { StandardStreams.writeError("\r\u{1B}[K") }
  }
}

extension RenderProgress {
  /// How many characters wide the bar is.
  private static let barWidth = 30

  /// What a progress bar says `elapsed` seconds into the render, making `rate` frames a
  /// second: `rendering ━━━━━━──── 45/120 · 38 fps · 0:01 elapsed · 0:02 left`, then, for an
  /// animation, `ffmpeg is finishing clip.webm (120 frames in 0:03)` (`out` is the file).
  package func line(elapsed: Double, rate: Double?, out: String) -> String {
    let frames = total == 1 ? "1 frame" : "\(total) frames"
    if finishing {
      return "ffmpeg is finishing \(out) (\(frames) in \(Self.clock(elapsed)))"
    }
    let width = Self.barWidth
    let filled = width * min(done, total) / max(1, total)
    let bar =
      String(repeating: "━", count: filled) + String(repeating: "─", count: width - filled)
    var line = "rendering \(bar) \(done)/\(total)"
    guard let rate, rate > 0 else { return line }
    let left = Double(total - done) / rate
    line += " · \(rate < 10 ? String(formatting: "%.1f", rate) : String(Int(rate.rounded()))) fps"
    line += " · \(Self.clock(elapsed)) elapsed · \(Self.clock(left)) left"
    return line
  }

  /// Seconds as a clock shows them: 0:07, 12:34, 1:02:03.
  package static func clock(_ seconds: Double) -> String {
    let whole = Int(min(max(0, seconds), 359_999).rounded())
    let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
    return hours > 0
      ? String(formatting: "%ld:%02ld:%02ld", hours, minutes, rest)
      : String(formatting: "%ld:%02ld", minutes, rest)
  }
}
