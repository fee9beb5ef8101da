import ConfettiGL
import ConfettiImage
import XCTest

/// The shape atlas and its mipmap levels, made here rather than by glGenerateMipmap, whose
/// filter each GL chooses. (With the GL's own levels, and the GL's own derivatives in
/// particle.frag, an NVIDIA H100 drew a text shape's light 0.43 px off its place, where llvmpipe
/// drew it within 0.25 px: `sh .ci/gpu-check`.)
final class AtlasTests: XCTestCase {
  func testImagesOfAnySizeStartOnWholePixelsOfEveryLevel() throws {
    let sizes = [(13, 7), (30, 31), (1, 1), (64, 3)]
    let images = sizes.map { width, height in
      RGBAImage(width: width, height: height, fill: .init(red: 200, green: 90, blue: 10))
    }
    let (pixels, width, height, rects) = try ShapeUniforms.pack(images)
    let step = 1 << ShapeUniforms.mipmapLevels
    XCTAssertEqual(pixels.count, width * height * 4)
    XCTAssertEqual(width % step, 0, "the atlas is \(width) wide")
    XCTAssertEqual(height % step, 0, "the atlas is \(height) tall")
    var end = 0
    for (index, (imageWidth, imageHeight)) in sizes.enumerated() {
      let rect = rects[4 * index..<4 * index + 4].map(Double.init)
      let (left, top) = (rect[0] * Double(width), rect[1] * Double(height))
      XCTAssertEqual(rect[2] * Double(width), Double(imageWidth), accuracy: 1e-3)
      XCTAssertEqual(rect[3] * Double(height), Double(imageHeight), accuracy: 1e-3)
      for origin in [left, top] {
        XCTAssertEqual(origin, origin.rounded(), accuracy: 1e-3, "on a whole pixel")
        XCTAssertEqual(Int(origin.rounded()) % step, 0, "\(origin) starts a pixel of every level")
      }
      XCTAssertGreaterThanOrEqual(left - Double(end), Double(ShapeUniforms.padding), "apart")
      end = Int(left.rounded()) + imageWidth
      // The image's own pixels, premultiplied (opaque here), and clear around it.
      let inside = ((Int(top.rounded()) * width) + Int(left.rounded())) * 4
      XCTAssertEqual(Array(pixels[inside..<inside + 4]), [200, 90, 10, 255])
      XCTAssertEqual(Array(pixels[inside - 4..<inside]), [0, 0, 0, 0])
    }
    XCTAssertGreaterThanOrEqual(width - end, ShapeUniforms.padding)

    // No images: still an atlas every level of which has a pixel.
    let empty = try ShapeUniforms.pack([])
    XCTAssertEqual([empty.width, empty.height], [4, 8])
    let levels = ShapeUniforms.mipmaps(of: empty.pixels, width: empty.width, height: empty.height)
    XCTAssertEqual(levels.map(\.count), [4 * 8 * 4, 2 * 4 * 4, 1 * 2 * 4])
  }

  func testEachLevelIsTheOneAboveAveragedTwoByTwo() {
    let (width, height) = (12, 8)
    var seed: UInt64 = 7
    var pixels: [UInt8] = []
    for _ in 0..<width * height {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let alpha = seed >> 56
      // Premultiplied: no channel above its alpha.
      for channel: UInt64 in 0..<3 {
        let share = (seed >> (8 * channel + 8)) & 255
        pixels.append(UInt8(alpha * share / 255))
      }
      pixels.append(UInt8(alpha))
    }
    let levels = ShapeUniforms.mipmaps(of: pixels, width: width, height: height)
    XCTAssertEqual(levels.count, ShapeUniforms.mipmapLevels + 1)
    XCTAssertEqual(levels[0], pixels)
    for level in 1..<levels.count {
      let (w, h) = (width >> level, height >> level)
      XCTAssertEqual(levels[level].count, w * h * 4)
      let above = levels[level - 1]
      for y in 0..<h {
        for x in 0..<w {
          let first = (y * w + x) * 4
          let pixel = Array(levels[level][first..<first + 4])
          for channel in 0..<4 {
            var sum = 0
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
              let row = (2 * y + dy) * 2 * w
              sum += Int(above[(row + 2 * x + dx) * 4 + channel])
            }
            XCTAssertEqual(Int(pixel[channel]), (sum + 2) / 4, "level \(level) (\(x), \(y))")
          }
          XCTAssert(pixel[0...2].allSatisfy { $0 <= pixel[3] }, "still premultiplied: \(pixel)")
        }
      }
    }
  }
}
