import ConfettiCore
import ConfettiPresets
import XCTest

final class TickTests: XCTestCase {
  /// Every moment an effect computes from a host's latest reading is still a tick: fireworks'
  /// shells start sparks and crackle lifetimes after the reading they were fired at.
  func testTheLatestHostReadingLeavesRoomForWhatAnEffectSchedules() throws {
    XCTAssertFalse(Tick.isValid(reading: Tick.latestHostReading))
    XCTAssertFalse(Tick.isValid(reading: Tick.latestReading - 1))
    let latest = Tick.latestHostReading.nextDown
    XCTAssert(Tick.isValid(reading: latest))
    let window = Size(width: 640, height: 360)
    for preset in Presets.names {
      var scene = try EffectScene(config: Presets.named(preset), capacity: 20_000, seed: 2)
      for trigger in EmitterTrigger.allCases {
        scene.trigger(trigger, window: window, time: latest)
      }
      var time = latest
      for _ in 0..<40 {
        time += 0.25
        scene.advance(to: time, window: window)
      }
      XCTAssertGreaterThan(scene.ring.records.count, 0, preset)
    }
  }

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
