import ConfettiCore
import ConfettiPresets
import Foundation
import XCTest

/// Emitters on an injected clock: when births happen, how many, and that a stall never floods.
final class EmissionTests: XCTestCase {
  let window = Size(width: 800, height: 600)

  func config(_ emission: Emission, rate: Double = 100, lifetime: Double = 30) -> EffectConfig {
    var cell = CellConfig()
    cell.birthRate = rate
    cell.count = 10
    cell.lifetime = Varied(lifetime)
    var emitter = EmitterConfig()
    emitter.emission = emission
    emitter.cells = [cell]
    return EffectConfig(name: "test", emitters: [emitter])
  }

  /// A prewarm whose births far exceed the ring emits only what the ring keeps: the pieces of
  /// its last steps, as many as running it whole would leave, not 120 s of a million a second.
  func testAPrewarmBeyondTheRingEmitsOnlyWhatTheRingKeeps() throws {
    var flood = config(.continuous, rate: 1_000_000, lifetime: 600)
    flood.emitters[0].prewarm = EmitterConfig.longestPrewarm
    var scene = try EffectScene(config: flood, capacity: 1000, seed: 3)
    scene.trigger(.start, window: window, time: 200)
    XCTAssertLessThanOrEqual(scene.ring.head, 1000 + EffectScene.maximumBirthsPerStep)
    XCTAssertEqual(scene.ring.aliveCount(at: 200), 1000, "the ring is full")
    // The pieces kept are the newest: born in the prewarm's last step.
    let oldest = scene.ring.records.map { Tick(200).rawValue &- $0.birth }.max()!
    XCTAssertLessThanOrEqual(oldest, UInt32(EffectScene.emissionStep * Tick.perSecond) + 1)

    // A prewarm the ring holds whole is run whole: the same pieces as before.
    var gentle = config(.continuous, rate: 10, lifetime: 600)
    gentle.emitters[0].prewarm = 5
    var whole = try EffectScene(config: gentle, capacity: 1000, seed: 3)
    whole.trigger(.start, window: window, time: 200)
    XCTAssertEqual(whole.ring.head, 50)
  }

  /// Every preset, fired by each of its triggers and run in 60 Hz frames, makes exactly the
  /// pieces its configuration promises: each burst cell's count, each timed or continuous cell's
  /// birth rate over its run (with its taper, and its prewarm), and with each piece the
  /// sub-cells it starts, to rounding. Nothing is dropped on the way, and the ring says so.
  func testEveryPresetAndTriggerBirthsWhatItsConfigurationSays() throws {
    for name in Presets.names {
      let config = try Presets.named(name)
      func family(_ cell: CellConfig, generation: Int = 1) -> Int {
        guard generation <= EffectScene.deepestSubCell else { return 1 }
        return (cell.onDeath + cell.alongFlight).reduce(1) { total, sub in
          guard let index = config.subCell(named: sub) else { return total }
          let child = config.subCells[index]
          return total + child.count * family(child, generation: generation + 1)
        }
      }
      for trigger in EmitterTrigger.allCases {
        let emitters = config.emitters.filter { $0.trigger == trigger }
        guard !emitters.isEmpty else { continue }
        // Long enough for every timed emitter to finish; continuous ones run 3 s.
        let run = emitters.map { emitter -> Double in
          if case .timed(let duration, _, _) = emitter.emission { return duration + 0.5 }
          return 3
        }.max()!
        var expected = 0
        var slack = 0
        for emitter in emitters {
          for cell in emitter.cells {
            switch emitter.emission {
            case .burst:
              expected += cell.count * family(cell)
            case .timed, .continuous:
              let local = emitter.prewarm + run
              let due = EffectScene.births(
                of: cell.birthRate, emission: emitter.emission, by: local)
              expected += Int(due) * family(cell)
              slack += family(cell)  // the last birth's rounding
            }
          }
        }
        var scene = try EffectScene(config: config, capacity: 4_000_000, seed: 5)
        scene.trigger(trigger, window: window, time: 0)
        var frame = 0
        while Double(frame) / 60 < run {
          frame += 1
          scene.advance(to: Double(frame) / 60, window: window)
        }
        XCTAssertLessThanOrEqual(
          abs(scene.ring.head - expected), slack,
          "\(name), \(trigger): \(scene.ring.head) pieces born, \(expected) promised")
        XCTAssertEqual(scene.dropped, 0, "\(name), \(trigger): none dropped")
      }
    }
  }

