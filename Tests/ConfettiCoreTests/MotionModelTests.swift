import ConfettiCore
import Foundation
import XCTest

/// The closed forms beyond the seed's confetti: ballistic pieces, per-axis drag, acceleration,
/// growth, shrinking, colour ramps, wind and gusts.
final class MotionModelTests: XCTestCase {
  func testWithoutDragMotionIsBallistic() throws {
    // The tap-burst seed: no drag, gravity 120 pt/s².
    var p = ConfettiParticle()
    p.drag = 0
    p.gravity = 120
    p.origin = Point(x: 50, y: 60)
    p.velocityX = 90
    p.velocityY = -200
    p.lifetime = 3
    let t = 1.25
    let state = try XCTUnwrap(ConfettiPhysics.state(of: p, age: t))
    XCTAssertEqual(state.position.x, 50 + 90 * t, accuracy: 1e-9)
    XCTAssertEqual(state.position.y, 60 - 200 * t + 120 * t * t / 2, accuracy: 1e-9)
  }

  func testTheResponsesAreContinuousWhereTheSeriesHandsOverToTheClosedForm() {
    let k = 2.0
    let t = ConfettiPhysics.seriesLimit / k
    let below = t * (1 - 1e-12)
    let closedE = (1 - exp(-k * below)) / k
    let closedF = (below - closedE) / k
    XCTAssertEqual(ConfettiPhysics.velocityResponse(drag: k, age: below), closedE, accuracy: 1e-12)
    XCTAssertEqual(
      ConfettiPhysics.accelerationResponse(drag: k, age: below), closedF, accuracy: 1e-11)
    XCTAssertEqual(ConfettiPhysics.velocityResponse(drag: 0, age: 3), 3)
    XCTAssertEqual(ConfettiPhysics.accelerationResponse(drag: 0, age: 3), 4.5)
  }

  func testHorizontalDragAloneStopsTheSidewaysDriftButNotTheFall() throws {
    // The continuous emitter seed: 0.92 per 1/60 s horizontally, i.e. k = −60·ln 0.92 ≈ 5/s.
    var p = ConfettiParticle()
    p.dragX = -60 * log(0.92)
    p.dragY = 0
    p.gravity = 80
    p.velocityX = 100
    p.velocityY = -140
    p.lifetime = 30
    let late = try XCTUnwrap(ConfettiPhysics.state(of: p, age: 20))
    XCTAssertEqual(late.position.x, 100 / p.dragX, accuracy: 1e-6, "coasts to v/k")
    XCTAssertEqual(late.position.y, -140 * 20 + 80 * 400 / 2, accuracy: 1e-6, "falls freely")
  }

  func testSidewaysAccelerationGrowthAndShrinking() throws {
    var p = ConfettiParticle()
    p.drag = 0
    p.gravity = 0
    p.accelerationX = 30
    p.scaleSpeed = 0.5
    p.size = Size(width: 10, height: 20)
    p.flips = false
    p.lifetime = 4
    let state = try XCTUnwrap(ConfettiPhysics.state(of: p, age: 2))
    XCTAssertEqual(state.position.x, 30 * 4 / 2, accuracy: 1e-9)
    XCTAssertEqual(state.size, Size(width: 20, height: 40), "1 + 0.5·2 = twice the size")
    p.shrinksWithLife = true
    let shrunk = try XCTUnwrap(ConfettiPhysics.state(of: p, age: 2))
    XCTAssertEqual(shrunk.size, Size(width: 10, height: 20), "and half the life remains")
    p.scaleSpeed = -1
    XCTAssertEqual(
      try XCTUnwrap(ConfettiPhysics.state(of: p, age: 3)).size.width, 0, "never negative")
  }

  func testColourRampsClampToTheUnitRange() throws {
    var p = ConfettiParticle()
    p.color = RGBA8(red: 255, green: 0, blue: 51, alpha: 255)
    p.lifetime = 10
    var style = CellStyle()
    style.colorSpeed = [0.5, 0.25, -0.1, -0.2]
    let state = try XCTUnwrap(ConfettiPhysics.state(of: p, age: 2, style: style))
    XCTAssertEqual(state.color[0], 1, "red clamps at full")
    XCTAssertEqual(state.color[1], 0.5, accuracy: 1e-12)
    XCTAssertEqual(state.color[2], 0, accuracy: 1e-12, "blue: 0.2 − 0.2")
    XCTAssertEqual(state.color[3], 0.6, accuracy: 1e-12)
  }

  func testWindCarriesADraggedParticleAtTheWindSpeedAndADragFreeOneNotAtAll() throws {
    var style = CellStyle()
    style.wind = 50
    var p = ConfettiParticle()
    p.gravity = 0
    p.lifetime = 100
    let x = { (t: Double) in ConfettiPhysics.state(of: p, age: t, style: style)!.position.x }
    XCTAssertEqual((x(40.001) - x(40)) / 0.001, 50, accuracy: 1e-3, "drifts at the wind's speed")
    p.drag = 0
    XCTAssertEqual(x(40), 0, "no drag, no coupling to the air")
  }

  func testAllParticlesOfAnEmitterSwayWithOneGustThatIsContinuousAcrossTheWrap() throws {
    var style = CellStyle()
    style.gustAmplitude = 30
    style.gustPeriod = 2
    XCTAssertEqual(style.gustCycles, 2048)
    XCTAssertEqual(style.gustPeriod, 2)
    // Just before and after the clock's wrap the gust's angle moves by a tick's worth.
    let before = style.gustAngle(at: Tick(rawValue: UInt32.max))
    let after = style.gustAngle(at: Tick(rawValue: 0))
    XCTAssertEqual(sin(before), sin(after), accuracy: 1e-5)
    var p = ConfettiParticle()
    p.gravity = 0
    p.lifetime = 100
    let now = Tick(rawValue: 123_456_789)
    let a = try XCTUnwrap(ConfettiPhysics.state(of: p, age: 50, style: style, now: now)).position.x
    var q = p
    q.origin.x = 500
    let b = try XCTUnwrap(ConfettiPhysics.state(of: q, age: 50, style: style, now: now)).position.x
    XCTAssertEqual(b - a, 500, accuracy: 1e-9, "the same sway for both")
    XCTAssertEqual(abs(a), 30 * abs(sin(style.gustAngle(at: now))), accuracy: 1e-6)
  }
}
