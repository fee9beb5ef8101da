import ConfettiImage
import ConfettiTestSupport
import Foundation
import XCTest

/// `confetti render` as video makers use it: transparent PNGs, animations through ffmpeg read
/// back frame by frame, sequences split by frame range, and the faults of an export (no
/// ffmpeg, a killed one, an interrupted render, a full disk).
final class RenderCommandTests: XCTestCase {
  let small = ["--preset", "confetti", "--size", "160x120", "--time", "0.5"]

  func ffmpeg() throws -> URL {
    try requiredProgram("ffmpeg", for: "the export")
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

  func testEveryLightEffectRenderedTransparentIsWhatItIsOnAnyColourAndShowsOnWhite() throws {
    // An editor lays a transparent render "over" a colour, straight alpha as PNG has it: for
    // fire, fireworks, sparks and a tap burst, that is the render on a dark colour, and on white
    // the light still shows (added to white it would be white); a render on white itself makes
    // the light vivid, and shows it more than the transparent file laid there.
    let directory = try temporaryDirectory()
    let backdrops = [
      ("navy", "#1a1f33", [0x1a, 0x1f, 0x33]), ("grey", "#808080", [0x80, 0x80, 0x80]),
      ("white", "#ffffff", [0xff, 0xff, 0xff]),
    ]
    for (preset, time) in [
      ("fire", "1"), ("fireworks", "1.6"), ("sparkle", "1"), ("tap-burst", "0.4"),
    ] {
      let arguments = ["render", "--preset", preset, "--size", "160x120", "--time", time]
      let clear = directory.appendingPathComponent("\(preset).png")
      let made = try confetti(arguments + ["--background", "transparent", "--out", clear.path])
      XCTAssertEqual(made.status, 0, made.stderr)
      let over = try PNG.read(clear)
      for (name, backdrop, colour) in backdrops {
        let file = directory.appendingPathComponent("\(preset)-\(name).png")
        let result = try confetti(arguments + ["--background", backdrop, "--out", file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let on = try PNG.read(file)
        var (worst, shown, laidShown, chroma, laidChroma) = (0, 0, 0, 0, 0)
        for y in 0..<over.height {
          for x in 0..<over.width {
            let (p, q) = (over[x, y], on[x, y])
            let alpha = Double(p.alpha) / 255
            let composite = zip([p.red, p.green, p.blue], colour).map {
              Int((Double($0) * alpha + Double($1) * (1 - alpha)).rounded())
            }
            let rendered = [q.red, q.green, q.blue].map(Int.init)
            for (c, d) in zip(composite, rendered) { worst = max(worst, abs(c - d)) }
            if zip(rendered, colour).contains(where: { abs($0 - $1) > 40 }) { shown += 1 }
            if zip(composite, colour).contains(where: { abs($0 - $1) > 40 }) { laidShown += 1 }
            chroma += rendered.max()! - rendered.min()!
            laidChroma += composite.max()! - composite.min()!
          }
        }
        XCTAssertGreaterThan(shown, 60, "\(preset)'s light shows on \(name)")
        guard name == "white" else {
          XCTAssertLessThanOrEqual(
            worst, 3, "\(preset) over \(name) = \(preset) rendered on \(name) (±3/255)")
          continue
        }
        // Measured at 160×120: sparkle 921 → 2,640 pixels shown, fireworks 1,158 → 1,614, fire
        // and the tap burst (already vivid) a few more; every one's colours deeper.
        XCTAssertGreaterThanOrEqual(shown, laidShown, "\(preset): vivid on white")
        XCTAssertGreaterThan(chroma, laidChroma, "\(preset): its colours deeper on white")
      }
    }
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
    XCTAssertEqual(
      made.stdout,
      "wrote 10 frames (0.5 s at 20 fps, 160×120) to \(gif.path), GIF with an opaque background\n")
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

  /// Each quality writes ProRes 4444 with its alpha, by the encoder it names (prores_aw for the
  /// standard settings, prores_ks for the best), and its first frame is the picture within a
  /// few levels wherever that is opaque.
  func testEachQualityWritesProRes4444WithAlphaByItsOwnEncoder() throws {
    _ = try ffmpeg()
    let ffprobe = try requiredProgram("ffprobe", for: "reading the encoder back")
    let directory = try temporaryDirectory()
    let picture = directory.appendingPathComponent("frame.png")
    let clear = small + ["--background", "transparent"]
    XCTAssertEqual(try confetti(["render"] + clear + ["--out", picture.path]).status, 0)
    let reference = try PNG.read(picture)
    for (quality, encoder) in [("standard", "prores_aw"), ("best", "prores_ks")] {
      let clip = directory.appendingPathComponent("\(quality).mov")
      let made = try confetti(
        ["render"] + clear + ["--frames", "2", "--quality", quality, "--out", clip.path])
      XCTAssertEqual(made.status, 0, made.stderr)
      let probe = try runProgram(
        ffprobe,
        [
          "-v", "error", "-show_entries", "stream=codec_tag_string:stream_tags=encoder", "-of",
          "compact=p=0:nk=1", clip.path,
        ])
      XCTAssert(probe.stdout.hasPrefix("ap4h|"), probe.stdout)
      XCTAssert(probe.stdout.hasSuffix(" \(encoder)\n"), "\(quality): \(probe.stdout)")
      let first = try XCTUnwrap(try frames(of: clip, width: 160, height: 120).first)
      var (opaque, worst) = (0, 0)
      for y in 0..<120 {
        for x in 0..<160 where reference[x, y].alpha == 255 {
          let (p, q) = (reference[x, y], first[x, y])
          opaque += 1
          worst = max(
            worst, abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)),
            abs(Int(p.blue) - Int(q.blue)), 255 - Int(q.alpha))
        }
      }
      XCTAssertGreaterThan(opaque, 100, "pieces are in the picture")
      XCTAssertLessThanOrEqual(worst, 12, "\(quality): the frame is the picture")
    }
  }

  /// A clip asked for nothing but its length is the default effect from its first moment, and
  /// `--duration auto` ends it with the frame after its last piece is gone: that frame bare,
  /// the one before it not. An effect that never ends by itself is refused, saying what to give.
  func testAClipIsTheDefaultEffectFromItsFirstMomentToItsEnd() throws {
    let directory = try temporaryDirectory()
    let clip = directory.appendingPathComponent("clip.png")
    let named = directory.appendingPathComponent("named.png")
    let size = ["--size", "160x120"]
    let made = try confetti(
      ["render", "--duration", "auto", "--fps", "10", "--timings", "--out", clip.path] + size)
    XCTAssertEqual(made.status, 0, made.stderr)
    // --timings: one line on standard error, stage by stage.
    XCTAssert(made.stderr.hasPrefix("confetti: time: "), made.stderr)
    XCTAssert(made.stderr.contains(" s, PNG encoding "), made.stderr)
    XCTAssert(made.stderr.hasSuffix(" s in all\n"), made.stderr)
    let picture = try confetti(
      ["render", "--preset", "confetti", "--time", "0", "--timings", "--out", named.path] + size)
    XCTAssertEqual(picture.status, 0, picture.stderr)
    // One picture's too: its encoding and writing are the main thread's.
    XCTAssert(picture.stderr.contains(" s, PNG encoding "), picture.stderr)
    XCTAssert(picture.stderr.contains(" s, writing "), picture.stderr)
    let frames = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix("clip-") }.sorted()
    // The default effect is over in about 5 s in a window this small: 40 to 80 frames.
    XCTAssert((40...80).contains(frames.count), "\(frames.count) frames")
    XCTAssert(made.stdout.hasPrefix("wrote \(frames.count) frames ("), made.stdout)
    let first = try PNG.read(directory.appendingPathComponent(frames[0]))
    XCTAssertEqual(
      first.difference(from: try PNG.read(named)).pixels, 0,
      "the first frame is the default effect at 0")
    let bare = RGBAImage(width: 160, height: 120, fill: first[0, 0])
    let last = try PNG.read(directory.appendingPathComponent(frames[frames.count - 1]))
    XCTAssertEqual(last.difference(from: bare).pixels, 0, "the last frame is bare")
    let before = try PNG.read(directory.appendingPathComponent(frames[frames.count - 2]))
    XCTAssertGreaterThan(before.difference(from: bare).pixels, 0, "the one before is not")

    let snow = try confetti(
      ["render", "--preset", "snow", "--duration", "auto", "--out", clip.path] + size)
    XCTAssertEqual(snow.status, 1)
    XCTAssertEqual(
      snow.stderr,
      "confetti: snow never ends by itself (it emits until stopped): give --duration SECONDS "
        + "or --frames N\n")
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
      ["render", "--frames", "3", "--out", out.path], environment: ["PATH": missingFolder])
    XCTAssertEqual(missing.status, 1)
    XCTAssert(missing.stderr.contains("apt-get install ffmpeg"), missing.stderr)
    XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1)