  /// What an effect makes does not depend on the steps it is advanced in: every preset fired
  /// by each of its triggers, advanced at 60 Hz or in uneven steps from 1 ms to 90 ms (a window
  /// at any frame rate), holds the same pieces, born at the same moments (to a tick).
  func testEveryPresetMakesTheSamePiecesWhateverTheSteps() throws {
    for name in Presets.names {
      let config = try Presets.named(name)
      for trigger in EmitterTrigger.allCases
      where config.emitters.contains(where: {
        $0.trigger == trigger
      }) {
        func run(_ steps: (Int) -> Double) throws -> EffectScene {
          var scene = try EffectScene(config: config, capacity: 200_000, seed: 9)
          scene.trigger(trigger, window: window, time: 2)
          scene.trigger(.click, at: Point(x: 300, y: 200), window: window, time: 2.25)
          var (time, frame) = (2.0, 0)
          while time < 6 {
            time = min(6, time + steps(frame))
            frame += 1
            scene.advance(to: time, window: window)
          }
          return scene
        }
        let even = try run { _ in 1.0 / 60 }
        var uneven = SplitMix64(seed: 4)
        let ragged = try run { _ in Double.random(in: 0.001...0.09, using: &uneven) }
        XCTAssertEqual(even.ring.head, ragged.ring.head, "\(name), \(trigger): pieces born")
        for slot in 0..<min(even.ring.head, even.ring.capacity) {
          var (a, b) = (even.ring.records[slot], ragged.ring.records[slot])
          XCTAssertLessThanOrEqual(
            max(a.birth, b.birth) - min(a.birth, b.birth), 1, "\(name), \(trigger), #\(slot)")
          (a.birth, b.birth) = (0, 0)
          guard a == b else {
            XCTFail("\(name), \(trigger): piece \(slot) differs with the steps")
            break
          }
        }
      }
    }
  }

  /// A burst of a million pieces into a ring of a thousand makes only what the ring holds (its
  /// cost is what can live, not what was asked for) and counts the rest as dropped.
  func testTheDefaultCapacityHoldsEveryTriggerOfEveryPresetOnce() throws {
    // Each trigger fired once, overlapping: the default capacity drops nothing. (The fire's
    // flames and its click's flame dropped 1 to 3 pieces when each cell's own life was counted:
    // the ring frees in birth order, so the longest life governs.)
    let window = Size(width: 800, height: 600)
    for name in Presets.names {
      let config = try Presets.named(name)
      for seed in [1, 2, 7] as [UInt64] {
        var scene = try EffectScene(
          config: config, capacity: EffectScene.suggestedCapacity(for: config), seed: seed)
        scene.trigger(.start, window: window, time: 0)
        scene.trigger(.click, at: Point(x: 400, y: 300), window: window, time: 0.2)
        scene.trigger(.key, window: window, time: 0.4)
        for frame in 0...600 { scene.advance(to: Double(frame) / 60, window: window) }
        XCTAssertEqual(scene.dropped, 0, "\(name), seed \(seed)")
      }
    }
  }

  func testABurstBeyondTheRingCostsOnlyWhatTheRingHolds() throws {
    var cell = CellConfig()
    cell.count = 1_000_000
    var emitter = EmitterConfig()
    emitter.cells = Array(repeating: cell, count: 8)
    var scene = try EffectScene(
      config: EffectConfig(name: "flood", emitters: [emitter]), capacity: 1000, seed: 2)
    let started = ContinuousClock.now
    scene.trigger(.start, window: window, time: 1)
    XCTAssertLessThan(ContinuousClock.now - started, .seconds(2), "8 million pieces not made")
    XCTAssertEqual(scene.ring.aliveCount(at: 1), 1000)
    XCTAssertEqual(scene.dropped, 8_000_000 - 1000, "every piece asked for and not shown")
  }

