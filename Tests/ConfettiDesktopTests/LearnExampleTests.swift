import ConfettiImage
import ConfettiTestSupport
import Foundation
import XCTest

/// Examples/learn, the tutorial's smallest example: its C program (under Xvfb) and its WebGL2
/// page (in headless Chromium), both compiling the same confetti.vert and confetti.frag, draw
/// the records `confetti render --preset classic-cannon --records` writes as the program drew
/// them, at 400×300 and 800×600; and each animates and throws bursts of its own.
final class LearnExampleTests: XCTestCase {
  private let example = repository.appendingPathComponent("Examples/learn")
  private let sizes = [(400, 300), (800, 600)]

  func testTheCProgramDrawsTheProgramsRecordsAsItDrewThem() throws {
    let built = try buildTheCProgram()
    let display = try startXvfb(size: "1024x768x24")
    defer { stopXvfb(display.server) }
    for (width, height) in sizes {
      let (rendered, clock) = try render(width: width, height: height, in: built.directory)
      let shot = built.directory.appendingPathComponent("c-\(width).ppm")
      let drawn = try runProgram(
        URL(fileURLWithPath: "/bin/sh"),
        [
          "-c",
          "cd \"$1\" && exec \"$2\" --records \"$3\" --clock \"$4\" --size \"$5\" --shot \"$6\"",
          "sh", example.path, built.program.path, rendered.records.path, String(clock),
          "\(width)x\(height)", shot.path,
        ], environment: ["DISPLAY": display.name])
      XCTAssertEqual(drawn.status, 0, drawn.stderr)
      assertLooksLikeTheRender(
        try readPPM(shot), try PNG.read(rendered.picture), "C at \(width)×\(height)")
    }
    // Records with more than the cannon's kinds of piece are refused, saying so.
    let (others, clock) = try render(
      width: 400, height: 300, preset: "confetti", in: built.directory)
    let refused = try runProgram(
      URL(fileURLWithPath: "/bin/sh"),
      [
        "-c", "cd \"$1\" && exec \"$2\" --records \"$3\" --clock \"$4\"", "sh", example.path,
        built.program.path, others.records.path, String(clock),
      ], environment: ["DISPLAY": display.name])
    XCTAssertEqual(refused.status, 1)
    XCTAssert(refused.stderr.contains("render the classic-cannon preset"), refused.stderr)
    // Sizes it cannot open, and words it does not know: its usage, and status 64.
    for arguments in [["--size", "0x0"], ["--size", "10x99999"], ["--bogus"], ["--shot"]] {
      let usage = try runProgram(built.program, arguments, environment: ["DISPLAY": display.name])
      XCTAssertEqual(usage.status, 64, "\(arguments)")
      XCTAssert(usage.stderr.contains("usage: "), "\(arguments): \(usage.stderr)")
    }
  }

  /// Paused, a click's burst is born where it lands, and its pieces stay there: a frame is a
  /// pure function of the time.
  func testTheCProgramThrowsABurstWhereItIsClickedAndHoldsItWhilePaused() throws {
    let built = try buildTheCProgram()
    _ = try requiredProgram("xdotool", for: "clicking the example")
    let display = try startXvfb(size: "640x480x24")
    defer { stopXvfb(display.server) }
    let shot = built.directory.appendingPathComponent("clicked.ppm")
    let log = built.directory.appendingPathComponent("out.txt")
    XCTAssert(FileManager.default.createFile(atPath: log.path, contents: nil))
    let output = try FileHandle(forWritingTo: log)
    let program = try launch(
      "/bin/sh",
      [
        "-c", "cd \"$1\" && exec \"$2\" --size 400x300 --shot \"$3\"", "sh", example.path,
        built.program.path, shot.path,
      ], display: display.name, output: output, errors: output)
    defer { if program.isRunning { program.terminate() } }
    func said(_ text: String) -> Bool {
      (try? String(contentsOf: log, encoding: .utf8))?.contains(text) == true
    }
    let window =
      try xdotool(
        ["search", "--sync", "--name", "confetti, learned"], display: display.name
      ).split(separator: "\n").first.map(String.init) ?? ""
    _ = try xdotool(["key", "--window", window, "k"], display: display.name)
    try waitUntil("the example to pause") { said("paused at") }
    _ = try xdotool(
      ["mousemove", "--window", window, "200", "150", "click", "1"], display: display.name)
    try waitUntil("the click's burst") { said("a burst at 200,150") }
    // Only pressed: the window is gone before a release could reach it.
    _ = try xdotool(["keydown", "--window", window, "Escape"], display: display.name)
    try waitUntil("the example to end") { !program.isRunning }
    let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    XCTAssertEqual(program.terminationStatus, 0, said)

    // At their birth the 80 pieces lie along y = 150, each its flutter's sway (at most 45 pt)
    // from x = 200.
    let image = try readPPM(shot)
    var (near, far) = (0, 0)
    for y in 0..<image.height {
      for x in 0..<image.width where image[x, y] != image[0, 0] {
        if abs(x - 200) <= 55, abs(y - 150) <= 12 { near += 1 } else { far += 1 }
      }
    }
    XCTAssertGreaterThan(near, 600, "the burst is where it was clicked (\(far) pixels elsewhere)")
  }

