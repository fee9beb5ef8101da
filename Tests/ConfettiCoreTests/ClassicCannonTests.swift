import ConfettiCore
import ConfettiPresets
import Foundation
import XCTest

/// The `cannon` preset is the classic cannon: every parameter drawn from the classic ranges, with
/// the classic distributions, in any window.
final class ClassicCannonTests: XCTestCase {
  func testTheClassicCannonPresetDrawsEveryParameterFromTheClassicRanges() throws {
    // A wide window and a tall one: a launch cone would overshoot the classic sideways speed
    // (a share of the width) in the tall one.
    for window in [Size(width: 1280, height: 720), Size(width: 400, height: 900)] {
      let (w, h) = (window.width, window.height)
      var scene = try EffectScene(config: Presets.named("classic-cannon"), capacity: 1, seed: 1)
      let pieces = scene.sample(count: 1500, window: window)
      var seenSizes = Set<String>()
      var seenColors = Set<RGBA8>()
      let eps = 1e-9
      for p in pieces {
        XCTAssert((0.15 * w - eps...0.85 * w + eps).contains(p.origin.x), "x0 \(p.origin.x)")
        XCTAssertEqual(p.origin.y, h + 20, accuracy: eps)
        XCTAssert((-1.8 * h * 1.1 - eps ... -1.8 * h * 0.85 + eps).contains(p.velocityY))
        XCTAssert((-0.3 * w - eps...0.3 * w + eps).contains(p.velocityX), "vx \(p.velocityX)")
        XCTAssert((0...360).contains(p.rotation))
        XCTAssert((-400...400).contains(p.spin))
        XCTAssert((25...45).contains(p.flutterAmplitude))
        XCTAssert((4...7).contains(p.flutterFrequency))
        XCTAssert((0...(2 * .pi)).contains(p.flutterPhase))
        XCTAssert((3...6).contains(p.flipFrequency))
        XCTAssert((0...(2 * .pi)).contains(p.flipPhase))
        XCTAssert((8...18).contains(p.spread))
        XCTAssertEqual(p.lifetime, 1.5)
        XCTAssertEqual(p.fade, 0.4)
        XCTAssertEqual(p.gravity, 280)
        XCTAssertEqual(p.drag, 1.6)
        XCTAssertTrue(p.flips)
        XCTAssertFalse(p.darkensBack, "the classic pieces keep their colour while tumbling")
        seenSizes.insert("\(p.size.width)x\(p.size.height)")
        seenColors.insert(p.color)
      }
      XCTAssertEqual(seenSizes, ["10.0x10.0", "12.0x7.0", "7.0x12.0"])
      XCTAssertEqual(seenColors, Set(RGBA8.confettiPalette))
      // Uniform and independent: each speed fills its range, whatever the other is.
      let fastest = pieces.filter { $0.velocityY < -1.8 * h * 1.03 }
      XCTAssert(fastest.contains { $0.velocityX > 0.27 * w }, "wide launches among the fastest")
      XCTAssert(fastest.contains { $0.velocityX < -0.27 * w })
      let xs = pieces.map(\.origin.x)
      XCTAssertLessThan(xs.min()!, 0.17 * w)
      XCTAssertGreaterThan(xs.max()!, 0.83 * w)
    }
  }

  func testTheSameSeedGivesTheSameShotAndAnotherSeedAnother() throws {
    let window = Size(width: 1280, height: 720)
    func shot(seed: UInt64) throws -> [ParticleRecord] {
      var scene = try EffectScene(config: Presets.named("classic-cannon"), capacity: 30, seed: seed)
      scene.trigger(.key, window: window, time: 1)
      return scene.ring.records
    }
    XCTAssertEqual(try shot(seed: 42), try shot(seed: 42))
    XCTAssertNotEqual(try shot(seed: 42), try shot(seed: 43))
  }

  func testAClickBurstStartsEveryPieceAtThePointerAndFliesOutOverTheCircle() throws {
    var scene = try EffectScene(config: Presets.named("confetti"), capacity: 100, seed: 9)
    let point = Point(x: 300, y: 200)
    scene.trigger(.click, at: point, window: Size(width: 640, height: 480), time: 1)
    XCTAssertEqual(scene.ring.drawnCount, 80)
    var (left, right) = (0, 0)
    for slot in scene.ring.drawnSlotRanges.joined() {
      let p = scene.ring.records[slot].particle
      // Every piece starts at the point: its sway is measured from where it is born.
      let born = try XCTUnwrap(ConfettiPhysics.state(of: p, age: 0))
      XCTAssertEqual(born.position.x, point.x, accuracy: 1e-3)
      XCTAssertEqual(born.position.y, point.y, accuracy: 1e-9)
      XCTAssertGreaterThan(p.flutterAmplitude, 17, "the pieces do sway")
      // 6 ± 1 s, or less for a piece that lands on the floor and rests there.
      XCTAssert((0.5...7 + 1e-2).contains(p.lifetime), "lifetime \(p.lifetime)")
      // Half floats in the record: speeds to within their precision.
      let launch = (p.velocityX * p.velocityX + pow(p.velocityY + 220, 2)).squareRoot()
      XCTAssert((139...501).contains(launch), "launch speed \(launch)")
      if p.velocityX < 0 { left += 1 } else { right += 1 }
    }
    XCTAssertGreaterThan(left, 10)
    XCTAssertGreaterThan(right, 10)
  }

  func testSplitMix64MatchesItsReferenceOutput() {
    // The first outputs for seed 0, from the reference C implementation.
    var random = SplitMix64(seed: 0)
    XCTAssertEqual(random.next(), 0xE220_A839_7B1D_CDAF)
    XCTAssertEqual(random.next(), 0x6E78_9E6A_A1B9_65F4)
  }
}
