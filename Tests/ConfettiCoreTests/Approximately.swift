import XCTest

/// Asserts |actual − expected| ≤ tolerance, naming both in the failure.
func assertClose(
  _ actual: Double, _ expected: Double, within tolerance: Double, _ message: String = "",
  file: StaticString = #filePath, line: UInt = #line
) {
  XCTAssert(
    abs(actual - expected) <= tolerance,
    "\(actual) is not within \(tolerance) of \(expected) \(message)", file: file, line: line)
}
