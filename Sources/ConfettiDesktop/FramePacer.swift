import ConfettiCore

/// At most one frame a refresh of the monitor, whatever the driver makes of the swap interval:
/// where it is honoured (a real GPU's, a compositor's) the swap itself waits and the pacer adds
/// nothing; where it is not (Xvfb, some remote and software GLs, a compositor that unredirects)
/// frames would follow each other as fast as the CPU draws them, at a core's cost, for frames
/// no one sees.
package struct FramePacer {
  /// Seconds between refreshes.
  package let period: Seconds
  /// When the next frame may be shown, on the wall clock it is given; nil before the first.
  private var next: Seconds?

  /// The refresh a monitor that reports none (0) is taken to have.
  package static let usualRefresh = 60

  /// Pacing for a monitor refreshing `refreshRate` times a second (``usualRefresh`` where it
  /// reports none).
  package init(refreshRate: Int) {
    period = 1 / Double(refreshRate > 0 ? refreshRate : Self.usualRefresh)
  }

  /// After a frame was shown at wall time `now`: how long to wait before drawing the next,
  /// so that frames are a period apart. A frame late by a period or more starts the count
  /// again (no burst to catch up).
  package mutating func wait(shownAt now: Seconds) -> Seconds {
    guard let due = next, now < due, due - now <= period else {
      next = now + period
      return 0
    }
    next = due + period
    return due - now
  }
}
