import ConfettiTestSupport
import Foundation
import XCTest

/// What a frame asks of the GL, counted from an apitrace recording of the real programs: the
/// window keeps its own state and asks nothing in a steady frame; a host's draw under the
/// default policy saves and restores the host's state.
final class GLTraceTests: XCTestCase {
  /// The calls of each frame (up to each glXSwapBuffers), by name, of `program` run under
  /// apitrace on `display`.
  private func tracedFrames(
    _ program: URL, _ arguments: [String], display: String, whileRunning: () throws -> Void = {}
  ) throws -> [[String]] {
    let apitrace = try requiredProgram("apitrace", for: "counting the GL calls of a frame")
    _ = try requiredProgram("xdotool", for: "driving the traced window")
    let trace = try temporaryDirectory().appendingPathComponent("frames.trace")
    let traced = try runProgram(
      apitrace, ["trace", "--api", "gl", "-o", trace.path, program.path] + arguments,
      environment: ["DISPLAY": display], timeout: 240, whileRunning: whileRunning)
    XCTAssertEqual(traced.status, 0, traced.stderr)
    let dump = try runProgram(
      apitrace, ["dump", "--verbose", "--color=never", trace.path], timeout: 60)
    XCTAssertEqual(dump.status, 0, dump.stderr)
    var frames: [[String]] = [[]]
    for line in dump.stdout.split(separator: "\n") {
      // "123 glName(arguments) = result"
      let words = line.split(separator: " ", maxSplits: 1)
      guard words.count == 2, Int(words[0]) != nil,
        let name = words[1].split(separator: "(", maxSplits: 1).first
      else { continue }
      if name == "glXSwapBuffers" {
        frames.append([])
      } else {
        frames[frames.count - 1].append(String(name))
      }
    }
    return frames
  }

  /// Calls that read GL state back: each one waits for a threaded driver.
  private func queries(_ frame: [String]) -> [String] {
    frame.filter { $0.hasPrefix("glGet") || $0.hasPrefix("glIs") }
  }

  func testTheWindowsSteadyFrameSendsOneUniformAndOneDrawAndAsksNothing() throws {
    let display = try startXvfb()
    defer { stopXvfb(display.server) }
    // At a quarter of the speed a shot flies for about 6 s of wall time: steady frames however
    // busy the machine. Once it has landed (the title says idle), the window is closed.
    let frames = try tracedFrames(
      confettiBinary, ["--preset", "classic-cannon", "--exit-after", "200"], display: display.name
    ) {
      let window = try confettiWindow(on: display.name)
      try xdotool(["key", "--window", window, "bracketleft", "bracketleft"], display: display.name)
      try waitForTitle(of: window, on: display.name, "a quarter of the speed") {
        $0.contains("1/4×")
      }
      try xdotool(["key", "--window", window, "space"], display: display.name)
      try waitForTitle(of: window, on: display.name, "pieces in the air") {
        $0.contains(" particles") && !$0.contains(" 0 particles")
      }
      try waitForTitle(of: window, on: display.name, "idle", timeout: 120) {
        $0.contains(" idle ")
      }
      // (Pressed only: the window is gone before a release could reach it.)
      try xdotool(["keydown", "--window", window, "q"], display: display.name)
    }
    // Frames that draw confetti: those that set its state (the first, and one after the
    // window is shown or resized), and steady ones after them, where no piece is born (no
    // record sent).
    let drawing = frames.filter { $0.contains { $0.hasPrefix("glDraw") } }
    let settingState = drawing.filter { $0.contains("glEnable") }
    XCTAssertLessThanOrEqual(settingState.count, 3, "of \(drawing.count) frames drawn")
    let steady = drawing.filter { !$0.contains("glEnable") && !$0.contains("glBufferSubData") }
    // (Counts, not rates: a busy machine draws fewer frames in the same time.)
    XCTAssertGreaterThanOrEqual(
      steady.count, 5, "steady frames of the cannon: \(drawing.count) drew")
    for frame in steady {
      XCTAssertEqual(queries(frame), [], "a steady frame asks the GL nothing")
      // The window's own clear, then confetti's: the clock and one draw. (It also asks GLX which
      // context is current, which the calling thread keeps: no call reaches the driver.)
      XCTAssertEqual(frame.filter { $0.hasPrefix("glX") }, ["glXGetCurrentContext"])
      let confetti = frame.filter {
        $0 != "glClearColor" && $0 != "glClear" && !$0.hasPrefix("glX")
      }
      XCTAssertEqual(confetti.count, 2, "\(confetti)")
      XCTAssertEqual(confetti.first, "glUniform1ui")
      XCTAssert(confetti.last?.hasPrefix("glDraw") == true, "\(confetti)")
    }
  }

  func testAHostsDrawSavesAndRestoresItsStateAndAnEmptyFrameCallsNothing() throws {
    let display = try startXvfb()
    defer { stopXvfb(display.server) }
    // Frames before the click and after it, each seen drawn (the picture changed) rather than
    // waited for; then Escape closes the example.
    let frames = try tracedFrames(builtBinary("embed-glfw"), [], display: display.name) {
      let window =
        try xdotool(
          ["search", "--sync", "--name", "Confetti in your program"], display: display.name
        ).split(separator: "\n").first.map(String.init) ?? ""
      try waitForNewPictures(on: display.name, count: 5)
      try clickTheExample(display: display.name)
      try waitForNewPictures(on: display.name, count: 4)
      try xdotool(["keydown", "--window", window, "Escape"], display: display.name)
    }
    // The host draws its square with glDrawArrays and sets its own uniforms with glUniform2f;
    // the clock (glUniform1ui) is confetti's.
    let later = frames.dropFirst(2).dropLast()
    let withConfetti = later.filter { $0.contains("glUniform1ui") }
    let without = later.filter { !$0.contains("glUniform1ui") }
    // (Counts, not rates: a busy machine draws fewer frames in the same time.)
    XCTAssertGreaterThanOrEqual(withConfetti.count, 3, "frames after the click")
    XCTAssertGreaterThanOrEqual(without.count, 3, "frames before it")
    for frame in withConfetti {
      // Its state read (integers, booleans, indexed bindings) before the draw and set back.
      XCTAssertGreaterThanOrEqual(queries(frame).count, 45, "\(frame)")
    }
    for frame in without {
      XCTAssertEqual(queries(frame), [], "nothing alive: not even a query")
    }
  }
}
