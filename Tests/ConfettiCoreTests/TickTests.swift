import ConfettiCore
import XCTest

final class TickTests: XCTestCase {
  func testAgeIsExactAcrossTheWrap() {
    // 2^32 ticks is 4096 s: a birth just before the wrap and a reading just after it.
    let birth = Tick(4095.75)
    let now = Tick(4096.25)
    XCTAssertLessThan(now.rawValue, birth.rawValue)
    XCTAssertEqual(now.seconds(since: birth), 0.5)
  }

  func testAgePrecisionDoesNotDependOnUptime() {
    for uptime in [1.0, 1e3, 1e6, 1e8] {
      let birth = Tick(uptime)
      let now = Tick(uptime + 0.123_456)
      // Within one tick (≈ 0.95 µs) of the true age, whatever the uptime.
      XCTAssertEqual(
        now.seconds(since: birth), 0.123_456, accuracy: 1 / Tick.perSecond, "at \(uptime) s")
    }
  }
}
