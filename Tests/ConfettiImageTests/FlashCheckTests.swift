import ConfettiImage
import XCTest

/// The flash check against frames whose flashes are known: WCAG 2.3.1's general and red
/// flashes, its area rule and its rate rule.
final class FlashCheckTests: XCTestCase {
  private let (width, height, fps) = (256, 192, 30.0)

  /// Checks `seconds` of frames, each `paint(frame)`'s colour wherever `inside(x, y)` holds and
  /// black elsewhere.
  private func check(
    seconds: Double, inside: (Int, Int) -> Bool = { _, _ in true },
    paint: (Int) -> (UInt8, UInt8, UInt8)
  ) -> FlashCheck {
    var check = FlashCheck(width: width, height: height, fps: fps)
    var frames: [[UInt8]: [UInt8]] = [:]  // each colour's frame, made once
    for frame in 0..<Int(seconds * fps) {
      let (r, g, b) = paint(frame)
      let bytes =
        frames[[r, g, b]]
        ?? {
          var bytes = [UInt8](repeating: 0, count: width * height * 4)
          for y in 0..<height {
            for x in 0..<width {
              let at = (y * width + x) * 4
              if inside(x, y) { (bytes[at], bytes[at + 1], bytes[at + 2]) = (r, g, b) }
              bytes[at + 3] = 255
            }
          }
          frames[[r, g, b]] = bytes
          return bytes
        }()
      bytes.withUnsafeBytes { check.add(rgba: $0) }
    }
    return check
  }

  /// Black and white in turns, `hertz` times a second.
  private func blinking(_ hertz: Double) -> (Int) -> (UInt8, UInt8, UInt8) {
    { [fps] frame in
      Int(Double(frame) / fps * hertz * 2) % 2 == 0 ? (0, 0, 0) : (255, 255, 255)
    }
  }

  func testTheWholeFrameBlinkingFiveTimesASecondFails() {
    let result = check(seconds: 3, paint: blinking(5))
    XCTAssertFalse(result.passes)
    XCTAssertEqual(result.general.flashesPerSecond, 5, accuracy: 0.5)
    XCTAssertEqual(result.general.shareAboveLimit, 1)
    XCTAssertTrue(result.red.passes, "white is not red")
    XCTAssert(result.summary.hasPrefix("flashes: fails WCAG 2.3.1"), result.summary)
  }

  func testBlinkingOnceASecondPasses() {
    let result = check(seconds: 3, paint: blinking(1))
    XCTAssertTrue(result.passes, result.summary)
    XCTAssertEqual(result.general.flashesPerSecond, 1, accuracy: 0.5)
    XCTAssertEqual(result.general.shareAboveLimit, 0)
  }

  /// A fast blink over less than a quarter of every region passes; over more, it fails.
  func testOnlyAQuarterOfARegionMayFlashFaster() {
    // A region is 85 × 64 cells here: 5,440. 900 of them is 16.5 %; 2,025, 37 %.
    for (side, passes) in [(30, true), (45, false)] {
      let result = check(seconds: 3, inside: { x, y in x < side && y < side }, paint: blinking(5))
      XCTAssertEqual(result.passes, passes, "a square of \(side): \(result.summary)")
      XCTAssertEqual(
        result.general.shareAboveLimit, Double(side * side) / (85 * 64), accuracy: 0.01)
    }
  }

  /// Dark red and black: too little change in luminance for a general flash, a red flash
  /// all the same.
  func testASaturatedRedFlashFailsWhereLuminanceAloneWouldPass() {
    let result = check(seconds: 3) { frame in
      Int(Double(frame) / self.fps * 10) % 2 == 0 ? (0, 0, 0) : (128, 0, 0)
    }
    XCTAssertTrue(result.general.passes, result.summary)
    XCTAssertEqual(result.general.flashesPerSecond, 0)
    XCTAssertFalse(result.red.passes, result.summary)
    XCTAssertFalse(result.passes)
  }

  /// A slow fade from black to white and back, however far it goes, is one flash.
  func testAFadeIsOneChangeNotMany() {
    let result = check(seconds: 2) { frame in
      let level = UInt8(255 * (1 - abs(Double(frame) / 30 - 1)))
      return (level, level, level)
    }
    XCTAssertTrue(result.passes, result.summary)
    XCTAssertLessThanOrEqual(result.general.flashesPerSecond, 1)
  }

  /// Changes below a tenth of the luminance, or between two bright states, are not flashes.
  func testSmallChangesAndBrightOnesAreNotFlashes() {
    let faint = check(seconds: 2) { frame in frame % 2 == 0 ? (20, 20, 20) : (40, 40, 40) }
    XCTAssertEqual(faint.general.flashesPerSecond, 0, faint.summary)
    XCTAssertEqual(faint.general.shareAboveLimit, 0)
    // Luminance 0.83 and 1: the darker state is not below 0.8.
    let bright = check(seconds: 2) { frame in frame % 2 == 0 ? (235, 235, 235) : (255, 255, 255) }
    XCTAssertEqual(bright.general.shareAboveLimit, 0, bright.summary)
  }
}
