import ConfettiImage
import ConfettiTestSupport
import Foundation
import XCTest

/// Examples/webgl2: the records `confetti render --records` exports, drawn by the page's WebGL2
/// port of the shaders in headless Chromium (its software GL, SwiftShader), are the picture
/// `confetti render` drew of the same moment.
final class WebGL2ExampleTests: XCTestCase {
  func testThePageDrawsTheRecordsAsTheProgramDoes() throws {
    let chromium = try requiredProgram("chromium", for: "the WebGL2 example")
    let directory = try temporaryDirectory()
    let page = directory.appendingPathComponent("index.html")
    try FileManager.default.copyItem(
      at: repository.appendingPathComponent("Examples/webgl2/index.html"), to: page)
    // Paper that lands, shells with streaks and glows, soft flakes, stars (polygons), flames.
    for (preset, time) in [
      ("confetti", "1"), ("fireworks", "2.2"), ("snow", "1.5"), ("stars", "0.3"), ("fire", "1"),
    ] {
      let picture = directory.appendingPathComponent("\(preset).png")
      let rendered = try confetti([
        "render", "--preset", preset, "--time", time, "--size", "400x300", "--out", picture.path,
        "--records", directory.appendingPathComponent("\(preset).bin").path,
      ])
      XCTAssertEqual(rendered.status, 0, rendered.stderr)
      let shot = directory.appendingPathComponent("\(preset)-webgl2.png")
      let browser = try runProgram(
        chromium,
        [
          "--headless=new", "--no-sandbox", "--use-angle=swiftshader",
          "--enable-unsafe-swiftshader",
          "--allow-file-access-from-files", "--hide-scrollbars", "--force-device-scale-factor=1",
          "--window-size=400,300", "--virtual-time-budget=5000",
          "--user-data-dir=" + directory.appendingPathComponent("profile").path,
          "--screenshot=" + shot.path, page.absoluteString + "?records=\(preset)&bare",
        ], timeout: 120)
      XCTAssertEqual(browser.status, 0, browser.stderr)
      let expected = try PNG.read(picture)
      let drawn = try PNG.read(shot)
      XCTAssertEqual(drawn.width, 400)
      XCTAssertEqual(drawn.height, 300)
      // Within the golden tolerance: no pixel more than 10 % of full scale from the program's
      // (the two rasterisers round the last bit apart), and the pieces are there.
      var (far, painted) = (0, 0)
      for y in 0..<300 {
        for x in 0..<400 {
          let (a, b) = (drawn[x, y], expected[x, y])
          let difference = max(
            abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)),
            abs(Int(a.blue) - Int(b.blue)))
          if difference > 25 { far += 1 }
          if b != expected[0, 0] { painted += 1 }
        }
      }
      XCTAssertGreaterThan(painted, 1000, "\(preset) has pieces to compare")
      XCTAssertEqual(far, 0, "\(preset): \(far) pixels differ by more than 10 %")
    }
  }
}
