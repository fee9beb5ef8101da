import ConfettiImage
import XCTest

/// Within the golden tolerance: no pixel of `drawn` more than 10 % of full scale from
/// `expected`, the program's (two rasterisers round the last bit apart), and more than 1,000
/// pieces' pixels to compare. For the examples and ports that draw the program's records.
func assertLooksLikeTheRender(
  _ drawn: RGBAImage, _ expected: RGBAImage, _ what: String, file: StaticString = #filePath,
  line: UInt = #line
) {
  XCTAssertEqual(
    [drawn.width, drawn.height], [expected.width, expected.height], what, file: file, line: line)
  guard drawn.width == expected.width, drawn.height == expected.height else { return }
  var (far, painted) = (0, 0)
  for y in 0..<expected.height {
    for x in 0..<expected.width {
      let (a, b) = (drawn[x, y], expected[x, y])
      let difference = max(
        abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)),
        abs(Int(a.blue) - Int(b.blue)))
      if difference > 25 { far += 1 }
      if b != expected[0, 0] { painted += 1 }
    }
  }
  XCTAssertGreaterThan(painted, 1000, "\(what): pieces to compare", file: file, line: line)
  XCTAssertEqual(
    far, 0, "\(what): \(far) pixels differ by more than 10 %", file: file, line: line)
}
