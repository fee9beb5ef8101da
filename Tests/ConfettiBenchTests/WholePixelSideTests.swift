import ConfettiCore
import ConfettiGL
import XCTest

@testable import ConfettiBench

/// The whole-pixel square a compatibility profile draws for a point (the vertex shader's size,
/// mirrored in Swift for the bench's count of shaded pixels) holds every pixel the exact sprite
/// would, wherever the GL rounds the centre to.
final class WholePixelSideTests: XCTestCase {
  /// The pixels (first, last) the GL's rule for points that are not sprites covers along one
  /// axis for a square of whole side `side` centred at `c`: around the pixel holding the centre
  /// for an odd side, around the nearest pixel corner for an even one.
  func covered(_ c: Double, side: Int) -> (Int, Int) {
    let first =
      side % 2 == 1
      ? Int(c.rounded(.down)) - (side - 1) / 2 : Int((c + 0.5).rounded(.down)) - side / 2
    return (first, first + side - 1)
  }

  func testTheSquareHoldsTheSpritesPixelsWhereverTheGLPlacesItsCentre() {
    var random = SplitMix64(seed: 5)
    let slack = ShaderConstants.wholePixelSlack
    var widths = 0.0
    let count = 20_000
    for index in 0..<count {
      // Centres on and near pixel edges and middles too, where rounding decides.
      var centre = (x: Double.random(in: 0...2000, using: &random), y: 0.0)
      centre.y =
        index % 4 == 0
        ? centre.x.rounded() + [0, 0.5, -0.004, 0.004][index % 16 / 4]
        : .random(in: 0...2000, using: &random)
      let side: Double =
        index % 5 == 0 ? .random(in: 0.1...3, using: &random) : .random(in: 3...60, using: &random)
      let whole = SpriteCoverage.wholePixelSide(centre: centre, side: side)
      XCTAssertEqual(whole, whole.rounded(), "a whole number of pixels")
      XCTAssertLessThanOrEqual(whole, side + ShaderConstants.wholePixelMargin, "\(centre), \(side)")
      widths += whole - side
      for c in [centre.x, centre.y] {
        // The pixels whose centres the exact square holds.
        let first = Int((c - side / 2 - 0.5).rounded(.up))
        let last = Int((c + side / 2 - 0.5).rounded(.down))
        guard first <= last else { continue }
        for placed in [c - slack * 0.99, c, c + slack * 0.99] {
          let (from, to) = covered(placed, side: Int(whole))
          XCTAssertLessThanOrEqual(from, first, "centre \(c) placed at \(placed), side \(side)")
          XCTAssertGreaterThanOrEqual(to, last, "centre \(c) placed at \(placed), side \(side)")
        }
      }
    }
    // Wider than the sprite by about a pixel on average, and no more.
    XCTAssertLessThan(widths / Double(count), 1.5)
  }
}
