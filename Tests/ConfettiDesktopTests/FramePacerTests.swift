import ConfettiDesktop
import XCTest

/// The pacer keeps frames a refresh apart where the swap does not wait, and adds nothing where
/// it does.
final class FramePacerTests: XCTestCase {
  func testFramesDrawnFasterThanTheRefreshAreHeldToIt() {
    var pacer = FramePacer(refreshRate: 60)
    let period = 1.0 / 60
    // Each frame takes 2 ms to draw and show, and the swap does not wait.
    var now = 10.0
    var shown: [Double] = []
    for _ in 0..<120 {
      now += 0.002
      shown.append(now)
      now += pacer.wait(shownAt: now)
    }
    let rate = Double(shown.count - 1) / (shown.last! - shown.first!)
    XCTAssertEqual(rate, 60, accuracy: 0.6, "frames a second")
    for (a, b) in zip(shown.dropFirst(), shown.dropFirst(2)) {
      XCTAssertEqual(b - a, period, accuracy: 1e-9)
    }
  }

  func testASwapThatWaitsForTheRefreshIsNotDelayedFurther() {
    var pacer = FramePacer(refreshRate: 60)
    var now = 0.0
    var waited = 0.0
    for _ in 0..<60 {
      now += 1.0 / 60 + 0.0001  // the swap returned at the refresh
      waited += pacer.wait(shownAt: now)
    }
    XCTAssertEqual(waited, 0, "nothing added where the driver paces")
  }

  func testALateFrameIsNotFollowedByABurst() {
    var pacer = FramePacer(refreshRate: 100)
    _ = pacer.wait(shownAt: 0)
    // A frame 0.5 s late (the machine was busy): the next one waits a full period again.
    XCTAssertEqual(pacer.wait(shownAt: 0.5), 0)
    XCTAssertEqual(pacer.wait(shownAt: 0.501), 0.009, accuracy: 1e-9)
  }

  func testAMonitorThatReportsNoRefreshIsTakenAt60() {
    XCTAssertEqual(FramePacer(refreshRate: 0).period, 1.0 / 60, accuracy: 1e-12)
    XCTAssertEqual(FramePacer(refreshRate: 144).period, 1.0 / 144, accuracy: 1e-12)
  }
}
