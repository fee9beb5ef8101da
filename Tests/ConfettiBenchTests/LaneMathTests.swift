import Foundation
import XCTest

@testable import ConfettiBench

/// The SIMD baseline's own sine, cosine, exponential and logarithm against Foundation's, over
/// the ranges the closed form feeds them.
final class LaneMathTests: XCTestCase {
  /// Runs `lanes` over `inputs` eight at a time and returns the worst difference from `scalar`,
  /// relative to max(1, |exact|).
  func worstError(
    _ inputs: [Float], _ lanes: (Lanes) -> Lanes, _ scalar: (Double) -> Double
  ) -> Double {
    var worst = 0.0
    for start in stride(from: 0, to: inputs.count, by: 8) {
      var x = Lanes()
      for lane in 0..<8 { x[lane] = inputs[min(start + lane, inputs.count - 1)] }
      let y = lanes(x)
      for lane in 0..<8 {
        let exact = scalar(Double(x[lane]))
        worst = max(worst, abs(Double(y[lane]) - exact) / max(1, abs(exact)))
      }
    }
    return worst
  }

  func steps(_ range: ClosedRange<Float>, count: Int) -> [Float] {
    (0...count).map {
      range.lowerBound + (range.upperBound - range.lowerBound) * Float($0) / Float(count)
    }
  }

  func testSineAndCosineOverTheAnglesOfFlutterTumbleAndGust() {
    // A tumble reaches some 6000 rad over a 600 s life; the reduction is exact to 8000.
    let angles = steps(-8000...8000, count: 400_003)
    XCTAssertLessThan(worstError(angles, { LaneMath.sinCos($0).sin }, sin), 1e-6)
    XCTAssertLessThan(worstError(angles, { LaneMath.sinCos($0).cos }, cos), 1e-6)
    // Each quadrant's signs, exactly at its edges.
    let edges: [Float] = [0, .pi / 2, .pi, 3 * .pi / 2, -.pi / 2, -.pi, 2 * .pi, -3 * .pi / 2]
    XCTAssertLessThan(worstError(edges, { LaneMath.sinCos($0).sin }, sin), 1e-6)
    XCTAssertLessThan(worstError(edges, { LaneMath.sinCos($0).cos }, cos), 1e-6)
  }

  func testTheExponentialFromNothingToLarge() {
    let inputs = steps(-80...80, count: 100_001)
    // Relative to the value itself: e^x spans 70 orders of magnitude.
    var worst = 0.0
    for start in stride(from: 0, to: inputs.count - 8, by: 8) {
      let x = Lanes(inputs[start..<(start + 8)])
      let y = LaneMath.exp(x)
      for lane in 0..<8 {
        let exact = Foundation.exp(Double(x[lane]))
        worst = max(worst, abs(Double(y[lane]) - exact) / exact)
      }
    }
    XCTAssertLessThan(worst, 1e-6)
    XCTAssertLessThan(LaneMath.exp(Lanes(repeating: -200))[0], 1e-37, "nothing, far below")
  }

  func testLogarithmAndPowerOverColourShares() {
    let shares = steps(1e-4...1, count: 100_001)
    XCTAssertLessThan(worstError(shares, LaneMath.log, Foundation.log), 1e-6)
    let powered = worstError(shares, { LaneMath.pow($0, Lanes(repeating: 1 / 0.56)) }) {
      Foundation.pow($0, 1 / 0.56)
    }
    XCTAssertLessThan(powered, 1e-6)
    XCTAssertEqual(LaneMath.pow(.zero, Lanes(repeating: 1.5)), .zero, "0 to any power is 0")
  }
}
