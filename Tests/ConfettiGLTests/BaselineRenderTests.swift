import ConfettiBench
import ConfettiCore
import ConfettiGL
import ConfettiImage
import ConfettiPresets
import XCTest

/// The bench's baseline renderer must draw what the product draws, or its timings compare
/// different work.
final class BaselineRenderTests: HeadlessGLTestCase {
  let cannon = try! Presets.named("cannon")

  func testPlacedSpritesMatchTheShadersPicture() throws {
    let window = Size(width: 400, height: 300)
    var ring = try BenchScene(count: 2000, window: window, seed: 11, churn: false, effect: cannon)
      .ring
    let now = Tick(BenchScene.start + 0.3)
    let target = try OffscreenTarget(width: 400, height: 300, info: context.info)
    target.bind()

    let product = try ParticleRenderer(capacity: 2000, info: context.info)
    var productRing = ring
    GLFrame.clear(to: GLFrame.background)
    try product.draw(&productRing, at: now, in: target.rect, window: window)
    let expected = try target.read()

    let placed = try PlacedRenderer(capacity: 2000, info: context.info)
    var floats = [Float](repeating: 0, count: 2000 * PlacementEvaluator.floatsPerParticle)
    floats.withUnsafeMutableBufferPointer {
      PlacementEvaluator.evaluate(ring, slots: 0..<2000, at: now, into: $0)
    }
    try placed.upload(from: &ring)
    try floats.withUnsafeBufferPointer { try placed.uploadPlacements($0, slots: 0..<2000) }
    GLFrame.clear(to: GLFrame.background)
    try placed.draw(ring, in: target.rect, window: window)
    let actual = try target.read()

    // Float vs. Double evaluation may move an edge pixel's coverage by a step or two.
    var differing = 0
    var painted = 0
    for i in stride(from: 0, to: expected.bytes.count, by: 4) {
      let delta = (0..<3).map { abs(Int(expected.bytes[i + $0]) - Int(actual.bytes[i + $0])) }
        .max()!
      if delta > 8 { differing += 1 }
      if expected.bytes[i] != GLFrame.background.red { painted += 1 }
    }
    XCTAssertGreaterThan(painted, 5000, "the scene should cover some of the picture")
    XCTAssertLessThan(differing, painted / 200, "\(differing) of \(painted) painted pixels differ")
  }
}