  /// A burst of many pieces asks whether to stop every few thousand, and, told to, makes no more:
  /// a render being stopped is not held for seconds.
  func testABurstOfManyPiecesStopsWhenAsked() throws {
    var cell = CellConfig()
    cell.count = 100_000
    var emitter = EmitterConfig()
    emitter.cells = [cell, cell]
    var scene = try EffectScene(
      config: EffectConfig(name: "flood", emitters: [emitter]), capacity: 200_000, seed: 2)
    let asked = Counter()
    scene.shouldStop = { asked.next() >= 2 }
    scene.trigger(.start, window: window, time: 1)
    XCTAssertEqual(asked.value, 2, "asked after 4,096 and 8,192 pieces, then stopped")
    XCTAssertEqual(scene.ring.aliveCount(at: 1), 0, "the first cell, cut short, is not kept")
    scene.shouldStop = nil
    scene.trigger(.start, window: window, time: 2)
    XCTAssertEqual(scene.ring.aliveCount(at: 2), 200_000, "never asked: every piece")
  }

  /// A ring too small for what an effect emits makes way for the newest pieces, and counts every
  /// piece it lets go of before its end: the shortfall is never silent.
  func testARingTooSmallCountsThePiecesItLetsGo() throws {
    // Two bursts of 150 at once: the party popper's, twice.
    var config = try Presets.named("party-popper")
    config.emitters = [config.emitters[0], config.emitters[0]]
    var scene = try EffectScene(config: config, capacity: 100, seed: 5)
    scene.trigger(.start, window: window, time: 0)
    // Each burst makes the 100 the ring holds (50 never made); the second's overwrite the
    // first's, still in flight.
    XCTAssertEqual(scene.ring.head, 200)
    XCTAssertEqual(scene.ring.displaced, 100)
    XCTAssertEqual(scene.dropped, 200, "two bursts of 150 in a ring of 100")
    XCTAssertEqual(scene.ring.aliveCount(at: 0.01), 100)
    // Pieces that have ended make way without being counted.
    var calm = try EffectScene(config: try Presets.named("tap-burst"), capacity: 100, seed: 5)
    calm.trigger(.click, window: window, time: 0)
    calm.advance(to: 10, window: window)
    calm.trigger(.click, window: window, time: 10)
    XCTAssertEqual(calm.dropped, 0, "the first burst was over when the second came")
  }

  /// Runs a scene from time 0 to `end` in frames of `step`, returning how many were born by each
  /// frame.
  func births(
    _ config: EffectConfig, until end: Double, step: Double = 1.0 / 60, capacity: Int = 100_000
  ) throws -> (scene: EffectScene, counts: [(time: Double, born: Int)]) {
    var scene = try EffectScene(config: config, capacity: capacity, seed: 3)
    scene.trigger(.start, window: window, time: 0)
    var counts: [(Double, Int)] = []
    var time = 0.0
    while time < end - 1e-9 {
      time += step
      scene.advance(to: time, window: window)
      counts.append((time, scene.ring.head))
    }
    return (scene, counts)
  }

  func testTimedEmissionTapersFromFullRateToNoneByHalfTheDuration() throws {
    let (_, counts) = try births(config(.timed(duration: 4, fadeOut: 1)), until: 4)
    func born(at time: Double) -> Int { counts.last { $0.time <= time + 1e-9 }!.born }
    // The rate 100·(1 − (u/2)²): its integral to u.
    XCTAssertEqual(Double(born(at: 0.5)), 100 * (0.5 - 0.125 / 12), accuracy: 1.01)
    XCTAssertEqual(Double(born(at: 1)), 100 * (1 - 1.0 / 12), accuracy: 1.01)
    XCTAssertEqual(Double(born(at: 2)), 100 * 4 / 3, accuracy: 1.01, "D/3 of the full rate in all")
    XCTAssertEqual(born(at: 4), born(at: 2), "nothing after half the duration")
    // Early frames carry more births than late ones: the ease-in taper.
    let first = born(at: 0.25)
    let late = born(at: 1.75) - born(at: 1.5)
    XCTAssertGreaterThan(first, 2 * late)
    XCTAssertEqual(EffectScene.taper(duration: 4, at: 0), 1)
    XCTAssertEqual(EffectScene.taper(duration: 4, at: 1), 0.75)
    XCTAssertEqual(EffectScene.taper(duration: 4, at: 2), 0)
  }

