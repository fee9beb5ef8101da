import ConfettiPlatform
import Glibc

/// Seconds since an arbitrary start, never going back (CLOCK_MONOTONIC): what a render's
/// stages are timed with.
package func monotonicSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Seconds (or a rate) in messages: at most three decimals, no trailing zeros; three
/// significant digits where three decimals would read 0.
package func format(_ seconds: Double) -> String {
  if seconds > 0, seconds < 0.0005 { return String(formatting: "%.3g", seconds) }
  guard seconds < 1e9 else { return String(seconds) }
  var text = String(formatting: "%.3f", seconds)
  while text.hasSuffix("0") { text.removeLast() }
  if text.hasSuffix(".") { text.removeLast() }
  return text
}
