import ConfettiImage
import Foundation
import XCTest

/// `confetti render` as video makers use it: transparent PNGs, animations through ffmpeg read
/// back frame by frame, sequences split by frame range, and the faults of an export (no
/// ffmpeg, a killed one, an interrupted render, a full disk).
final class ExportTests: XCTestCase {
  let small = ["--preset", "confetti", "--size", "160x120", "--time", "0.5"]

  func ffmpeg() throws -> URL {
    guard let ffmpeg = VideoWriter.findFFmpeg() else {
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("CI must test the export, but ffmpeg is not installed")
      }
      throw XCTSkip("needs ffmpeg")
    }
    return ffmpeg
  }

  /// The frames of an animation, decoded by ffmpeg to straight RGBA.
  func frames(of file: URL, width: Int, height: Int, decoder: [String] = []) throws
    -> [RGBAImage]
  {
    let raw = file.deletingPathExtension().appendingPathExtension("rgba")
    let result = try runProgram(
      try ffmpeg(),
      ["-v", "error"] + decoder + [
        "-i", file.path, "-f", "rawvideo", "-pix_fmt", "rgba", "-y", raw.path,
      ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let bytes = [UInt8](try Data(contentsOf: raw))
    let size = width * height * 4
    return stride(from: 0, to: bytes.count - size + 1, by: size).map {
      RGBAImage(width: width, height: height, bytes: Array(bytes[$0..<($0 + size)]))
    }
  }

  func testATransparentPictureOverAColourIsThePictureRenderedOnThatColour() throws {
    let directory = try temporaryDirectory()
    let clear = directory.appendingPathComponent("clear.png")
    let blue = directory.appendingPathComponent("blue.png")
    for (file, backdrop) in [(clear, "transparent"), (blue, "#3366cc")] {
      let result = try confetti(
        ["render"] + small + ["--background", backdrop, "--out", file.path])
      XCTAssertEqual(result.status, 0, result.stderr)
      XCTAssertEqual(result.stdout, "wrote \(file.path) (160×120)\n")
    }
    let over = try PNG.read(clear)
    let on = try PNG.read(blue)
    var transparent = 0
    var partial = 0
    var worst = 0
    for y in 0..<over.height {
      for x in 0..<over.width {
        let p = over[x, y]
        let alpha = Double(p.alpha) / 255
        if p.alpha == 0 { transparent += 1 } else if p.alpha < 255 { partial += 1 }
        // Straight alpha composited over #3366cc.
        let composite = zip([p.red, p.green, p.blue], [0x33, 0x66, 0xcc]).map {
          Double($0) * alpha + Double($1) * (1 - alpha)
        }
        let q = on[x, y]
        XCTAssertEqual(q.alpha, 255)
        for (c, d) in zip(composite, [q.red, q.green, q.blue]) {
          worst = max(worst, Int(abs(c - Double(d)).rounded()))
        }
      }
    }
    XCTAssertGreaterThan(transparent, over.width * over.height / 2, "the backdrop is see-through")
    XCTAssertGreaterThan(partial, 20, "edges are partly transparent, not cut out")
    XCTAssertLessThanOrEqual(worst, 3, "composited over the colour = rendered on it (±3/255)")
  }

  func testAdditiveLightOverATransparentBackdropIsKeptAsTheNearestStraightColour() throws {
    // Fire's glows add their light: premultiplied colour with no alpha of its own.
    let directory = try temporaryDirectory()
    let clear = directory.appendingPathComponent("clear.png")
    let black = directory.appendingPathComponent("black.png")
    let fire = ["--preset", "fire", "--size", "160x120", "--time", "1"]
    for (file, backdrop) in [(clear, "transparent"), (black, "#000000")] {
      let result = try confetti(["render"] + fire + ["--background", backdrop, "--out", file.path])
      XCTAssertEqual(result.status, 0, result.stderr)
    }
    let (over, on) = (try PNG.read(clear), try PNG.read(black))
    var lit = 0
    var worst = 0
    for y in 0..<over.height {
      for x in 0..<over.width {
        let (p, q) = (over[x, y], on[x, y])
        if q.red > 100 { lit += 1 }
        // Straight alpha over black: colour × alpha.
        for (c, d) in zip([p.red, p.green, p.blue], [q.red, q.green, q.blue]) {
          worst = max(worst, abs(Int((Double(c) * Double(p.alpha) / 255).rounded()) - Int(d)))
        }
      }
    }
    XCTAssertGreaterThan(lit, 200, "the flame is bright")
    XCTAssertLessThanOrEqual(worst, 3, "the transparent picture over black is the one on black")
  }

  func testAGIFAndATransparentWebMAreMadeAndReadBackFrameByFrame() throws {
    _ = try ffmpeg()
    let directory = try temporaryDirectory()
    let reference = directory.appendingPathComponent("frame.png")
    let args = small + ["--fps", "20", "--duration", "0.5"]
    XCTAssertEqual(
      try confetti(["render"] + args + ["--frame-range", "4:5", "--out", reference.path]).status, 0)
    let picture = try PNG.read(directory.appendingPathComponent("frame-0004.png"))

    let gif = directory.appendingPathComponent("burst.gif")
    let made = try confetti(["render"] + args + ["--out", gif.path])
    XCTAssertEqual(made.status, 0, made.stderr)
    XCTAssertEqual(made.stdout, "wrote 10 frames (0.5 s at 20 fps, 160×120) to \(gif.path), GIF\n")
    let gifFrames = try frames(of: gif, width: 160, height: 120)
    XCTAssertEqual(gifFrames.count, 10)
    // The palette changes colours a little; the picture is the same.
    let difference = zip(gifFrames[4].bytes, picture.bytes).reduce(0) {
      $0 + abs(Int($1.0) - Int($1.1))
    }
    XCTAssertLessThan(
      Double(difference) / Double(picture.bytes.count), 3, "mean difference per channel")

    let webm = directory.appendingPathComponent("burst.webm")
    let transparent = try confetti(
      ["render"] + args + ["--background", "transparent", "--out", webm.path])
    XCTAssertEqual(transparent.status, 0, transparent.stderr)
    let webmFrames = try frames(
      of: webm, width: 160, height: 120, decoder: ["-c:v", "libvpx-vp9"])
    XCTAssertEqual(webmFrames.count, 10)
    let alphas = webmFrames[4].bytes.enumerated().filter { $0.offset % 4 == 3 }.map(\.element)
    XCTAssertEqual(alphas[0], 0, "the corner is transparent")
    XCTAssertGreaterThan(alphas.filter { $0 < 8 }.count, alphas.count / 2)
    XCTAssertGreaterThan(alphas.filter { $0 > 200 }.count, 30, "the pieces are opaque")
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
        $0.hasPrefix(".")
      }, [], "no temporary files left")
  }

  func testAFrameRangeRendersExactlyTheFramesOfTheWholeSequence() throws {
    let directory = try temporaryDirectory()
    let whole = directory.appendingPathComponent("whole.png")
    let part = directory.appendingPathComponent("part.png")
    let args = ["render", "--preset", "snow", "--size", "160x120", "--time", "1", "--fps", "24"]
    XCTAssertEqual(try confetti(args + ["--frames", "6", "--out", whole.path]).status, 0)
    let split = try confetti(args + ["--frames", "6", "--frame-range", "3:6", "--out", part.path])
    XCTAssertEqual(split.status, 0, split.stderr)
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: directory.appendingPathComponent("part-0002.png").path)
    )
    for frame in 3..<6 {
      let name = String(format: "%04d", frame)
      XCTAssertEqual(
        try Data(contentsOf: directory.appendingPathComponent("whole-\(name).png")),
        try Data(contentsOf: directory.appendingPathComponent("part-\(name).png")),
        "frame \(frame) alone is frame \(frame) of the whole")
    }
    let past = try confetti(args + ["--frames", "6", "--frame-range", "3:9", "--out", part.path])
    XCTAssertEqual(past.status, 64)
    XCTAssert(past.stderr.contains("reaches past the sequence's 6 frames"), past.stderr)
  }

  func testExportFaultsSayWhatIsWrongAndLeaveNoFile() throws {
    let directory = try temporaryDirectory()
    let out = directory.appendingPathComponent("clip.webm")
    func leftovers() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .filter { $0 != "bin" }
    }
    // No ffmpeg on PATH.
    let missing = try confetti(
      ["render", "--frames", "3", "--out", out.path], environment: ["PATH": "/nonexistent"])
    XCTAssertEqual(missing.status, 1)
    XCTAssert(missing.stderr.contains("apt-get install ffmpeg"), missing.stderr)
    XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1)

    // An ffmpeg that dies after a moment (as one killed would).
    let bin = directory.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let fake = bin.appendingPathComponent("ffmpeg")
    try "#!/bin/sh\nhead -c 1000 > /dev/null\necho 'Conversion failed!' >&2\nkill -9 $$\n"
      .write(to: fake, atomically: true, encoding: .utf8)
    chmod(fake.path, 0o755)
    let killed = try confetti(
      ["render", "--frames", "30", "--size", "320x240", "--out", out.path],
      environment: ["PATH": bin.path + ":/usr/bin:/bin"])
    XCTAssertEqual(killed.status, 1)
    XCTAssert(killed.stderr.hasPrefix("confetti: cannot write \(out.path): ffmpeg"), killed.stderr)
    XCTAssert(killed.stderr.contains("Conversion failed!"), killed.stderr)
    XCTAssertEqual(try leftovers(), [], "nothing under the name, no temporary file")

    // Interrupted (SIGTERM) half-way through a long export.
    _ = try ffmpeg()
    let process = Process()
    process.executableURL = confettiBinary
    process.arguments = ["render", "--frames", "3000", "--size", "320x240", "--out", out.path]
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    usleep(1_500_000)
    process.terminate()
    let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 128 + SIGTERM)
    XCTAssertEqual(said, "confetti: stopped by signal 15: \(out.path) was not written\n")
    XCTAssertEqual(try leftovers(), [], "nothing under the name, no temporary file")

    // A full disk: a file size limit stops ffmpeg part-way.
    let command = "ulimit -f 20; exec \"$0\" render --frames 60 --size 320x240 --out \"$1\""
    let full = try runProgram(
      URL(fileURLWithPath: "/bin/sh"), ["-c", command, confettiBinary.path, out.path])
    XCTAssertEqual(full.status, 1)
    XCTAssert(full.stderr.hasPrefix("confetti: cannot write \(out.path): ffmpeg"), full.stderr)
    XCTAssertEqual(try leftovers(), [])

    // Outputs that are not files, and formats that cannot be.
    for (arguments, expected) in [
      (["--out", "/nonexistent/clip.gif"], "cannot write /nonexistent/clip.gif"),
      (["--out", directory.path + "/x.mp4", "--background", "transparent"], "has no transparency"),
      (["--out", "x.avi"], "--out must name a .png, .gif, .webm, .mp4 or .mov file"),
      (["--frames", "2", "--duration", "1"], "not both"),
      (["--frame-range", "5:2"], "--frame-range"), (["--background", "#12"], "--background"),
      (["--duration", "0"], "--duration must be"),
    ] {
      let result = try confetti(["render"] + arguments)
      XCTAssertNotEqual(result.status, 0, "\(arguments)")
      XCTAssert(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
      XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }
  }
}