    // An ffmpeg that dies after a moment (as one killed would).
    let killed = try confetti(
      ["render", "--frames", "30", "--size", "320x240", "--out", out.path],
      environment: fakeFFmpeg(
        "head -c 1000 > /dev/null; echo 'Conversion failed!' >&2; kill -9 $$", in: directory))
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
    // Sent once the export is under way (its hidden file made, ffmpeg started): an event, not
    // a fixed delay that a fast machine's render could finish within.
    let underWay = try waitFor {
      try leftovers().contains { $0.hasPrefix(".confetti-") }
        && StatReader(pid: process.processIdentifier).children().contains {
          $0.command == "ffmpeg"
        }
    }
    XCTAssert(underWay, "the export never got under way: no hidden file, or no ffmpeg")
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
      (["--out", "\(missingFolder)/clip.gif"], "cannot write \(missingFolder)/clip.gif"),
      (["--out", directory.path + "/x.mp4", "--background", "transparent"], "has no transparency"),
      (["--out", "x.avi"], "--out must name a .png, .gif, .webm, .mp4 or .mov file"),
      (["--frames", "2", "--duration", "1"], "not both"),
      (["--frame-range", "5:2"], "--frame-range"), (["--background", "#12"], "--background"),
      (["--duration", "0"], "--duration must be"),
      (["--duration", "1", "--fps", "1e19"], "--frames must be 1 to 100000"),
      (["--frames", "3", "--fps", "60", "--out", "x.gif"], "GIF plays at most 50 frames"),
      (["--frames", "3", "--fps", "1001", "--out", "x.webm"], "at most 1000 frames"),
      (
        ["--size", "321x240", "--out", "x.mp4"],
        "needs even sides, not 321×240: give --size 322x240"
      ),
      (["--size", "320x239", "--out", "x.webm"], "give --size 320x240"),
      (["--size", "7x3", "--out", "x.mov"], "needs an even width, not 7×3: give --size 8x3"),
    ] {
      let result = try confetti(["render"] + arguments)
      XCTAssertNotEqual(result.status, 0, "\(arguments)")
      XCTAssert(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
      XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }
  }

  func testAnExportNeverLiesAboutWhatItWrote() throws {
    _ = try ffmpeg()
    let directory = try temporaryDirectory()
    func leftovers(_ folder: URL = directory) throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { !["bin", "full", "victim"].contains($0) }.sorted()
    }
    // A legal 255-byte name: the hidden file beside it has a short name of its own.
    let long = directory.appendingPathComponent(String(repeating: "n", count: 251) + ".gif")
    let named = try confetti(["render", "--frames", "3", "--size", "80x60", "--out", long.path])
    XCTAssertEqual(named.status, 0, named.stderr)
    XCTAssertEqual(try leftovers(), [long.lastPathComponent])

    // Standard input closed: the pipe to ffmpeg must not land on descriptor 0.
    let closed = try runProgram(
      URL(fileURLWithPath: "/bin/sh"),
      [
        "-c", "exec \"$0\" render --frames 3 --size 80x60 --out \"$1\" <&-", confettiBinary.path,
        long.path,
      ])
    XCTAssertEqual(closed.status, 0, closed.stderr)
    XCTAssertEqual(try leftovers(), [long.lastPathComponent])
    try FileManager.default.removeItem(at: long)

    // A name that is not UTF-8 is refused, not changed into another name.
    let bad = try runProgram(
      URL(fileURLWithPath: "/bin/sh"),
      [
        "-c", "exec \"$0\" render --frames 3 --out \"$(printf '%s/b\\377d.gif' \"$1\")\"",
        confettiBinary.path, directory.path,
      ])
    XCTAssertEqual(bad.status, 64)
    XCTAssertEqual(
      bad.stderr,
      "confetti: argument 5 (\(directory.path)/b\\xFFd.gif) is not UTF-8 text: give names and "
        + "values in UTF-8 (rename the file if need be)\n")
    XCTAssertEqual(try leftovers(), [])

    // A full disk, in every format: ffmpeg ends with status 0 after some of these.
    if getuid() == 0 {
      let full = directory.appendingPathComponent("full")
      try FileManager.default.createDirectory(at: full, withIntermediateDirectories: true)
      for format in ["gif", "webm", "mp4", "mov"] {
        let out = full.appendingPathComponent("clip.\(format)")
        let result = try runProgram(
          URL(fileURLWithPath: "/usr/bin/unshare"),
          [
            "--mount", "/bin/sh", "-c",
            "mount -t tmpfs -o size=300k none \"$1\" && exec \"$0\" render --preset confetti "
              + "--size 320x240 --frames 90 --out \"$2\"",
            confettiBinary.path, full.path, out.path,
          ])
        XCTAssertEqual(result.status, 1, "\(format): \(result.stderr)")
        XCTAssert(result.stderr.hasPrefix("confetti: cannot write \(out.path): "), result.stderr)
        XCTAssert(result.stderr.contains("No space left on device"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertEqual(try leftovers(full), [], format)
      }
    } else if ProcessInfo.processInfo.environment["CI"] == "true" {
      XCTFail("CI runs as root, to fill a disk of its own (a tmpfs in a mount namespace)")
    }

    // Stand-ins for ffmpeg, each ending its own way after reading every frame into its output
    // file (its last argument).
    func fake(_ ending: String) throws -> [String: String?] {
      try fakeFFmpeg("cat > \"$last\"\n" + ending, in: directory)
    }
    let out = directory.appendingPathComponent("clip.webm")
    let render = ["render", "--frames", "5", "--size", "160x120", "--out", out.path]

    // One that says 252 KB (four pipes' worth) and ends with status 0: no deadlock, and what
    // it said counts as failure.
    let noisy = try confetti(
      render,
      environment: fake(
        "yes 'Error while filtering: something broke' 2>/dev/null | head -n 6000 >&2; exit 0"),
      timeout: 30)
    XCTAssertEqual(noisy.status, 1, noisy.stderr)
    XCTAssertEqual(
      noisy.stderr,
      "confetti: cannot write \(out.path): ffmpeg reported an error (Error while filtering: "
        + "something broke)\n")
    XCTAssertEqual(try leftovers(), [])

    // One that swaps its output for a link to another file: nothing is moved into place and
    // the other file is untouched.
    let victim = directory.appendingPathComponent("victim")
    try "mine".write(to: victim, atomically: true, encoding: .utf8)
    let swapped = try confetti(
      render, environment: fake("rm \"$last\"; ln -s \"\(victim.path)\" \"$last\"; exit 0"))
    XCTAssertEqual(swapped.status, 1, swapped.stderr)
    XCTAssert(swapped.stderr.contains("was replaced while it was written"), swapped.stderr)
    XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "mine")
    XCTAssertEqual(try leftovers().filter { !$0.hasPrefix(".confetti-") }, [], "no clip.webm")

    // One that takes long over its last phase (as a GIF's palette does): a signal then ends the
    // render within a second, and nothing is written.
    let environment = try fake("exec sleep 30")
    try FileManager.default.removeItem(at: victim)
    for name in try leftovers() {
      try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
    }
    let process = Process()
    process.executableURL = confettiBinary
    process.arguments = render
    process.environment = ProcessInfo.processInfo.environment.merging(
      environment.compactMapValues { $0 }
    ) { $1 }
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // Sent in that last phase: every frame read (its `cat` has ended), the stand-in has become
    // its `sleep`.
    let finishing = waitFor {
      StatReader(pid: process.processIdentifier).children().contains { $0.command == "sleep" }
    }
    XCTAssert(finishing, "ffmpeg never reached its last phase")
    let signalled = Date()
    kill(process.processIdentifier, SIGINT)
    let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    XCTAssertLessThan(Date().timeIntervalSince(signalled), 1.5, "ended promptly")
    XCTAssertEqual(process.terminationStatus, 128 + SIGINT)
    XCTAssertEqual(said, "confetti: interrupted: \(out.path) was not written\n")
    XCTAssertEqual(try leftovers(), [])
  }

  func testAGIFsMemoryDoesNotGrowWithItsLength() throws {
    // ffmpeg's peak memory (VmHWM, polled until it ends) for a GIF of 30 frames and of 300:
    // each frame's palette is made as it passes, so no frame is held for the last (a palette
    // for the whole animation held them all: 300 frames of 320×240 are 92 MB).
    let real = try ffmpeg()
    let directory = try temporaryDirectory()
    let peak = directory.appendingPathComponent("peak")
    let wrapper = """
      exec 3<&0
      "\(real.path)" "$@" <&3 3<&- &
      child=$!
      while kill -0 $child 2>/dev/null; do
        grep VmHWM /proc/$child/status > "\(peak.path).new" 2>/dev/null && mv "\(peak.path).new" "\(peak.path)"
        sleep 0.02
      done
      wait $child
      """
    let environment = try fakeFFmpeg(wrapper, in: directory)
    func peakKilobytes(frames: Int) throws -> Int {
      let out = directory.appendingPathComponent("clip-\(frames).gif")
      let result = try confetti(
        [
          "render", "--preset", "confetti", "--size", "320x240", "--frames", "\(frames)", "--out",
          out.path,
        ],
        environment: environment, timeout: 120)
      XCTAssertEqual(result.status, 0, result.stderr)
      let line = try String(contentsOf: peak, encoding: .utf8)
      return try XCTUnwrap(Int(line.filter(\.isNumber)), line)
    }
    let short = try peakKilobytes(frames: 30)
    let long = try peakKilobytes(frames: 300)
    XCTAssertLessThan(long, short + 20_000, "\(short) kB for 30 frames, \(long) kB for 300")
  }

  func testAStalledOrStrayFFmpegAndEveryStoppingSignalEndTheExportCleanly() throws {
    _ = try ffmpeg()
    let directory = try temporaryDirectory()
    let out = directory.appendingPathComponent("clip.gif")
    func leftovers() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .filter { $0 != "bin" && $0 != "full" }.sorted()
    }
    func fake(_ script: String) throws -> [String: String] {
      try fakeFFmpeg(script, in: directory).compactMapValues { $0 }
    }
    /// Starts a render, sends `signal` once `ready` says the render (the process given) is in
    /// the phase wanted, and returns its status, what it said and how long it took to end after
    /// the signal.
    func signalled(
      _ arguments: [String], _ signal: Int32, environment: [String: String] = [:],
      when ready: (Process) throws -> Bool
    ) throws -> (status: Int32, said: String, took: Double) {
      let process = Process()
      process.executableURL = confettiBinary
      process.arguments = arguments
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      let err = Pipe()
      process.standardError = err
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      var reached = false
      _ = try waitFor(poll: 0.01) {
        reached = try ready(process)
        return reached || !process.isRunning
      }
      XCTAssert(
        reached,
        "signal \(signal): not in the phase wanted within 20 s (ended: \(!process.isRunning))")
      let sent = Date()
      kill(process.processIdentifier, signal)
      process.waitUntilExit()
      let took = Date().timeIntervalSince(sent)
      let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      return (process.terminationStatus, said, took)
    }
    let render = ["render", "--size", "160x120", "--frames", "10", "--out", out.path]
    /// What the render says, with `script` for ffmpeg, having failed (status 1) and left
    /// nothing.
    func refused(_ script: String, timeout: TimeInterval = 60) throws -> String {
      let result = try confetti(render, environment: fake(script), timeout: timeout)
      XCTAssertEqual(result.status, 1, result.stderr)
      XCTAssertEqual(try leftovers(), [])
      return result.stderr
    }

    // An ffmpeg that takes nothing: the frames no longer fit the pipe, and a signal ends the
    // wait (it blocked in write(2) for good, deaf to SIGINT and SIGTERM). Sent once the pipe
    // is full.
    let stalled = try signalled(render, SIGTERM, environment: fake("exec sleep 1000")) {
      StatReader(pid: $0.processIdentifier).children().contains {
        StatReader(pid: $0.pid).inputIsFull()
      }
    }
    XCTAssertEqual(stalled.status, 128 + SIGTERM, stalled.said)
    XCTAssertEqual(stalled.said, "confetti: stopped by signal 15: \(out.path) was not written\n")
    XCTAssertLessThan(stalled.took, 1)
    XCTAssertEqual(try leftovers(), [])

    // One that stops reading and leaves a child of its own holding the pipes: the render fails
    // at once, saying so, and ffmpeg's whole process group ends with it (it stayed alive after
    // SIGTERM, waiting for the child).
    // (Its helper sleeps for a time of its own, so that no other sleeper on the machine counts.)
    let helper = "sleep 1000.\(Int.random(in: 100_000...999_999))"
    XCTAssertEqual(
      try refused("exec 0<&-; \(helper) & wait", timeout: 20),
      "confetti: cannot write \(out.path): ffmpeg stopped (it was still running, and was stopped)\n"
    )
    let sleepers = try runProgram(
      URL(fileURLWithPath: "/usr/bin/pgrep"),
      ["-f", "^" + helper.replacingOccurrences(of: ".", with: "\\.") + "$"])
    XCTAssertEqual(sleepers.stdout, "", "its helper ended with it")

    // One that writes something that is not a GIF and says all went well.
    XCTAssertEqual(
      try refused("cat > /dev/null; echo garbage > \"$last\"; exit 0"),
      "confetti: cannot write \(out.path): what was written is not a GIF file, though ffmpeg said "
        + "all went well\n")

    // One that writes a well-formed GIF, but of one frame at another size, and says all went
    // well: what was written is read back, and refused.
    XCTAssertEqual(
      try refused(
        "cat > /dev/null; /usr/bin/ffmpeg -v error -y -f lavfi -i color=red:s=320x240 "
          + "-frames:v 1 -f gif \"$last\"; exit 0"),
      "confetti: cannot write \(out.path): ffmpeg wrote 1 frame of 320×240, not 10 of 160×120 "
        + "(exit status 0)\n")

    // The real ffmpeg, and each signal that asks a program to stop (a closed terminal's SIGHUP,
    // Ctrl-\\'s SIGQUIT, and those whose default ends it as abruptly) half-way: one line,
    // nothing left (SIGHUP left ffmpeg writing a hidden partial GIF; SIGQUIT printed a crash
    // report and went on to exit 0).
    let long = ["render", "--size", "320x240", "--frames", "200", "--out", out.path]
    for signal in [SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM] {
      // Sent once the export is under way (its hidden file made, ffmpeg fed): an event, not a
      // fixed delay that a fast machine's render could finish within.
      let ended = try signalled(long, signal) { _ in
        (try? leftovers())?.contains { $0.hasPrefix(".confetti-") } == true
      }
      XCTAssertEqual(ended.status, 128 + signal, "\(signal): \(ended.said)")
      XCTAssertEqual(
        ended.said, "confetti: stopped by signal \(signal): \(out.path) was not written\n")
      XCTAssertLessThan(ended.took, 1, "\(signal)")
      XCTAssertEqual(try leftovers(), [], "\(signal)")
    }

    // A sequence of pictures cut by a full disk says which are whole and how to go on, and
    // those it says are written are there. (Frames finished before the failing one were once
    // left unwritten, though said to be.)
    if getuid() == 0 {
      let full = directory.appendingPathComponent("full")
      try FileManager.default.createDirectory(at: full, withIntermediateDirectories: true)
      for round in 0..<3 {
        let result = try runProgram(
          URL(fileURLWithPath: "/usr/bin/unshare"),
          [
            "--mount", "/bin/sh", "-c",
            "mount -t tmpfs -o size=64k none \"$1\" && \"$0\" render --size 320x240 "
              + "--frames 30 --out \"$1/x.png\"; said=$?; ls -A \"$1\"; exit $said",
            confettiBinary.path, full.path,
          ])
        XCTAssertEqual(result.status, 1, result.stderr)
        let pattern =
          #"No space left on device; .*x-0000\.png … .*x-00(\d\d)\.png are written: --frame-range (\d+):30 renders the rest\n$"#
        guard let match = try Regex(pattern).firstMatch(in: result.stderr),
          let next = Int(match.output[2].substring ?? "")
        else { return XCTFail("round \(round): \(result.stderr)") }
        let listed = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
          listed, (0..<next).map { String(format: "x-%04d.png", $0) },
          "round \(round): \(result.stderr)")
      }
    }
  }

  /// A stop signal that comes as ffmpeg ends, after the last frame and before the clip is put
  /// in place, is honoured: the old file of that name stays, and the status says the signal.
  /// (It was not: within about 20 ms of ffmpeg's end the clip replaced the old file, status 0.)
  func testAStopAsFFmpegEndsLeavesTheOldFile() throws {
    _ = try ffmpeg()
    let directory = try temporaryDirectory()
    let out = directory.appendingPathComponent("clip.webm")
    for (name, number) in [("TERM", SIGTERM), ("INT", SIGINT), ("HUP", SIGHUP)] {
      try Data("old".utf8).write(to: out)
      // ffmpeg writes the whole clip, then the stop comes, then it ends.
      let environment = try fakeFFmpeg(
        "/usr/bin/ffmpeg \"$@\"; ended=$?; kill -\(name) $PPID; exit $ended", in: directory)
      let result = try confetti(
        ["render", "--size", "64x64", "--frames", "3", "--out", out.path],
        environment: environment)
      XCTAssertEqual(result.status, 128 + number, "\(name): \(result.stderr)")
      XCTAssert(result.stderr.hasSuffix("\(out.path) was not written\n"), result.stderr)
      XCTAssertEqual(try String(contentsOf: out, encoding: .utf8), "old", name)
      XCTAssertEqual(
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(),
        ["bin", "clip.webm"], name)
    }
  }

  func testAFolderMovedDuringAnExportKeepsNothingInEitherPlace() throws {
    // The hidden file was left, whole, in the folder's new place.
    _ = try ffmpeg()
    let directory = try temporaryDirectory()
    for format in ["gif", "mp4"] {
      let folder = directory.appendingPathComponent("out-\(format)")
      let moved = directory.appendingPathComponent("moved-\(format)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let out = folder.appendingPathComponent("clip.\(format)")
      let result = try confetti(
        ["render", "--size", "320x240", "--frames", "400", "--out", out.path], timeout: 120
      ) {
        // Moved once the export is under way (its hidden file made): an event, not a fixed
        // delay that a fast render could finish within.
        let underWay = waitFor(timeout: 60, poll: 0.01) {
          let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
          return names.contains { $0.hasPrefix(".confetti-") }
        }
        XCTAssert(underWay, "\(format): no hidden file within 60 s")
        try FileManager.default.moveItem(at: folder, to: moved)
      }
      XCTAssertEqual(result.status, 1, "\(format): \(result.stderr)")
      XCTAssert(result.stderr.hasPrefix("confetti: cannot write \(out.path): "), result.stderr)
      XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
      XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: moved.path), [], format)
      XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path), format)
    }
  }

  func testAnFFmpegThatNeverTakesOrNeverEndsFailsWithinTheStallLimit() throws {
    // Without a signal, too: each waited for ever (the first in write(2), the second for its
    // end). The limit is 20 s; the two wait side by side, each in a folder of its own.
    _ = try ffmpeg()
    let cases = [
      ("exec sleep 1000", "ffmpeg took no frame for 20 s"),
      ("cat > /dev/null; exec sleep 1000", "ffmpeg did not finish within 20 s of the last frame"),
    ]
    let directories = try cases.map { _ in try temporaryDirectory() }
    let results = CollectedResults(count: cases.count)
    let started = Date()
    DispatchQueue.concurrentPerform(iterations: cases.count) { index in
      let directory = directories[index]
      results[index] = Result {
        try confetti(
          [
            "render", "--size", "160x120", "--frames", "10",
            "--out", directory.appendingPathComponent("clip.webm").path,
          ],
          environment: fakeFFmpeg(cases[index].0, in: directory), timeout: 60)
      }
    }
    XCTAssertLessThan(Date().timeIntervalSince(started), 40)
    for (index, (script, said)) in cases.enumerated() {
      let result = try XCTUnwrap(results[index]).get()
      XCTAssertEqual(result.status, 1, result.stderr)
      XCTAssert(result.stderr.contains(said), result.stderr)
      let left = try FileManager.default.contentsOfDirectory(atPath: directories[index].path)
      XCTAssertEqual(left, ["bin"], script)
    }
  }

  func testRecordsArePictureAndBothFilesOrNothing() throws {
    let directory = try temporaryDirectory()
    let picture = directory.appendingPathComponent("a.png").path
    let records = directory.appendingPathComponent("r.bin").path
    func left() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }
    // A folder where the description goes: refused before anything is written.
    try FileManager.default.createDirectory(
      atPath: directory.appendingPathComponent("r.json").path, withIntermediateDirectories: true)
    let blocked = try confetti(
      ["render", "--size", "160x120", "--out", picture, "--records", records])
    XCTAssertEqual(blocked.status, 1, blocked.stderr)
    XCTAssert(blocked.stderr.contains("will not write"), blocked.stderr)
    XCTAssertEqual(try left(), ["r.json"], "no picture, no records")
    try FileManager.default.removeItem(atPath: directory.appendingPathComponent("r.json").path)
    // Picture shapes, whose atlas is not exported: refused in one line (it wrote records a port
    // could not draw, exit 0).
    let emoji = try confetti(
      ["render", "--preset", "emoji", "--size", "160x120", "--out", picture, "--records", records])
    XCTAssertEqual(emoji.status, 1, emoji.stderr)
    XCTAssert(emoji.stderr.contains("--records cannot carry this effect's picture shapes"))
    XCTAssertEqual(try left(), [])
    // A full disk part-way: none of the three is left.
    if getuid() == 0 {
      for filler in ["250k", "232k"] {
        let result = try runProgram(
          URL(fileURLWithPath: "/usr/bin/unshare"),
          [
            "--mount", "/bin/sh", "-c",
            "mount -t tmpfs -o size=300k none \"$1\" && head -c \(filler) /dev/zero > \"$1/f\" && "
              + "exec \"$0\" render --preset fire --time 1 --size 160x120 --out \"$1/a.png\" "
              + "--records \"$1/r.bin\"",
            confettiBinary.path, directory.path,
          ])
        XCTAssertEqual(result.status, 1, "\(filler): \(result.stderr)")
        XCTAssert(result.stderr.contains("No space left on device"), result.stderr)
        XCTAssertEqual(try left(), [], filler)
      }
    }
  }

  func testOnATerminalTheProgressSaysTheRateTheTimeLeftAndTheFinishingStep() throws {
    _ = try ffmpeg()
    // script(1) gives the render a terminal, as a person's shell does, and copies what it shows.
    let script = try requiredProgram("script", for: "the progress on a terminal")
    let out = try temporaryDirectory().appendingPathComponent("clip.webm").path
    let command = [
      confettiBinary.path, "render", "--size", "160x120", "--frames", "30", "--out", out,
      "--background", "transparent",
    ].joined(separator: " ")
    let shown = try runProgram(script, ["-qefc", command, "/dev/null"])
    XCTAssertEqual(shown.status, 0, shown.stdout + shown.stderr)
    let screen = shown.stdout
    // Once a frame is done: the rate, the time so far and the time left.
    let bar = #"rendering [━─]{30} [0-9]+/30 · [0-9.]+ fps · 0:[0-9]{2} elapsed · 0:[0-9]{2} left"#
    XCTAssertNotNil(screen.range(of: bar, options: .regularExpression), screen)
    XCTAssert(screen.contains("rendering ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 30/30 · "), screen)
    // Then ffmpeg's finishing step is named, where before the bar stood still at 30/30.
    XCTAssertNotNil(
      screen.range(
        of: "ffmpeg is finishing \(out) \\(30 frames in 0:[0-9]{2}\\)", options: .regularExpression),
      screen)
    // And the last line says how the file keeps the transparency.
    XCTAssert(
      screen.contains(
        "wrote 30 frames (1 s at 30 fps, 160×120) to \(out), WebM (VP9) with alpha (yuva420p, in a "
          + "side stream: ffprobe lists the video as yuv420p)"), screen)
  }

  func testSignalsIgnoredFromTheStartStayIgnored() throws {
    // As nohup starts it (SIGHUP ignored) and a script's background job (SIGINT): a closed
    // terminal or its Ctrl-C does not stop the render.
    let out = try temporaryDirectory().appendingPathComponent("nohup.png")
    let render = Process()
    render.executableURL = URL(fileURLWithPath: "/bin/sh")
    render.arguments = [
      "-c", #"trap '' HUP INT; exec "$0" render --size 1600x1200 --count 200000 --out "$1""#,
      confettiBinary.path, out.path,
    ]
    render.standardError = FileHandle.nullDevice
    render.standardOutput = FileHandle.nullDevice
    try render.run()
    var sent = 0
    for (delay, signal) in [(0.1, SIGHUP), (0.3, SIGINT), (0.6, SIGHUP), (1.0, SIGINT)] {
      // Paced, not waiting for an event: signals spread over the render, whatever it is doing.
      usleep(useconds_t(delay * 1_000_000))
      if render.isRunning {
        kill(render.processIdentifier, signal)
        sent += 1
      }
    }
    render.waitUntilExit()
    XCTAssertGreaterThan(sent, 0, "the render ended before any signal")
    XCTAssertEqual(render.terminationStatus, 0, "stopped by a signal it was started ignoring")
    XCTAssert(FileManager.default.fileExists(atPath: out.path))
  }

  func testASignalDuringABigPictureLeavesNoPicture() throws {
    // The frame, its reading back and its encoding take seconds on a software GL; a signal in
    // any of them was noted only before the next frame, so the picture was written and the
    // program ended with 0. Signals at 30, 50 and 75 % of a whole run's measured time (at 90 %,
    // a run the machine slowed less than the measured one may already have written it).
    let directory = try temporaryDirectory()
    let picture = directory.appendingPathComponent("big.png")
    let arguments = ["render", "--size", "4096x4096", "--out", picture.path]
    let started = Date()
    let whole = try confetti(arguments)
    XCTAssertEqual(whole.status, 0, whole.stderr)
    let duration = Date().timeIntervalSince(started)
    try FileManager.default.removeItem(at: picture)
    // A run the machine slowed less than the measured one may end before its signal (seen at
    // 75 % beside stress-ng): that one must have succeeded whole, and the others be stopped.
    var stopped = 0
    for share in [0.3, 0.5, 0.75] {
      let process = Process()
      process.executableURL = confettiBinary
      process.arguments = arguments
      let err = Pipe()
      process.standardError = err
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      // The share of the measured time is what is tested: a moment in the frame's making.
      usleep(UInt32(duration * share * 1_000_000))
      let signalled = process.isRunning
      if signalled { kill(process.processIdentifier, SIGINT) }
      process.waitUntilExit()
      let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      // Or the signal came as it was ending, its picture written (seen at 75 % beside
      // stress-ng): nothing was left to stop, and the picture is whole.
      guard signalled, process.terminationStatus != 0 else {
        XCTAssertEqual(process.terminationStatus, 0, "ended before \(share): \(said)")
        XCTAssertEqual(said, "", "at \(share)")
        XCTAssertEqual(try PNG.read(picture).width, 4096, "at \(share): the picture is whole")
        try FileManager.default.removeItem(at: picture)
        continue
      }
      stopped += 1
      XCTAssertEqual(process.terminationStatus, 128 + SIGINT, "at \(share): \(said)")
      XCTAssertEqual(said, "confetti: interrupted: \(picture.path) was not written\n")
      XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }
    XCTAssertGreaterThanOrEqual(stopped, 2, "signals at 30 and 50 % of the measured time")
  }

  /// A picture of millions of pieces takes seconds to make (the burst) and to draw; a stopping
  /// signal in either was seen only once the frame was done (11 s for three million pieces,
  /// 35 s for thirty). So did a long prewarm of a high rate (over 15 minutes), and a frame of
  /// huge pieces or long trails, which is one draw (31 s for 100,000 pieces of 2000 points).
  /// The scene and the draw now ask as they go: the program ends within a fraction of a second
  /// (a generous 5 s bound here, for a loaded machine) and writes nothing.
  func testASignalDuringABurstOfMillionsEndsTheRenderPromptly() throws {
    let burst = Array(repeating: #"{"count": 1000000, "lifetime": 3}"#, count: 3)
    for emitter in [
      #""cells": [\#(burst.joined(separator: ", "))]"#,
      // Prewarmed for two minutes at a million a second, each with a trail.
      #""emission": {"mode": "continuous", "prewarm": 120}, "cells": [{"birthRate": 1000000, "#
        + #""lifetime": 600, "trail": 16, "sizes": [[4096, 4096]]}]"#,
      // Pieces bigger than the frame (drawn as quads), and point sprites with long trails.
      #""cells": [{"count": 20000, "lifetime": 3, "sizes": [[3000, 3000]]}]"#,
      #""cells": [{"count": 200000, "lifetime": 3, "trail": 16, "sizes": [[150, 150]]}]"#,
    ] {
      try checkASignalEndsTheRenderPromptly(#"{"name": "flood", "emitters": [{\#(emitter)}]}"#)
    }
  }

  /// Renders the effect `text` and sends SIGTERM half a second and a second and a half in.
  private func checkASignalEndsTheRenderPromptly(_ text: String) throws {
    let directory = try temporaryDirectory()
    let config = directory.appendingPathComponent("flood.json")
    try text.write(to: config, atomically: true, encoding: .utf8)
    let picture = directory.appendingPathComponent("flood.png")
    for delay in [0.5, 1.5] {
      let process = Process()
      process.executableURL = confettiBinary
      process.arguments = [
        "render", "--config", config.path, "--time", "0.5", "--out", picture.path,
      ]
      let err = Pipe()
      process.standardError = err
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      // The moment is what is tested, not a stand-in: whatever it is doing then, it stops.
      usleep(UInt32(delay * 1_000_000))
      let sent = Date()
      kill(process.processIdentifier, SIGTERM)
      process.waitUntilExit()
      let took = Date().timeIntervalSince(sent)
      let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      XCTAssertEqual(process.terminationStatus, 128 + SIGTERM, "\(text), \(delay) s: \(said)")
      XCTAssertLessThan(took, 5, "\(text), after \(delay) s: the signal was seen within the frame")
      XCTAssertEqual(said, "confetti: stopped by signal 15: \(picture.path) was not written\n")
      XCTAssertFalse(FileManager.default.fileExists(atPath: picture.path))
    }
  }

  func testTheLastLineShowsAnOddNameEscaped() throws {
    // A newline or an escape in a name went to the terminal as it was.
    let directory = try temporaryDirectory()
    let odd = directory.appendingPathComponent("q\nb\u{1B}[31m.png")
    let result = try confetti(["render", "--size", "80x60", "--out", odd.path])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stdout, "wrote \(directory.path)/q\\nb\\u{1b}[31m.png (80×60)\n")
    XCTAssert(FileManager.default.fileExists(atPath: odd.path), "the file has its real name")
  }

  func testPiecesTheSceneCannotHoldAreSaidNotSilentlyLeftOut() throws {
    // A thousand pieces each starting a thousand: a million children, beyond what one step
    // makes (100,000). The picture is written, and the shortfall said.
    let directory = try temporaryDirectory()
    let config = directory.appendingPathComponent("many.json")
    try #"""
    {"name": "many", "emitters": [{"cells": [{"count": 1000, "lifetime": 1, "onDeath": ["b"]}]}],
     "subCells": [{"name": "b", "count": 1000, "lifetime": 1}]}
    """#.write(to: config, atomically: true, encoding: .utf8)
    let result = try confetti(
      [
        "render", "--config", config.path, "--time", "1.5", "--size", "160x120", "--out",
        directory.appendingPathComponent("m.png").path,
      ])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(
      result.stderr,
      "confetti: note: 900000 pieces the effect makes are not drawn: more are born at once than "
        + "one scene holds\n")
  }

  func testASignalWhileTheGLIsSetUpNeverHangsIt() throws {
    // The handler's first use of a global allocated: arriving while the GL driver held
    // malloc's lock, it waited for ever (2 of 45 runs with SIGTERM at 20-80 ms). 30 runs, each
    // must end within 3 s, by the signal or with its one line, leaving nothing.
    let directory = try temporaryDirectory()
    let picture = directory.appendingPathComponent("early.png")
    for run in 0..<30 {
      let process = Process()
      process.executableURL = confettiBinary
      process.arguments = ["render", "--size", "4096x4096", "--out", picture.path]
      process.standardError = FileHandle.nullDevice
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      // The moments (10 to 80 ms, while the GL is set up) are what is tested, not a stand-in.
      usleep(UInt32(10_000 + (run % 8) * 10_000))
      kill(process.processIdentifier, SIGTERM)
      let ended = waitFor(timeout: 3, poll: 0.02) { !process.isRunning }
      if !ended { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
      XCTAssert(ended, "run \(run) still running 3 s after SIGTERM")
      let byItself =
        process.terminationReason == .exit && process.terminationStatus == 128 + SIGTERM
      let bySignal =
        process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM
      XCTAssert(
        byItself || bySignal,
        "run \(run): \(process.terminationReason) \(process.terminationStatus)")
      XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }
  }
}

/// Puts an `ffmpeg` running `script` (bash, with `$last` its last argument: the output file)
/// in `directory`/bin, and returns the environment whose PATH finds it first.
func fakeFFmpeg(_ script: String, in directory: URL) throws -> [String: String?] {
  let bin = directory.appendingPathComponent("bin")
  try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
  let program = bin.appendingPathComponent("ffmpeg")
  try ("#!/bin/bash\nfor last; do :; done\n" + script + "\n")
    .write(to: program, atomically: true, encoding: .utf8)
  chmod(program.path, 0o755)
  return ["PATH": bin.path + ":/usr/bin:/bin"]
}