  func testATimedEmitterFadesOutAfterItsDurationAndTakesItsParticlesAlong() throws {
    let (scene, _) = try births(config(.timed(duration: 3, fadeOut: 1)), until: 3)
    XCTAssertFalse(scene.isEmitting, "the emitter is removed after its duration")
    let now = { (t: Double) in Tick(t) }
    let visible = { (t: Double) in
      scene.ring.records.prefix(scene.ring.head).compactMap {
        ConfettiPhysics.state(of: $0, at: now(t), table: scene.table)
      }
    }
    let before = visible(2.9)
    XCTAssertEqual(before.count, scene.ring.head, "all alive before the fade (lifetime 30 s)")
    XCTAssert(before.allSatisfy { $0.opacity == 1 })
    let during = visible(3.5)
    XCTAssertEqual(during.count, before.count)
    for state in during {
      XCTAssertEqual(state.opacity, 0.25, accuracy: 0.01, "(1 − 0.5)² half way through the fade")
    }
    XCTAssert(visible(4.01).isEmpty, "gone once the emitter has faded out")
    var scene2 = scene
    scene2.ring.reclaim(at: 4.01)
    XCTAssertEqual(scene2.ring.drawnCount, 0, "and their records are freed")
  }

  func testContinuousEmissionKeepsItsRateAndBirthsAreSpreadOverTheFrame() throws {
    let (scene, counts) = try births(config(.continuous, rate: 90), until: 10)
    XCTAssertEqual(Double(counts.last!.born), 900, accuracy: 1)
    XCTAssertTrue(scene.isEmitting)
    // Within one frame, births carry distinct times: no clumps at frame boundaries.
    let births = Set(scene.ring.records.prefix(scene.ring.head).map(\.birth))
    XCTAssertGreaterThan(births.count, 890)
  }

  func testAStallOfSecondsDropsTheMissedTimeInsteadOfFlooding() throws {
    var scene = try EffectScene(config: config(.continuous, rate: 1000), capacity: 100_000, seed: 1)
    scene.trigger(.start, window: window, time: 0)
    var time = 0.0
    for _ in 0..<60 {
      time += 1.0 / 60
      scene.advance(to: time, window: window)
    }
    let beforeStall = scene.ring.head
    XCTAssertEqual(Double(beforeStall), 1000, accuracy: 1)
    // Longer than the longest step without a frame: a minimised window, a debugger.
    time += EffectScene.longestStep + 5
    scene.advance(to: time, window: window)
    let afterStall = scene.ring.head - beforeStall
    XCTAssertLessThanOrEqual(
      Double(afterStall), 1000 * EffectScene.longestStep + 1, "at most one longest step's worth")
    // And the births of that frame are at most that step old, not from inside the stall.
    let newest = scene.ring.records[(beforeStall..<scene.ring.head).map { $0 % 100_000 }.first!]
    XCTAssertGreaterThanOrEqual(
      Tick(time).seconds(since: Tick(rawValue: newest.birth)), 0)
    XCTAssertLessThanOrEqual(
      Tick(time).seconds(since: Tick(rawValue: newest.birth)), EffectScene.longestStep + 1e-6)
    // Then it goes on at its rate.
    let resumed = scene.ring.head
    for _ in 0..<60 {
      time += 1.0 / 60
      scene.advance(to: time, window: window)
    }
    XCTAssertEqual(Double(scene.ring.head - resumed), 1000, accuracy: 1)
  }

  func testBirthsPerStepAreBoundedEvenAtAbsurdRates() throws {
    var scene = try EffectScene(
      config: config(.continuous, rate: 1_000_000), capacity: 1000, seed: 1)
    scene.trigger(.start, window: window, time: 0)
    scene.advance(to: 0.1, window: window)
    XCTAssertEqual(scene.ring.head, EffectScene.maximumBirthsPerStep)
    XCTAssertEqual(scene.ring.drawnCount, 1000, "and the ring's memory is capped")
  }

