import ConfettiBench
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

  func testTheCPUBaselineWritesWhatTheReferenceComputes() throws {
    let ring = try BenchScene(count: 300, window: window, seed: 2, churn: false, effect: cannon)
      .ring
    let now = Tick(BenchScene.start + 0.4)
    var floats = [Float](repeating: -1, count: 300 * PlacementEvaluator.floatsPerParticle)
    floats.withUnsafeMutableBufferPointer {
      PlacementEvaluator.evaluate(ring, slots: 0..<300, at: now, into: $0)
    }
    for slot in 0..<300 {
      let state = try XCTUnwrap(ConfettiPhysics.state(of: ring.records[slot], at: now))
      let i = slot * 5
      XCTAssertEqual(Double(floats[i]), state.position.x, accuracy: 1e-3)
      XCTAssertEqual(Double(floats[i + 1]), state.position.y, accuracy: 1e-3)
      XCTAssertEqual(Double(floats[i + 2]), state.rotation, accuracy: 1e-3)
      XCTAssertEqual(Double(floats[i + 3]), state.widthScale, accuracy: 1e-6)
      XCTAssertEqual(Double(floats[i + 4]), state.opacity, accuracy: 1e-6)
    }
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
