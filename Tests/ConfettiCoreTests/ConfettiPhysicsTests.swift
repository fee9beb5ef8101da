import ConfettiCore
import Foundation
import XCTest

/// The CPU reference against the numbers the seed article states.
final class ConfettiPhysicsTests: XCTestCase {
  func testTerminalVelocityIsTheSeeds175() {
    XCTAssertEqual(
      ConfettiPhysics.terminalVelocity(gravity: 280, drag: 1.6), 175, accuracy: 1e-12)
  }

  func testDragFactorAtKnownAges() {
    XCTAssertEqual(ConfettiPhysics.dragFactor(drag: 1.6, age: 0), 0)
    // 1 − e^(−1.6·0.5) = 1 − e^(−0.8)
    XCTAssertEqual(
      ConfettiPhysics.dragFactor(drag: 1.6, age: 0.5), 0.550_671_035_882_778_4, accuracy: 1e-12)
    XCTAssertEqual(ConfettiPhysics.dragFactor(drag: 1.6, age: 1.5), 1 - exp(-2.4), accuracy: 1e-15)
    XCTAssertEqual(ConfettiPhysics.dragFactor(drag: 1.6, age: 100), 1, accuracy: 1e-15)
  }

  func testFadeRampOverTheLastPointFourSeconds() {
    // Lifetime 1.5 s, fade 0.4 s: opaque until 1.1 s, then linear to 0 at 1.5 s.
    XCTAssertEqual(ConfettiPhysics.opacity(age: 0, lifetime: 1.5, fade: 0.4), 1)
    XCTAssertEqual(ConfettiPhysics.opacity(age: 1.0, lifetime: 1.5, fade: 0.4), 1)
    XCTAssertEqual(ConfettiPhysics.opacity(age: 1.1, lifetime: 1.5, fade: 0.4), 1, accuracy: 1e-12)
    XCTAssertEqual(
      ConfettiPhysics.opacity(age: 1.3, lifetime: 1.5, fade: 0.4), 0.5, accuracy: 1e-12)
    XCTAssertEqual(ConfettiPhysics.opacity(age: 1.5, lifetime: 1.5, fade: 0.4), 0, accuracy: 1e-12)
  }

  func testFlipWidthNeverFallsBelowFifteenPercent() {
    // Edge-on: cos(π/2) = 0, floored at 0.15.
    XCTAssertEqual(ConfettiPhysics.flipScale(frequency: 1, phase: .pi / 2, age: 0), 0.15)
    XCTAssertEqual(ConfettiPhysics.flipScale(frequency: 1, phase: 0, age: 0), 1)
    XCTAssertEqual(
      ConfettiPhysics.flipScale(frequency: 2, phase: 0, age: .pi / 2), 1, accuracy: 1e-12)
    for age in stride(from: 0.0, to: 3.0, by: 0.001) {
      let scale = ConfettiPhysics.flipScale(frequency: 4.7, phase: 1.3, age: age)
      XCTAssert((0.15...1).contains(scale), "flip scale \(scale) at \(age) s")
    }
  }

  func testAParticleAtRestFallsTowardTerminalVelocity() {
    var p = ConfettiParticle()
    p.lifetime = 100
    let speed = { (t: Double) in
      ConfettiPhysics.state(of: p, age: t + 1e-4)!.position.y
        - ConfettiPhysics.state(of: p, age: t)!.position.y
    }
    XCTAssertEqual(speed(0) / 1e-4, 0, accuracy: 0.05)  // starts at rest
    XCTAssertEqual(speed(20) / 1e-4, 175, accuracy: 0.01)  // then falls at g/k
  }

  func testHandComputedStateOfOneParticle() throws {
    var p = ConfettiParticle()
    p.origin = Point(x: 100, y: 500)
    p.velocityX = -80
    p.velocityY = -900
    p.flutterAmplitude = 30
    p.flutterFrequency = 5
    p.flutterPhase = 0.25
    p.flipFrequency = 4
    p.flipPhase = 1
    p.spread = 10
    p.rotation = 30
    p.spin = 200
    let t = 0.75
    let state = try XCTUnwrap(ConfettiPhysics.state(of: p, age: t))
    let d = 1 - exp(-1.6 * t)
    // vx < 0: the spread pushes left.
    let x = 100 + (-80 / 1.6) * d + 30 * sin(5 * t + 0.25) - 10 * t * t
    let y = 500 + (-900 / 1.6) * d + 175 * (t - d / 1.6)
    XCTAssertEqual(state.position.x, x, accuracy: 1e-9)
    XCTAssertEqual(state.position.y, y, accuracy: 1e-9)
    XCTAssertEqual(state.rotation, 30 + 200 * t, accuracy: 1e-9)
    XCTAssertEqual(state.widthScale, max(0.15, abs(cos(4 * t + 1))), accuracy: 1e-12)
    XCTAssertEqual(state.opacity, 1)
  }

  func testNotAliveBeforeBirthOrFromTheEndOfItsLifetime() {
    let p = ConfettiParticle()
    XCTAssertNil(ConfettiPhysics.state(of: p, age: -0.001))
    XCTAssertNotNil(ConfettiPhysics.state(of: p, age: 0))
    XCTAssertNotNil(ConfettiPhysics.state(of: p, age: 1.499))
    XCTAssertNil(ConfettiPhysics.state(of: p, age: 1.5))
  }

  func testAFlatPieceKeepsItsWidth() throws {
    var p = ConfettiParticle()
    p.flips = false
    p.flipFrequency = 5
    XCTAssertEqual(try XCTUnwrap(ConfettiPhysics.state(of: p, age: 0.3)).widthScale, 1)
  }
}
