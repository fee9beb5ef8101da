import ConfettiImage
import XCTest

/// The pictures' pixels: straight alpha from premultiplied, as exports write them.
final class RGBAImageTests: XCTestCase {
  /// The whole picture's pass (one word at a time, a table's division) gives each pixel exactly
  /// what ``RGBAImage/Pixel/unpremultiplied`` gives it: every alpha with every colour value in
  /// each channel, light brighter than its alpha, and a hundred thousand pixels at random.
  func testAPicturesStraightAlphaIsEachPixelsOwn() {
    var pixels: [RGBAImage.Pixel] = []
    for alpha in 0...255 {
      for value in 0...255 {
        let (a, c) = (UInt8(alpha), UInt8(value))
        pixels += [
          .init(red: c, green: 0, blue: 0, alpha: a), .init(red: 0, green: c, blue: 0, alpha: a),
          .init(red: 0, green: 0, blue: c, alpha: a),
          .init(red: c, green: c / 2, blue: 255 - c, alpha: a),
        ]
      }
    }
    var random = SystemRandomNumberGenerator()
    for _ in 0..<100_000 {
      let word = random.next() as UInt32
      pixels.append(
        .init(
          red: UInt8(word & 0xff), green: UInt8(word >> 8 & 0xff),
          blue: UInt8(word >> 16 & 0xff), alpha: UInt8(word >> 24)))
    }
    var image = RGBAImage(width: pixels.count, height: 1, fill: .clear)
    for (x, pixel) in pixels.enumerated() { image[x, 0] = pixel }
    let straight = image.unpremultiplied()
    var wrong = 0
    for (x, pixel) in pixels.enumerated() where straight[x, 0] != pixel.unpremultiplied {
      if wrong < 5 {
        XCTFail("\(pixel) became \(straight[x, 0]), not \(pixel.unpremultiplied)")
      }
      wrong += 1
    }
    XCTAssertEqual(wrong, 0)
    // Light (more colour than alpha) keeps its colour at its brightest channel's alpha.
    XCTAssertEqual(
      RGBAImage.Pixel(red: 200, green: 100, blue: 0, alpha: 0).unpremultiplied,
      RGBAImage.Pixel(red: 255, green: 128, blue: 0, alpha: 200))
  }

  /// The pass skips runs of transparent pixels: a pixel among them, at any place in a run,
  /// and the last pixels of a picture whose size is not a whole number of runs, are still
  /// made straight; the transparent ones stay as they are.
  func testLonePixelsAmongTransparentOnesAreMadeStraight() {
    let lone = RGBAImage.Pixel(red: 60, green: 20, blue: 0, alpha: 120)
    let light = RGBAImage.Pixel(red: 90, green: 0, blue: 0, alpha: 0)
    for count in [1, 15, 16, 17, 31, 32, 33, 47, 100] {
      for place in 0..<count {
        var image = RGBAImage(width: count, height: 1, fill: .clear)
        image[place, 0] = place.isMultiple(of: 2) ? lone : light
        let straight = image.unpremultiplied()
        for x in 0..<count {
          let expected = x == place ? image[x, 0].unpremultiplied : .clear
          guard straight[x, 0] == expected else {
            return XCTFail("\(count) pixels, one at \(x): \(straight[x, 0]), not \(expected)")
          }
        }
      }
    }
  }
}
