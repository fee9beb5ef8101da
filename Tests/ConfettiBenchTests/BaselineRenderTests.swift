import Confetti
import ConfettiBench
import ConfettiCore
import ConfettiGL
import ConfettiGLTestSupport
import ConfettiImage
import ConfettiPresets
import XCTest

/// The bench's baselines must draw what the product draws, or their timings compare different
/// work: every preset, in every mode, is the same picture.
final class BaselineRenderTests: HeadlessGLTestCase {
  func testEveryModeDrawsTheProductsPictureForEveryPreset() throws {
    let window = Size(width: 400, height: 300)
    let target = try OffscreenTarget(width: 400, height: 300, info: context.info)
    target.bind()
    for name in Presets.names {
      let scene = try BenchScene(
        count: 3000, window: window, seed: 11, churn: false, effect: Presets.named(name))
      let images = try Effect.preset(name).images(for: scene.shapes)
      var pictures: [BenchMode: RGBAImage] = [:]
      for mode in BenchMode.allCases {
        let run = try BenchRun(
          mode: mode, scene: scene, churn: false, images: images, info: context.info)
        try run.renderFrame(width: 400, height: 300, measured: false)
        pictures[mode] = try target.read()
      }
      let expected = try XCTUnwrap(pictures[.gpu])
      let blank = RGBAImage(width: 400, height: 300, fill: .init(GLFrame.background))
      let painted = expected.difference(from: blank).pixels
      XCTAssertGreaterThan(painted, 1000, "\(name): the scene should cover some of the picture")
      for (mode, picture) in pictures where mode != .gpu {
        // Float against Double evaluation and 8-bit colour may move an edge pixel a few steps,
        // and point sprites fed per vertex overlap trail copies in another order.
        let differing = picture.difference(from: expected, threshold: 8).pixels
        XCTAssertLessThan(
          differing, painted / 100, "\(name) in \(mode): \(differing) of \(painted) pixels differ")
      }
    }
  }
}
