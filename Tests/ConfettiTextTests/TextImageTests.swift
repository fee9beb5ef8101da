import ConfettiImage
import ConfettiTestSupport
import ConfettiText
import Foundation
import XCTest

/// Text and emoji shapes drawn from the system's fonts: colour emoji keep their colours,
/// letters are white for the cell's colour to tint, and a character no font has is one line
/// naming the package to install.
final class TextImageTests: XCTestCase {
  /// Skips where the fonts are missing, but for CI, whose `.ci/deps` installs them.
  func requireFonts() throws {
    let fonts = [
      "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
      "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    ]
    guard fonts.allSatisfy(FileManager.default.fileExists) else {
      throw unavailable("needs fonts-noto-color-emoji and fonts-dejavu-core")
    }
  }

  func testAnEmojiKeepsItsColours() throws {
    try requireFonts()
    let image = try TextImage.render("🎉")
    XCTAssert((40...256).contains(max(image.width, image.height)), "\(image.width)×\(image.height)")
    var colourful = 0
    var opaque = 0
    for y in 0..<image.height {
      for x in 0..<image.width {
        let p = image[x, y]
        guard p.alpha > 200 else { continue }
        opaque += 1
        let channels = [p.red, p.green, p.blue].map(Int.init)
        if channels.max()! - channels.min()! > 80 { colourful += 1 }
      }
    }
    XCTAssertGreaterThan(opaque, image.width * image.height / 5, "a glyph, not a blank")
    XCTAssertGreaterThan(colourful, opaque / 4, "in its own colours")
  }

  func testLettersAreWhiteForTheColourToTint() throws {
    try requireFonts()
    let image = try TextImage.render("Hi")
    XCTAssertGreaterThan(image.width, image.height, "two letters side by side")
    var ink = 0
    for y in 0..<image.height {
      for x in 0..<image.width where image[x, y].alpha > 0 {
        ink += 1
        XCTAssertEqual(image[x, y].red, 255)
        XCTAssertEqual(image[x, y].blue, 255)
      }
    }
    XCTAssertGreaterThan(ink, 500)
    // Trimmed to its ink: every edge row and column holds some.
    XCTAssert((0..<image.width).contains { image[$0, 0].alpha > 0 })
    XCTAssert((0..<image.height).contains { image[0, $0].alpha > 0 })
  }

  func testLongTextIsShrunkToTheLargestSide() throws {
    try requireFonts()
    let image = try TextImage.render("Congratulations", largest: 200)
    XCTAssertEqual(max(image.width, image.height), 200, accuracy: 1)
  }

  /// A missing font's message names a package that has the character: DejaVu has no Chinese.
  func testTheFontToInstallHasTheCharacter() {
    let cases: [(Unicode.Scalar, String)] = [
      ("🎉", "fonts-noto-color-emoji"), ("祝", "fonts-noto-cjk"), ("ひ", "fonts-noto-cjk"),
      ("한", "fonts-noto-cjk"), ("é", "fonts-dejavu-core"), ("Ж", "fonts-dejavu-core"),
      ("★", "fonts-dejavu-core"), ("अ", "fonts-noto-core"), ("ก", "fonts-noto-core"),
    ]
    for (scalar, package) in cases {
      XCTAssertEqual(TextImage.fontPackage(for: scalar), package, "\(scalar)")
    }
  }

  func testOnlySpacesAreRefused() throws {
    try requireFonts()
    XCTAssertThrowsError(try TextImage.render("   ")) {
      XCTAssert("\($0)".contains("nothing to draw (nothing in it shows)"), "\($0)")
    }
  }

  func testNothingToDrawIsRefused() {
    XCTAssertThrowsError(try TextImage.render("")) {
      XCTAssert("\($0)".contains("at least one character"), "\($0)")
    }
    XCTAssertThrowsError(try TextImage.render("\u{200D}\u{FE0F}")) {
      XCTAssert("\($0)".contains("nothing to draw (only joiners)"), "\($0)")
    }
  }
}
