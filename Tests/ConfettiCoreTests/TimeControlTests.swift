import ConfettiCore
import XCTest

/// Time as a player drives it (pause, speed, frame steps, running backwards) on an injected wall
/// clock, and what the scene does with readings that go back: no births, none doubled, the
/// particles of the past drawn again exactly; and emitters that start prewarmed.
final class TimeControlTests: XCTestCase {
  let window = Size(width: 800, height: 600)

  // MARK: The clock

  func testPauseStopsTimeAndSpeedsScaleItWithinEighthToEightTimes() {
    var clock = PlaybackClock(reading: 2, wall: 100)
    XCTAssertEqual(clock.update(wall: 101), 3)
    clock.togglePause(wall: 101)
    XCTAssertEqual(clock.update(wall: 105), 3, "paused: the wall runs, the reading does not")
    clock.togglePause(wall: 105)
    clock.changeSpeed(by: -1, wall: 105)
    XCTAssertEqual(clock.speed, 0.5)
    XCTAssertEqual(clock.update(wall: 107), 4, "two wall seconds at half speed")
    for _ in 0..<10 { clock.changeSpeed(by: -1, wall: 107) }
    XCTAssertEqual(clock.speed, 0.125, "never slower than an eighth")
    for _ in 0..<10 { clock.changeSpeed(by: 1, wall: 107) }
    XCTAssertEqual(clock.speed, 8, "never faster than eight times")
    XCTAssertEqual(clock.update(wall: 108), 12)
    XCTAssertEqual(clock.update(wall: 90), 12, "a wall clock that runs back moves nothing")
  }

  func testFrameStepsAreWholeTicksAndComeBackToTheSameTickAcrossTheWrap() {
    // 2³² ticks is 4096 s: start a few frames before the wrap.
    var clock = PlaybackClock(reading: 4096 - 0.05, wall: 0)
    clock.togglePause(wall: 0)
    let before = Tick(clock.reading)
    for _ in 0..<7 { clock.hold(.forward, wall: 0); clock.release(.forward, wall: 0) }
    let after = Tick(clock.reading)
    XCTAssertLessThan(after.rawValue, before.rawValue, "the counter wrapped")
    XCTAssertEqual(after.rawValue &- before.rawValue, UInt32(7 * PlaybackClock.frameTicks))
    XCTAssertEqual(
      after.seconds(since: before), 7 * Double(PlaybackClock.frameTicks) / Tick.perSecond)
    for _ in 0..<7 { clock.hold(.backward, wall: 0); clock.release(.backward, wall: 0) }
    XCTAssertEqual(Tick(clock.reading), before, "seven frames on and seven back: the same tick")
    XCTAssertEqual(clock.reading * Tick.perSecond, (clock.reading * Tick.perSecond).rounded())
  }

  func testHoldingTheBackArrowRunsTimeBackwardsDownToTheEarliestReading() {
    var clock = PlaybackClock(reading: 10, wall: 0)
    clock.earliest = 7.5
    clock.hold(.backward, wall: 1)
    XCTAssertEqual(clock.reading, 11)
    XCTAssertTrue(clock.isRunningBackwards)
    XCTAssertEqual(clock.update(wall: 2), 10)
    XCTAssertEqual(clock.update(wall: 4), 8)
    XCTAssertEqual(clock.update(wall: 9), 7.5, "stops at the earliest reading")
    clock.release(.backward, wall: 9)
    XCTAssertFalse(clock.isRunningBackwards)
    XCTAssertEqual(clock.update(wall: 10), 8.5, "forwards again on release")
  }

  func testWhilePausedAnArrowStepsAFrameAndRunsOnlyWhenHeld() {
    var clock = PlaybackClock(reading: 5, wall: 0)
    clock.togglePause(wall: 0)
    clock.hold(.backward, wall: 0)
    let stepped = 5 - Double(PlaybackClock.frameTicks) / Tick.perSecond
    XCTAssertEqual(clock.reading, stepped, "a press steps one frame back")
    XCTAssertEqual(clock.update(wall: 0.2), stepped, "not yet held long enough to run")
    let delay = PlaybackClock.holdDelay
    XCTAssertEqual(
      clock.update(wall: 1.2), stepped - (1.2 - delay), accuracy: 1 / Tick.perSecond,
      "held: runs back from the end of the hold delay")
    clock.release(.backward, wall: 1.2)
    XCTAssertEqual(clock.update(wall: 3), clock.reading, "paused again")
    XCTAssertTrue(clock.isPaused)
  }

  // MARK: The scene under a clock that goes back

  func continuous(rate: Double = 200, lifetime: Double = 1.5, prewarm: Double = 0) -> EffectConfig {
    var cell = CellConfig()
    cell.birthRate = rate
    cell.lifetime = Varied(lifetime, range: 0.5)
    cell.speed = Varied(200, range: 100)
    cell.direction = Varied(-90, range: 60)
    var emitter = EmitterConfig()
    emitter.emission = .continuous
    emitter.prewarm = prewarm
    emitter.cells = [cell]
    return EffectConfig(name: "test", emitters: [emitter])
  }

  /// Where every particle of `scene` is at reading `time` (and how it looks), by birth order.
  func picture(of scene: EffectScene, at time: Double) -> [ParticleState] {
    let ring = scene.ring
    return (ring.tail..<ring.head).compactMap {
      ConfettiPhysics.state(
        of: ring.records[$0 % ring.capacity], at: Tick(time), table: scene.table)
    }
  }

