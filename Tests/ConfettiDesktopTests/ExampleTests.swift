import ConfettiImage
import ConfettiTestSupport
import Foundation
import XCTest

/// The examples, built by `swift build`, run as a user would run them.
final class ExampleTests: XCTestCase {
  func testTheHeadlessExampleWritesFramesOfTheEffect() throws {
    let directory = try temporaryDirectory()
    let prefix = directory.appendingPathComponent("frame-").path
    let result = try runProgram(builtBinary("headless"), ["confetti", "2", prefix])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssert(result.stdout.contains("the last particle is gone at"), result.stdout)
    for frame in ["000", "001"] {
      let image = try PNG.read(URL(fileURLWithPath: prefix + frame + ".png"))
      XCTAssertEqual([image.width, image.height], [1280, 720])
      XCTAssertGreaterThan(colourfulPixels(image), 2000, "frame \(frame) shows confetti")
    }
    let refused = try runProgram(builtBinary("headless"), ["no-such-effect", "1", prefix])
    XCTAssertEqual(refused.status, 1)
    XCTAssert(refused.stderr.hasPrefix("headless: no preset named"), refused.stderr)
  }

  func testTheGLFWHostExampleAddsConfettiWhereItIsClicked() throws {
    let display = try startXvfb()
    defer { stopXvfb(display.server) }
    _ = try requiredProgram("xdotool", for: "clicking the example")
    let shot = try temporaryDirectory().appendingPathComponent("host.png")
    let result = try runProgram(
      builtBinary("embed-glfw"), ["--seconds", "1.5", "--screenshot", shot.path],
      environment: ["DISPLAY": display.name]
    ) {
      try clickTheExample(display: display.name)
    }
    XCTAssertEqual(result.status, 0, result.stderr)
    let clicked = result.stdout.split(separator: "\n").first { $0.hasPrefix("click at 480,270") }
    XCTAssertNotNil(clicked, "the click reached the host: \(result.stdout)")
    let alive = clicked.flatMap { $0.split(separator: " ").dropLast(2).last }.flatMap { Int($0) }
    XCTAssertGreaterThan(alive ?? 0, 10, "the click threw confetti: \(result.stdout)")

    // The last frame: the host's backdrop and square, and confetti over them.
    let image = try PNG.read(shot)
    XCTAssertEqual([image.width, image.height], [960, 540])
    var square = 0
    for y in 0..<image.height {
      for x in 0..<image.width where image[x, y] == RGBAImage.Pixel(red: 242, green: 242, blue: 255)
      {
        square += 1
      }
    }
    XCTAssertGreaterThan(square, 1500, "the host's square is drawn")
    XCTAssertGreaterThan(colourfulPixels(image), 500, "confetti is drawn over the host's scene")
  }

  /// Pixels with strongly saturated colour: confetti, not the dim backdrops or the white square.
  private func colourfulPixels(_ image: RGBAImage) -> Int {
    var count = 0
    for y in 0..<image.height {
      for x in 0..<image.width {
        let p = image[x, y]
        let channels = [Int(p.red), Int(p.green), Int(p.blue)]
        if channels.max()! - channels.min()! > 80 { count += 1 }
      }
    }
    return count
  }
}

/// Clicks the middle of the embed-glfw example's window, at 480,270, once it is up.
func clickTheExample(display: String) throws {
  _ = try xdotool(
    [
      "search", "--sync", "--name", "Confetti in your program",
      "mousemove", "--window", "%1", "480", "270", "click", "1",
    ], display: display)
}
