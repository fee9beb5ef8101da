import ConfettiExport
import ConfettiPlatform
import Glibc

/// A progress bar on standard error, for a terminal only:
/// `rendering ━━━━━━──── 45/120 · 38 fps · 0:01 elapsed · 0:02 left`, then, for an animation,
/// `ffmpeg is finishing clip.webm (120 frames in 0:03)`.
final class ProgressBar {
  let shown: Bool
  /// The file written, named while ffmpeg finishes it.
  let out: String
  /// Seconds on a monotonic clock.
  let now: () -> Double
  private let started: Double
  /// When the first frame was done: the rate is counted from there, past the GL's set-up.
  private var firstFrame: Double?
  private static let width = 30

  init(shown: Bool, out: String = "", now: @escaping () -> Double = monotonicSeconds) {
    self.shown = shown && isatty(STDERR_FILENO) != 0
    self.out = out
    self.now = now
    started = now()
  }

  func show(_ progress: RenderProgress) {
    guard shown else { return }
    let time = now()
    if firstFrame == nil, progress.done > 0 { firstFrame = time }
    // Frames a second since the first: none yet before the second frame.
    let rate = firstFrame.flatMap { first in
      progress.done > 1 && time > first ? Double(progress.done - 1) / (time - first) : nil
    }
    let line = Self.line(progress, elapsed: time - started, rate: rate, out: out)
    StandardStreams.writeError("\r\(line)\u{1B}[K")
  }

  /// What the bar says `elapsed` seconds into the render, making `rate` frames a second.
  static func line(_ progress: RenderProgress, elapsed: Double, rate: Double?, out: String)
    -> String
  {
    let frames = progress.total == 1 ? "1 frame" : "\(progress.total) frames"
    if progress.finishing {
      return "ffmpeg is finishing \(out) (\(frames) in \(clock(elapsed)))"
    }
    let filled = width * min(progress.done, progress.total) / max(1, progress.total)
    let bar =
      String(repeating: "━", count: filled) + String(repeating: "─", count: width - filled)
    var line = "rendering \(bar) \(progress.done)/\(progress.total)"
    guard let rate, rate > 0 else { return line }
    let left = Double(progress.total - progress.done) / rate
    line += " · \(rate < 10 ? String(formatting: "%.1f", rate) : String(Int(rate.rounded()))) fps"
    line += " · \(clock(elapsed)) elapsed · \(clock(left)) left"
    return line
  }

  /// Seconds as a clock shows them: 0:07, 12:34, 1:02:03.
  static func clock(_ seconds: Double) -> String {
    let whole = Int(min(max(0, seconds), 359_999).rounded())
    let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
    return hours > 0
      ? String(formatting: "%ld:%02ld:%02ld", hours, minutes, rest)
      : String(formatting: "%ld:%02ld", minutes, rest)
  }

  func clear() {
    if shown { StandardStreams.writeError("\r\u{1B}[K") }
  }
}
