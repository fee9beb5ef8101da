import ConfettiCore
import ConfettiGL
import ConfettiGLTestSupport
import ConfettiImage
import ConfettiPresets
import ConfettiTestSupport
import XCTest

/// `confetti render`'s pictures: properties any renderer must show, and, on the llvmpipe our
/// machines and CI run, the exact pixels (a hash pinned to its output).
final class GoldenImageTests: HeadlessGLTestCase {
  /// The renderer whose output the hashes below were taken from.
  static let pinnedRenderer = "llvmpipe (LLVM 15.0.6, 256 bits)"
  /// FNV-1a 64 of the RGBA bytes of the `classic-cannon` preset's shot (seed 1, 320×240) at these
  /// moments after it. (Last re-pinned when a rectangle's smoothed edge became the product of
  /// its two axes' coverage, square at its corners, and point sprites stopped being rounded up
  /// to whole pixels.)
  static let pinnedHashes: [Double: UInt64] = [
    0.25: 13_779_046_324_025_414_965, 0.5: 7_853_607_803_592_125_360,
    1.2: 813_134_617_899_190_886,
  ]

  let window = Size(width: 320, height: 240)

  /// When the cannon fires: a second in, so that the shot's "time 0" has room before it.
  let shotTime = 1.0

  func shot(at time: Double) throws -> (RGBAImage, EffectScene) {
    var scene = try EffectScene(config: Presets.named("classic-cannon"), capacity: 30, seed: 1)
    scene.trigger(.key, window: window, time: shotTime)
    let target = try OffscreenTarget(width: 320, height: 240, info: context.info)
    let renderer = try ParticleRenderer(capacity: scene.ring.capacity, info: context.info)
    renderer.setCellTable(scene.table)
    let image = try target.snapshot(
      of: &scene.ring, at: Tick(shotTime + time), window: window, renderer: renderer)
    return (image, scene)
  }

  func testTheCannonShotLooksRightOnAnyRenderer() throws {
    for time in [0.25, 0.5, 1.2] {
      let (image, scene) = try shot(at: time)
      let now = Tick(shotTime + time)
      let states = scene.ring.records.compactMap {
        ConfettiPhysics.state(of: $0, at: now, table: scene.table)
      }
      XCTAssertEqual(states.count, 30)
      let background = pixel(GLFrame.background)
      var seen = Set<RGBAImage.Pixel>()
      for y in 0..<image.height {
        for x in 0..<image.width where image[x, y] != background {
          seen.insert(image[x, y])
          // Painted only within a piece's reach (half its 12-point diagonal plus a pixel).
          let near = states.contains { state in
            abs(state.position.x - (Double(x) + 0.5)) <= 9.5
              && abs(state.position.y - (Double(y) + 0.5)) <= 9.5
          }
          XCTAssert(near, "pixel (\(x), \(y)) at \(time) s is painted far from every piece")
        }
      }
      // Whole pixels of the palette's colours, faded by opacity near the end.
      let opacity = states.map(\.opacity).max()!
      let palette = RGBA8.confettiPalette.map { blend($0, opacity: opacity) }
      let found = palette.filter { colour in seen.contains { close($0, colour) } }
      XCTAssertGreaterThanOrEqual(
        found.count, 4, "at \(time) s only \(found.count) palette colours")
    }
  }

  func testThePixelsMatchThePinnedLlvmpipeOutput() throws {
    guard context.info.renderer == Self.pinnedRenderer else {
      throw unavailable("has hashes pinned to \(Self.pinnedRenderer), not \(context.info.renderer)")
    }
    for (time, hash) in Self.pinnedHashes.sorted(by: { $0.key < $1.key }) {
      let (image, _) = try shot(at: time)
      XCTAssertEqual(fnv1a(image.bytes), hash, "the picture at \(time) s changed")
    }
  }

  func pixel(_ c: RGBA8) -> RGBAImage.Pixel {
    RGBAImage.Pixel(red: c.red, green: c.green, blue: c.blue)
  }

  /// `colour` at `opacity` over the background, as the premultiplied blend writes it.
  func blend(_ colour: RGBA8, opacity: Double) -> RGBAImage.Pixel {
    let b = GLFrame.background
    func mix(_ c: UInt8, _ under: UInt8) -> UInt8 {
      UInt8((Double(c) * opacity + Double(under) * (1 - opacity)).rounded())
    }
    return RGBAImage.Pixel(
      red: mix(colour.red, b.red), green: mix(colour.green, b.green), blue: mix(colour.blue, b.blue)
    )
  }

  func close(_ a: RGBAImage.Pixel, _ b: RGBAImage.Pixel) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= 3 && abs(Int(a.green) - Int(b.green)) <= 3
      && abs(Int(a.blue) - Int(b.blue)) <= 3
  }

  func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
  }
}