  func testStartingATimedEmitterAgainGivesAFreshBurstNotAFlood() throws {
    var scene = try EffectScene(
      config: config(.timed(duration: 3, fadeOut: 1)), capacity: 100_000, seed: 1)
    scene.trigger(.start, window: window, time: 0)
    scene.advance(to: 1.0 / 60, window: window)
    let firstFrame = scene.ring.head
    for frame in 2...600 { scene.advance(to: Double(frame) / 60, window: window) }
    XCTAssertFalse(scene.isEmitting)
    let before = scene.ring.head
    scene.trigger(.start, window: window, time: 10)
    scene.advance(to: 10 + 1.0 / 60, window: window)
    XCTAssertEqual(scene.ring.head - before, firstFrame, "the same first frame as the first time")
  }

  func testClicksBeyondTheLimitStopTheOldestClickNeverTheEffectsOwnEmitter() throws {
    var fire = try EffectScene(config: Presets.named("fire"), capacity: 100_000, seed: 1)
    fire.trigger(.start, window: window, time: 0)
    for k in 0..<200 {
      fire.trigger(.click, at: Point(x: 10, y: 10), window: window, time: Double(k) / 100)
    }
    XCTAssertEqual(fire.runningCount, EffectScene.maximumRunning)
    // The base flame still emits where the configuration puts it, away from the clicks.
    let before = fire.ring.head
    fire.advance(to: 2.1, window: window)
    let origin = try Presets.named("fire").emitters.first { $0.trigger == .start }!.origin(
      in: window)
    let fromBase = (before..<fire.ring.head).filter { sequence in
      let p = fire.ring.records[sequence % fire.ring.capacity].particle
      return abs(p.origin.x - origin.x) < 60 && abs(p.origin.y - origin.y) < 60
    }
    XCTAssertGreaterThan(fromBase.count, 0, "the effect's own emitter was pushed out")
  }

  func testClearingKeepsTheEffectsOwnEmittersWhenAsked() throws {
    var fire = try EffectScene(config: Presets.named("fire"), capacity: 100_000, seed: 1)
    fire.trigger(.start, window: window, time: 0)
    fire.trigger(.click, at: Point(x: 10, y: 10), window: window, time: 0)
    fire.advance(to: 0.5, window: window)
    fire.removeAll(keepingStartEmitters: true)
    XCTAssertEqual(fire.ring.drawnCount, 0, "every particle is gone")
    XCTAssertEqual(fire.runningCount, 1, "the flame's continuous start emitter")
    XCTAssertTrue(fire.isEmitting, "the flames go on")
    fire.advance(to: 0.6, window: window)
    XCTAssertGreaterThan(fire.ring.drawnCount, 0)
    fire.removeAll()
    XCTAssertFalse(fire.isEmitting)
  }

  func testRunningEmittersFollowAResizedWindowButClicksStayPut() throws {
    var config = config(.continuous, rate: 600)
    config.emitters[0].position = SIMD2(0.5, 1)
    var clicked = config.emitters[0]
    clicked.trigger = .click
    config.emitters.append(clicked)
    var scene = try EffectScene(config: config, capacity: 100_000, seed: 2)
    scene.trigger(.start, window: window, time: 0)
    scene.trigger(.click, at: Point(x: 100, y: 100), window: window, time: 0)
    scene.advance(to: 0.1, window: window)
    let small = Size(width: 400, height: 300)
    let before = scene.ring.head
    scene.advance(to: 0.2, window: small)
    let origins = (before..<scene.ring.head).map {
      scene.ring.records[$0 % scene.ring.capacity].particle.origin
    }
    XCTAssert(origins.contains { abs($0.x - 200) < 0.5 && abs($0.y - 300) < 0.5 }, "moved")
    XCTAssert(origins.contains { abs($0.x - 100) < 0.5 && abs($0.y - 100) < 0.5 }, "click kept")
    XCTAssertFalse(origins.contains { abs($0.y - 600) < 1 }, "none at the old bottom edge")
  }