  func run(_ scene: inout EffectScene, from start: Double, to end: Double, step: Double) {
    var time = start
    while time < end - 1e-12 {
      time = min(end, time + step)
      scene.advance(to: time, window: window)
    }
  }

  func testTimeRunBackwardsShowsThePastExactlyAndNothingIsBornTwice() throws {
    let frame = 1.0 / 64  // a binary fraction: both runs land on the same readings exactly
    var straight = try EffectScene(config: continuous(), capacity: 10_000, seed: 9)
    straight.trigger(.start, window: window, time: 1)
    run(&straight, from: 1, to: 2, step: frame)
    let past = picture(of: straight, at: 2)
    XCTAssertGreaterThan(past.count, 150)

    var played = try EffectScene(config: continuous(), capacity: 10_000, seed: 9)
    played.history = 60
    played.trigger(.start, window: window, time: 1)
    run(&played, from: 1, to: 4, step: frame)
    let born = played.ring.head
    // Back from 4 s to 2 s, frame by frame: nothing is born, and 2 s looks as it did.
    var time = 4.0
    while time > 2 {
      time -= frame
      played.advance(to: time, window: window)
    }
    XCTAssertEqual(played.ring.head, born, "no births while time runs backwards")
    XCTAssertLessThanOrEqual(played.earliestExactReading, 2)
    let rewound = picture(of: played, at: 2)
    XCTAssertEqual(rewound.count, past.count, "every particle of 2 s is back, none from later")
    for (a, b) in zip(rewound, past) {
      XCTAssertEqual(a.position.x, b.position.x, accuracy: 1e-9)
      XCTAssertEqual(a.position.y, b.position.y, accuracy: 1e-9)
      XCTAssertEqual(a.opacity, b.opacity, accuracy: 1e-12)
    }
    // Forward again to 4 s: still nothing new; past 4 s, births resume as in a straight run.
    run(&played, from: 2, to: 4, step: frame)
    XCTAssertEqual(played.ring.head, born, "none doubled when time runs forward again")
    run(&played, from: 4, to: 4.5, step: frame)
    run(&straight, from: 2, to: 4.5, step: frame)
    XCTAssertEqual(played.ring.head, straight.ring.head)
    XCTAssertEqual(picture(of: played, at: 4.5).count, picture(of: straight, at: 4.5).count)
  }

  func testWithoutHistoryTheSceneSaysHowFarBackItIsExact() throws {
    var scene = try EffectScene(config: continuous(lifetime: 0.5), capacity: 10_000, seed: 2)
    scene.trigger(.start, window: window, time: 0)
    run(&scene, from: 0, to: 3, step: 1.0 / 60)
    // Particles that ended were freed: the earliest exact reading is the last such death.
    XCTAssertGreaterThan(scene.earliestExactReading, 2)
    XCTAssertLessThanOrEqual(scene.earliestExactReading, 3)
    scene.history = 10
    run(&scene, from: 3, to: 6, step: 1.0 / 60)
    XCTAssertLessThan(scene.earliestExactReading, 3.1, "history keeps what ended since")
  }

  // MARK: Prewarm

  func testAPrewarmedEmitterLooksAsIfStartedThatMuchEarlier() throws {
    let step = EffectScene.emissionStep
    // Started at 2 s and run for 90 frames of 1/60 s…
    var early = try EffectScene(config: continuous(lifetime: 4), capacity: 10_000, seed: 5)
    early.trigger(.start, window: window, time: 2)
    var time = 2.0
    for k in 1...90 {
      time = 2 + Double(k) * step
      early.advance(to: time, window: window)
    }
    // …and started at that time with 1.5 s of prewarm: the same particles, born at the same
    // times, so the same picture now and later.
    var warm = try EffectScene(
      config: continuous(lifetime: 4, prewarm: 1.5), capacity: 10_000, seed: 5)
    warm.trigger(.start, window: window, time: time)
    warm.advance(to: time, window: window)
    for reading in [time, time + 0.5] {
      early.advance(to: reading, window: window)
      warm.advance(to: reading, window: window)
      let a = picture(of: warm, at: reading)
      let b = picture(of: early, at: reading)
      XCTAssertEqual(a.count, b.count, "at \(reading) s")
      XCTAssertGreaterThan(a.count, 250, "the window is full at once")
      for (p, q) in zip(a, b) {
        XCTAssertEqual(p.position.x, q.position.x, accuracy: 1e-6)
        XCTAssertEqual(p.position.y, q.position.y, accuracy: 1e-6)
      }
    }
  }

  func testPrewarmBeforeTheClocksZeroWrapsExactly() throws {
    var warm = try EffectScene(
      config: continuous(lifetime: 4, prewarm: 3), capacity: 10_000, seed: 5)
    warm.trigger(.start, window: window, time: 0.5)
    warm.advance(to: 0.5, window: window)
    let visible = picture(of: warm, at: 0.5)
    XCTAssertEqual(
      Double(visible.count), 200 * 3, accuracy: 3, "three seconds of births, all alive")
    let first = warm.ring.records[warm.ring.tail % warm.ring.capacity]
    XCTAssertEqual(
      Tick(0.5).seconds(since: Tick(rawValue: first.birth)), 3, accuracy: 0.01,
      "the first born, at −2.5 s, are 3 s old")
  }
}