  func testThePageDrawsTheProgramsRecordsAsItDrewThemAndAnimates() throws {
    let chromium = try requiredProgram("chromium", for: "the WebGL2 example")
    let directory = try temporaryDirectory()
    for file in ["index.html", "confetti.vert", "confetti.frag"] {
      try FileManager.default.copyItem(
        at: example.appendingPathComponent(file), to: directory.appendingPathComponent(file))
    }
    func screenshot(_ query: String, width: Int, height: Int, after milliseconds: Int) throws
      -> RGBAImage
    {
      let shot = directory.appendingPathComponent("shot.png")
      try? FileManager.default.removeItem(at: shot)
      let browser = try runProgram(
        chromium,
        [
          "--headless=new", "--no-sandbox", "--use-angle=swiftshader",
          "--enable-unsafe-swiftshader", "--allow-file-access-from-files", "--hide-scrollbars",
          "--force-device-scale-factor=1", "--window-size=\(width),\(height)",
          "--virtual-time-budget=\(milliseconds)",
          "--user-data-dir=" + directory.appendingPathComponent("profile").path,
          "--screenshot=" + shot.path,
          directory.appendingPathComponent("index.html").absoluteString + query,
        ], timeout: 120)
      XCTAssertEqual(browser.status, 0, browser.stderr)
      return try PNG.read(shot)
    }
    for (width, height) in sizes {
      let (rendered, _) = try render(width: width, height: height, in: directory)
      let drawn = try screenshot(
        "?records=\(rendered.stem)&bare", width: width, height: height, after: 5000)
      assertLooksLikeTheRender(
        drawn, try PNG.read(rendered.picture), "WebGL2 at \(width)×\(height)")
    }
    // Its own cannon, fired at 0 s below the bottom edge, is in the air 0.7 s later.
    let animated = try screenshot("?bare", width: 400, height: 300, after: 700)
    var painted = 0
    for y in 0..<200 {
      for x in 0..<400 where animated[x, y] != animated[0, 299] { painted += 1 }
    }
    XCTAssertGreaterThan(painted, 300, "the cannon's pieces are in the air")
  }

  // MARK: Helpers

  private func buildTheCProgram() throws -> (directory: URL, program: URL) {
    let cc = try requiredProgram("cc", for: "building the learner's example")
    let pkgConfig = try requiredProgram("pkg-config", for: "building the learner's example")
    let flags = try runProgram(pkgConfig, ["--cflags", "--libs", "glfw3", "epoxy"])
    XCTAssertEqual(flags.status, 0, flags.stderr)
    let directory = try temporaryDirectory()
    let program = directory.appendingPathComponent("confetti-learn")
    let source = example.appendingPathComponent("confetti.c").path
    let words = flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
    // As its header says, with every warning an error.
    let built = try runProgram(
      cc, ["-Wall", "-Wextra", "-Werror", "-O2", source, "-o", program.path] + words + ["-lm"])
    XCTAssertEqual(built.status, 0, built.stderr)
    return (directory, program)
  }

  /// `confetti render --records` of `preset` at 0.6 s: its picture, its records and the clock
  /// reading they were drawn at (u_now in the description).
  private func render(width: Int, height: Int, preset: String = "classic-cannon", in directory: URL)
    throws -> (rendered: (picture: URL, records: URL, stem: String), clock: UInt32)
  {
    let stem = "\(preset)-\(width)"
    let picture = directory.appendingPathComponent(stem + ".png")
    let records = directory.appendingPathComponent(stem + ".bin")
    let result = try confetti([
      "render", "--preset", preset, "--time", "0.6", "--size", "\(width)x\(height)", "--out",
      picture.path, "--records", records.path,
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let description = try JSONSerialization.jsonObject(
      with: Data(contentsOf: directory.appendingPathComponent(stem + ".json")))
    let uniforms = (description as? [String: Any])?["uniforms"] as? [[String: Any]] ?? []
    let now = uniforms.first { $0["name"] as? String == "u_now" }?["values"] as? [Double]
    let clock = try XCTUnwrap(now?.first, "the description gives the clock")
    return ((picture, records, stem), UInt32(clock))
  }

  /// A binary PPM (P6, 8 bits), as the C program saves its frame.
  private func readPPM(_ url: URL) throws -> RGBAImage {
    let data = [UInt8](try Data(contentsOf: url))
    var fields: [Int] = []
    var index = 2
    while fields.count < 3 {
      while index < data.count, data[index] == 0x20 || data[index] == 0x0A { index += 1 }
      var value = 0
      while index < data.count, (0x30...0x39).contains(data[index]) {
        value = value * 10 + Int(data[index] - 0x30)
        index += 1
      }
      fields.append(value)
    }
    index += 1
    let (width, height) = (fields[0], fields[1])
    guard data.starts(with: [0x50, 0x36]), data.count == index + width * height * 3 else {
      throw TestFailure("\(url.lastPathComponent) is not a \(width)×\(height) binary PPM")
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(width * height * 4)
    for at in stride(from: index, to: data.count, by: 3) { bytes += data[at..<at + 3] + [255] }
    return RGBAImage(width: width, height: height, bytes: bytes)
  }
}