  func testAThousandStartsKeepTheRunningEmittersAndMemoryBounded() throws {
    // A thousand starts, each a running emitter until the cap (64): over fifteen times as many.
    var scene = try EffectScene(config: config(.continuous, rate: 50), capacity: 5000, seed: 1)
    for k in 0..<1000 {
      let time = Double(k) / 60
      scene.trigger(.start, window: window, time: time)
      scene.advance(to: time, window: window)
      XCTAssertLessThanOrEqual(scene.runningCount, EffectScene.maximumRunning)
    }
    XCTAssertEqual(scene.ring.capacity, 5000)
  }

  func testEmitterShapesPlaceBirthsWhereTheySay() throws {
    for (shape, check) in [
      (EmitterShape.point, { (p: Point) in p.x == 400 && p.y == 300 }),
      (.line(length: 0.5), { (p: Point) in abs(p.x - 400) <= 200 && p.y == 300 }),
      (.rectangle(width: 0.5, height: 0.1), { abs($0.x - 400) <= 200 && abs($0.y - 300) <= 30 }),
      (.circle(radius: 0.1), { hypot($0.x - 400, $0.y - 300) <= 60 + 1e-9 }),
    ] {
      var config = config(.burst)
      config.emitters[0].shape = shape
      config.emitters[0].cells[0].count = 500
      var scene = try EffectScene(config: config, capacity: 500, seed: 9)
      scene.trigger(.start, window: window, time: 1)
      let origins = scene.ring.records.map { Point(x: Double($0.originX), y: Double($0.originY)) }
      XCTAssert(origins.allSatisfy(check), "\(shape)")
      if shape != .point {
        XCTAssertGreaterThan(Set(origins.map(\.x)).count, 400, "\(shape) spreads births")
      }
    }
  }

  func testAClickBurstIsBornAtThePointer() throws {
    var scene = try EffectScene(config: try Presets.named("tap-burst"), capacity: 100, seed: 1)
    scene.trigger(.click, at: Point(x: 123, y: 45), window: window, time: 2)
    XCTAssertEqual(scene.ring.head, 60)
    // Across a small disc around it: 3 % of the window's shorter side.
    let radius = 0.03 * min(window.width, window.height)
    var distances: [Double] = []
    for record in scene.ring.records.prefix(60) {
      let (dx, dy) = (Double(record.originX) - 123, Double(record.originY) - 45)
      distances.append((dx * dx + dy * dy).squareRoot())
    }
    XCTAssertLessThanOrEqual(distances.max()!, radius + 0.01)
    XCTAssertGreaterThan(distances.max()!, radius / 2, "spread over the disc")
  }

  func testReducedMotionParticlesStayPutAndFadeGently() throws {
    var scene = try EffectScene(
      config: try Presets.named("confetti"), capacity: 100, seed: 1, reduceMotion: true)
    scene.trigger(.click, at: Point(x: 400, y: 300), window: window, time: 1)
    for record in scene.ring.records.prefix(60) {
      let early = try XCTUnwrap(ConfettiPhysics.state(of: record, at: Tick(1.1)))
      let late = try XCTUnwrap(ConfettiPhysics.state(of: record, at: Tick(1.9)))
      XCTAssertEqual(early.position, late.position, "no movement")
      XCTAssertEqual(early.rotation, late.rotation, "no spin")
      XCTAssertGreaterThan(early.opacity, late.opacity, "a fade")
      XCTAssertLessThanOrEqual(
        Double(record.lifetime), ConfettiParticle.reducedMotionLifetime + 0.001, "short")
      XCTAssertLessThan(
        hypot(early.position.x - 400, early.position.y - 300), 200, "near the click")
    }
  }
}

/// Counts calls from a closure the scene keeps (a Sendable one).
private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  /// Counts one more call and returns how many there have been.
  func next() -> Int {
    lock.withLock {
      count += 1
      return count
    }
  }
  var value: Int { lock.withLock { count } }
}
