import ConfettiBench
import ConfettiConfig
import ConfettiCore
import ConfettiGL
import ConfettiPresets
import XCTest

final class BenchSceneTests: XCTestCase {
  let cannon = try! Presets.named("classic-cannon")

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

  /// A scene with every term the sprites carry: trails, streaks, colour ramps, fades,
  /// additive light, wind and gusts, landings, paper shading, twinkles, fade-ins, growth.
  func everyTermScene() throws -> BenchScene {
    let effect = try EffectConfig.decode(
      """
      {"name": "marks", "emitters": [
        {"cells": [
          {"count": 1, "speed": 200, "trail": 6, "fade": 1, "colorSpeed": {"green": -0.3},
           "shapes": ["circle"]},
          {"count": 1, "speed": 300, "stretch": 0.08, "blend": "additive", "shapes": ["glow"]}]},
        {"position": {"x": 0.5, "y": 0.3}, "floor": {"y": 0.4, "restTime": 5},
         "wind": {"speed": 40, "gust": 30, "gustPeriod": 2},
         "cells": [
          {"count": 1, "speed": 150, "lifetime": 4, "flips": true, "darkensBack": true,
           "scaleSpeed": 0.2},
          {"count": 1, "speed": 100, "flips": false, "twinkle": 0.8, "fadeIn": 0.3,
           "shrinksWithLife": true, "shapes": ["star"]}]}]}
      """)
    return try BenchScene(count: 3000, window: window, seed: 2, churn: false, effect: effect)
  }

  func testTheCPUBaselineWritesWhatTheReferenceComputesOnOneCore() throws {
    let scene = try everyTermScene()
    let (ring, table) = (scene.ring, scene.table)
    XCTAssertGreaterThan(ring.longestTrail, 0)
    let now = Tick(BenchScene.start + 0.4)
    let capacity = PlacementEvaluator.capacity(for: ring, slots: 3000)
    var one = [PlacedSprite](repeating: PlacedSprite(), count: capacity)
    let written = one.withUnsafeMutableBufferPointer {
      PlacementEvaluator.evaluate(ring, slots: 0..<3000, at: now, table: table, into: $0)
    }
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
    XCTAssertGreaterThan(streaks, 500, "streaks are sprites too")
    XCTAssertEqual(Array(one[0..<written]), expected)
  }

  /// The strong baseline (the shader's formulas in Float, eight lanes at a time, every core)
  /// writes the reference's sprites, in its order, to Float precision: at moments from before
  /// the first birth to after the last death, in both of the product's orders.
  func testTheSIMDBaselineWritesTheReferencesSpritesOnEveryCore() throws {
    var scene = try everyTermScene()
    let table = scene.table
    let records = LaneRecords(capacity: 3000)
    records.update(from: &scene.ring)
    let ring = scene.ring
    let capacity = PlacementEvaluator.capacity(for: ring, slots: 3000)
    var worst = (position: 0.0, angle: 0.0, share: 0.0, byte: 0)
    var compared = 0
    var settling = 0
    let landing = ring.records.filter { $0.landing.isFinite }.count
    for primitive in [SpritePrimitive.points, .instancedPoints] {
      for step in 0..<16 {
        let now = Tick(BenchScene.start - 1.6 + Double(step) * 0.45)
        func evaluate(_ evaluation: PlacementEvaluator.Evaluation) -> [PlacedSprite] {
          var sprites = [PlacedSprite](repeating: PlacedSprite(), count: capacity)
          let count = sprites.withUnsafeMutableBufferPointer {
            PlacementEvaluator.evaluate(
              ring, slots: 0..<3000, at: now, table: table, as: primitive, by: evaluation,
              into: $0)
          }
          return Array(sprites[0..<count])
        }
        let reference = evaluate(.reference)
        let lanes = evaluate(.lanesOnAllCores(records))
        // Landed paper turning down to lie flat (ConfettiPhysics.settle) among them.
        settling += ring.records.filter { $0.isSettling(at: now) }.count
        XCTAssertEqual(lanes.count, reference.count, "at \(now.rawValue): the same sprites")
        for (a, b) in zip(reference, lanes) {
          XCTAssertEqual(a.shape, b.shape)
          XCTAssertEqual(a.additive, b.additive)
          compared += 1
          worst.position = max(
            worst.position, Double(abs(a.x - b.x)), Double(abs(a.y - b.y)),
            Double(abs(a.width - b.width)), Double(abs(a.height - b.height)))
          let turn = abs(a.rotation - b.rotation).truncatingRemainder(dividingBy: 360)
          worst.angle = max(worst.angle, Double(min(turn, 360 - turn)))
          worst.share = max(worst.share, Double(abs(a.opacity - b.opacity)))
          for (x, y) in [(a.red, b.red), (a.green, b.green), (a.blue, b.blue), (a.alpha, b.alpha)] {
            worst.byte = max(worst.byte, abs(Int(x) - Int(y)))
          }
        }
      }
    }
    XCTAssertGreaterThan(compared, 40_000, "too few sprites compared")
    XCTAssertGreaterThan(landing, 500, "too few pieces land")
    XCTAssertGreaterThan(settling, 100, "too few settling pieces compared")
    // What the parity tests allow the shader, which computes the same in Float.
    XCTAssertLessThanOrEqual(worst.position, 0.01, "worst position or size error (pt)")
    XCTAssertLessThanOrEqual(worst.angle, 0.01, "worst angle error (°)")
    XCTAssertLessThanOrEqual(worst.share, 1e-4, "worst opacity error")
    XCTAssertLessThanOrEqual(worst.byte, 1, "worst colour error (of 255)")
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
