import ConfettiBench
import ConfettiConfig
import ConfettiCore
import ConfettiPresets
import XCTest

final class BenchSceneTests: XCTestCase {
  let cannon = try! Presets.named("cannon")

  let window = Size(width: 1920, height: 1080)

  func testTheSteadySceneKeepsEveryParticleAliveThroughTheLoopWithNoNewRecords() throws {
    var scene = try BenchScene(count: 5000, window: window, seed: 1, churn: false, effect: cannon)
    scene.ring.markUploaded()
    for frame in stride(from: 0, to: 400, by: 7) {  // more than one loop of 90 frames
      let time = scene.advance(toFrame: frame)
      XCTAssert((BenchScene.start..<(BenchScene.start + BenchScene.birthSpread)).contains(time))
      XCTAssertEqual(scene.ring.aliveCount(at: time), 5000, "frame \(frame)")
      XCTAssertEqual(scene.ring.drawnCount, 5000)
      XCTAssertEqual(scene.ring.pendingUploadRanges, [], "a steady frame appends nothing")
    }
  }

  func testChurnReBearsParticlesAtTheRateThatKeepsTheCountAlive() throws {
    var scene = try BenchScene(count: 6000, window: window, seed: 1, churn: true, effect: cannon)
    scene.ring.markUploaded()
    var appended = 0
    for frame in 1...300 {  // 5 s of simulated time
      let time = scene.advance(toFrame: frame)
      appended += scene.ring.pendingUploadRanges.map(\.count).reduce(0, +)
      scene.ring.markUploaded()
      let alive = scene.ring.aliveCount(at: time)
      XCTAssert((5800...6000).contains(alive), "frame \(frame): \(alive) alive")
    }
    // count / lifetime per second: 2000/s for 5 s.
    XCTAssertEqual(Double(appended), 10_000, accuracy: 40)
  }

  func testTheCPUBaselinesWriteWhatTheReferenceComputesOnOneCoreOrAll() throws {
    // Trails, streaks, colour ramps, fades and additive light, all of which the sprites carry.
    let effect = try EffectConfig.decode(
      """
      {"name": "marks", "emitters": [{"cells": [
        {"count": 1, "speed": 200, "trail": 6, "fade": 1, "colorSpeed": {"green": -0.3},
         "shapes": ["circle"]},
        {"count": 1, "speed": 300, "stretch": 0.08, "blend": "additive", "shapes": ["glow"]}]}]}
      """)
    let scene = try BenchScene(count: 3000, window: window, seed: 2, churn: false, effect: effect)
    let (ring, table) = (scene.ring, scene.table)
    XCTAssertGreaterThan(ring.longestTrail, 0)
    let now = Tick(BenchScene.start + 0.4)
    let capacity = PlacementEvaluator.capacity(for: ring, slots: 3000)
    var one = [PlacedSprite](repeating: PlacedSprite(), count: capacity)
    var all = one
    let written = one.withUnsafeMutableBufferPointer {
      PlacementEvaluator.evaluate(ring, slots: 0..<3000, at: now, table: table, into: $0)
    }
    let writtenOnAllCores = all.withUnsafeMutableBufferPointer {
      PlacementEvaluator.evaluate(
        ring, slots: 0..<3000, at: now, table: table, allCores: true, into: $0)
    }
    XCTAssertEqual(written, writtenOnAllCores)
    XCTAssertEqual(one[0..<written], all[0..<written], "all cores write the same sprites")
    // Each visible particle and copy, oldest copy first, nothing for the dead.
    var expected: [PlacedSprite] = []
    var streaks = 0
    for record in ring.records {
      for copy in stride(from: Int(record.trail), through: 0, by: -1) {
        guard
          let state = ConfettiPhysics.state(of: record, at: now, table: table, trailCopy: copy)
        else {
          continue
        }
        var sprite = PlacedSprite()
        // A streak is its capsule: centred between tail and head, along the path.
        let streak = state.streak
        sprite.x = Float(streak?.centre.x ?? state.position.x)
        sprite.y = Float(streak?.centre.y ?? state.position.y)
        sprite.rotation = Float(streak?.rotation ?? state.rotation)
        sprite.opacity = Float(state.opacity)
        sprite.width = Float(streak?.size.width ?? state.size.width)
        sprite.height = Float(streak?.size.height ?? state.size.height)
        let c = (0..<4).map { UInt8((state.color[$0] * 255).rounded()) }
        (sprite.red, sprite.green, sprite.blue, sprite.alpha) = (c[0], c[1], c[2], c[3])
        sprite.shape = streak == nil ? record.shape : ParticleShape.streak.rawValue
        sprite.additive = state.additive ? 1 : 0
        if streak != nil { streaks += 1 }
        expected.append(sprite)
      }
    }
    XCTAssertEqual(written, expected.count)
    XCTAssertGreaterThan(expected.count, 3000, "trail copies are sprites too")
    XCTAssertGreaterThan(streaks, 1000, "streaks are sprites too")
    XCTAssertEqual(Array(one[0..<written]), expected)
  }

  func testSummaryPercentiles() {
    let summary = Summary((1...100).map(Double.init).shuffled())
    XCTAssertEqual(summary.min, 1)
    XCTAssertEqual(summary.max, 100)
    XCTAssertEqual(summary.median, 50.5)
    XCTAssertEqual(summary.p95, 95)
    XCTAssertEqual(summary.p99, 99)
    XCTAssertEqual(Summary([7]).p99, 7)
    XCTAssertEqual(Summary([]).median, 0)
  }
}
