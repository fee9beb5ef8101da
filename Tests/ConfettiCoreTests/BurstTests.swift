import ConfettiCore
import Foundation
import XCTest

final class BurstTests: XCTestCase {
  let window = Size(width: 1280, height: 720)

  func testTheCannonDrawsEveryParameterFromTheSeedsRanges() {
    var random = SplitMix64(seed: 1)
    var seenSizes = Set<String>()
    var seenColors = Set<RGBA8>()
    for _ in 0..<50 {
      let burst = CannonBurst().spawn(in: window, using: &random)
      XCTAssertEqual(burst.count, 30)
      for p in burst {
        XCTAssert((0.15 * 1280...0.85 * 1280).contains(p.origin.x))
        XCTAssertEqual(p.origin.y, 720 + 20)
        XCTAssert((-1.8 * 720 * 1.1 ... -1.8 * 720 * 0.85).contains(p.velocityY), "\(p.velocityY)")
        XCTAssert((-0.3 * 1280...0.3 * 1280).contains(p.velocityX))
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
        seenSizes.insert("\(p.size.width)x\(p.size.height)")
        seenColors.insert(p.color)
      }
    }
    // 1500 draws: every size and colour turns up.
    XCTAssertEqual(seenSizes, ["10.0x10.0", "12.0x7.0", "7.0x12.0"])
    XCTAssertEqual(seenColors, Set(RGBA8.confettiPalette))
  }

  func testTheSameSeedGivesTheSameBurstAndAnotherSeedAnother() {
    var a = SplitMix64(seed: 42)
    var b = SplitMix64(seed: 42)
    var c = SplitMix64(seed: 43)
    let first = CannonBurst().spawn(in: window, using: &a)
    XCTAssertEqual(first, CannonBurst().spawn(in: window, using: &b))
    XCTAssertNotEqual(first, CannonBurst().spawn(in: window, using: &c))
  }

  func testThePointerBurstStartsAtThePointerAndFliesOutOverTheCircle() {
    var random = SplitMix64(seed: 9)
    let point = Point(x: 300, y: 200)
    let burst = PointerBurst().spawn(at: point, using: &random)
    XCTAssertEqual(burst.count, 60)
    var left = 0
    var right = 0
    for p in burst {
      XCTAssertEqual(p.origin, point)
      XCTAssert((2...3).contains(p.lifetime))
      let launch = (p.velocityX * p.velocityX + pow(p.velocityY + 200, 2)).squareRoot()
      XCTAssert((120 - 1e-9...480 + 1e-9).contains(launch), "launch speed \(launch)")
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
