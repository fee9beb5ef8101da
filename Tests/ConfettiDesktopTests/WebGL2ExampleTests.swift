import ConfettiImage
import ConfettiTestSupport
import Foundation
import XCTest

/// Examples/webgl2: the records `confetti render --records` exports, drawn by the page's WebGL2
/// port of the shaders in headless Chromium (its software GL, SwiftShader), are the picture
/// `confetti render` drew of the same moment, at 400×300 and at 800×600 (where a firework's
/// largest glow is bigger than llvmpipe's points, so the program drew quads: the records'
/// description once described that program, and the page drew nothing).
final class WebGL2ExampleTests: XCTestCase {
  func testThePageDrawsTheRecordsAsTheProgramDoes() throws {
    for (width, height) in [(400, 300), (800, 600)] {
      try checkThePage(width: width, height: height)
    }
  }

  private func checkThePage(width: Int, height: Int) throws {
    let chromium = try requiredProgram("chromium", for: "the WebGL2 example")
    let directory = try temporaryDirectory()
    let page = directory.appendingPathComponent("index.html")
    try FileManager.default.copyItem(
      at: repository.appendingPathComponent("Examples/webgl2/index.html"), to: page)
    // Paper that lands, shells with streaks and glows, soft flakes, stars (polygons), flames.
    for (preset, time) in [
      ("confetti", "1"), ("fireworks", "2.2"), ("snow", "1.5"), ("stars", "0.3"), ("fire", "1"),
    ] {
      let picture = directory.appendingPathComponent("\(preset)-\(width).png")
      let rendered = try confetti([
        "render", "--preset", preset, "--time", time, "--size", "\(width)x\(height)", "--out",
        picture.path,
        "--records", directory.appendingPathComponent("\(preset)-\(width).bin").path,
      ])
      XCTAssertEqual(rendered.status, 0, rendered.stderr)
      let shot = directory.appendingPathComponent("\(preset)-\(width)-webgl2.png")
      let browser = try runProgram(
        chromium,
        [
          "--headless=new", "--no-sandbox", "--use-angle=swiftshader",
          "--enable-unsafe-swiftshader",
          "--allow-file-access-from-files", "--hide-scrollbars", "--force-device-scale-factor=1",
          "--window-size=\(width),\(height)", "--virtual-time-budget=5000",
          "--user-data-dir=" + directory.appendingPathComponent("profile").path,
          "--screenshot=" + shot.path, page.absoluteString + "?records=\(preset)-\(width)&bare",
        ], timeout: 120)
      XCTAssertEqual(browser.status, 0, browser.stderr)
      assertLooksLikeTheRender(
        try PNG.read(shot), try PNG.read(picture), "\(preset) at \(width)×\(height)")
    }
  }
}
