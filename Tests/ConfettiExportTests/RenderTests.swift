import Confetti
import ConfettiCelebration
import ConfettiCore
import ConfettiExport
import ConfettiGL
import ConfettiImage
import ConfettiTestSupport
import Foundation
import XCTest

/// The library's render, as a Swift host calls it: the same files as `confetti render`, told
/// frame by frame, stopped, refused.
final class RenderTests: XCTestCase {
  /// This process's environment with `changes` (nil removes a variable).
  func environment(_ changes: [String: String?]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for (key, value) in changes { environment[key] = value }
    return environment
  }

  /// The settings of the comparison renders below.
  func settings(_ out: URL, frames: Int = 1) -> RenderOptions {
    var settings = RenderOptions(out: out.path)
    settings.size = PixelSize(width: 240, height: 160)
    settings.time = 0.4
    settings.frames = frames
    settings.seed = 3
    return settings
  }

  func testARenderIsTheProgramsRender() throws {
    let folder = try temporaryDirectory()
    let mine = folder.appendingPathComponent("library.png")
    let result = try Export.render(try Effect.preset("confetti"), settings(mine))
    XCTAssertEqual(result.files, [mine.path])
    XCTAssertEqual(result.description, "wrote \(mine.path) (240×160)")
    let program = folder.appendingPathComponent("program.png")
    let rendered = try confetti([
      "render", "--preset", "confetti", "--size", "240x160", "--time", "0.4", "--seed", "3",
      "--out", program.path,
    ])
    XCTAssertEqual(rendered.status, 0, rendered.stderr)
    XCTAssertEqual(try Data(contentsOf: mine), try Data(contentsOf: program))
  }

  /// One set of defaults: settings given nothing but the file write what `confetti render
  /// --out` writes, byte for byte (the seed, one picture's first moment, the size, the
  /// backdrop), and given a size, an animation as `confetti render` makes it (from 0, until
  /// the effect is over, at 30 fps). C's and Python's renders are held to the same.
  func testARendersDefaultsAreTheProgramsByteForByte() throws {
    let folder = try temporaryDirectory()
    for (name, preset, options) in [
      ("picture.png", Presets.defaultName, [String]()),
      ("clip.gif", "classic-cannon", ["--preset", "classic-cannon", "--size", "160x120"]),
    ] {
      let mine = folder.appendingPathComponent("library-\(name)")
      var settings = RenderOptions(out: mine.path)
      if !options.isEmpty { settings.size = PixelSize(width: 160, height: 120) }
      _ = try Export.render(try Effect.preset(preset), settings)
      let program = folder.appendingPathComponent("program-\(name)")
      let rendered = try confetti(["render"] + options + ["--out", program.path])
      XCTAssertEqual(rendered.status, 0, rendered.stderr)
      let (a, b) = (try Data(contentsOf: mine), try Data(contentsOf: program))
      XCTAssertGreaterThan(a.count, 1000, name)
      XCTAssertEqual(a, b, "\(name): the library's defaults are the program's")
    }
  }

  func testEveryFrameAndTheFinishingStepAreToldInOrderAndAStopLeavesNothing() throws {
    _ = try requiredProgram("ffmpeg", for: "animations")
    let folder = try temporaryDirectory()
    let clip = folder.appendingPathComponent("clip.webm")
    var told: [RenderProgress] = []
    let result = try Export.render(
      try Effect.preset("classic-cannon"), settings(clip, frames: 6), progress: { told.append($0) })
    // Each frame, then ffmpeg finishing the file, once.
    XCTAssertEqual(
      told,
      (1...6).map { RenderProgress(done: $0, total: 6) }
        + [RenderProgress(done: 6, total: 6, finishing: true)])
    XCTAssertEqual(result.files, [clip.path])
    try FileManager.default.removeItem(at: clip)

    told = []
    XCTAssertThrowsError(
      try Export.render(
        try Effect.preset("classic-cannon"), settings(clip, frames: 60),
        progress: { told.append($0) },
        shouldStop: { told.count >= 2 })
    ) { error in
      XCTAssert(error is RenderStopped, "\(error)")
      XCTAssertEqual("\(error)", "\(clip.path) was not written")
    }
    XCTAssertEqual(told.count, 2, "nothing is told once it stops")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
  }

  /// How long each preset lasts in a render is when a system replaying it stops drawing: alive
  /// a hundredth of a second before, gone at that moment; an effect that emits until stopped
  /// never ends. A trigger later in the render lengthens it.
  func testARendersLengthIsWhenTheEffectsLastPieceIsGone() throws {
    let context = try HeadlessContext()
    var settings = RenderOptions(out: "unused.png")
    settings.size = PixelSize(width: 320, height: 240)
    settings.time = 0.5
    let opening = ConfettiSystem.openingReading
    for name in Presets.names {
      let effect = try Effect.preset(name)
      let length = try Export.length(of: effect, settings)
      let system = try ConfettiSystem(
        effect: effect, size: Size(width: 320, height: 240), seed: settings.seed)
      defer { system.close() }
      system.fireOpening(time: opening)
      // Replayed as a render steps: a sixtieth of a second at a time, for a minute at most.
      var clock = opening
      while system.endTime == nil, clock < opening + 60 {
        clock += oneFrame
        system.advance(to: clock)
      }
      guard let length else {
        XCTAssertNil(system.endTime, "\(name) ends, at \(system.endTime ?? 0)")
        continue
      }
      XCTAssertGreaterThan(length, 0, name)
      let end = opening + settings.firstMoment + length
      XCTAssertEqual(system.endTime ?? .nan, end, accuracy: 1e-9, name)
      XCTAssert(system.isAlive(time: end - 0.01), "\(name) is over before \(length) s")
      XCTAssertFalse(system.isAlive(time: end), "\(name) is still drawn at \(length) s")
    }
    withExtendedLifetime(context) {}
    let confetti = try Effect.preset("confetti")
    let once = try XCTUnwrap(Export.length(of: confetti, settings))
    settings.triggers = [RenderTrigger(.key, time: 2)]
    let again = try XCTUnwrap(Export.length(of: confetti, settings))
    XCTAssertEqual(again, once + 2, accuracy: 0.5, "a key's cannons at 2 s end about 2 s later")
    settings.triggers = []
    settings.time = 60
    XCTAssertEqual(try Export.length(of: confetti, settings), 0, "over by then")
  }

  /// A single picture is told before it is put in place: a stop asked then leaves the file
  /// that had the name as it was, and writes no records. (The picture once replaced the old
  /// file, then was removed for the stop: both were lost, and the message said "not written".)
  func testAPictureStoppedAsItIsToldLeavesTheFileItWouldReplace() throws {
    let folder = try temporaryDirectory()
    let picture = folder.appendingPathComponent("keep.png")
    let records = folder.appendingPathComponent("keep.bin")
    try Data("precious".utf8).write(to: picture)
    var settings = RenderOptions(out: picture.path)
    settings.size = PixelSize(width: 64, height: 48)
    settings.time = 0.5
    settings.records = records.path
    var told: [RenderProgress] = []
    XCTAssertThrowsError(
      try Export.render(
        try Effect.preset("confetti"), settings, progress: { told.append($0) },
        shouldStop: { !told.isEmpty })
    ) { XCTAssertEqual("\($0)", "\(picture.path) was not written") }
    XCTAssertEqual(told, [RenderProgress(done: 1, total: 1)])
    XCTAssertEqual(try Data(contentsOf: picture), Data("precious".utf8))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["keep.png"])
    // Not stopped: the picture replaces it, its records beside it.
    let result = try Export.render(try Effect.preset("confetti"), settings)
    XCTAssertEqual(
      result.files, [picture.path, records.path, folder.appendingPathComponent("keep.json").path])
    XCTAssertEqual(try PNG.read(picture).width, 64)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
      ["keep.bin", "keep.json", "keep.png"])
  }

  /// In a host that ignores SIGCHLD, the kernel reaps every child as it ends and its status is
  /// lost: an animation (ffmpeg) and a celebration (the overlay) are refused at once, in a line
  /// that says why and what to do. (A clip waited 20 s and blamed ffmpeg; a celebration with no
  /// desktop was taken for a success.) A picture needs no child, and is written.
  func testAHostThatIgnoresSIGCHLDIsToldWhyAnimationsAndCelebrationsCannotBeFollowed() throws {
    _ = try requiredProgram("ffmpeg", for: "animations")
    let folder = try temporaryDirectory()
    let previous = signal(SIGCHLD, SIG_IGN)
    defer { signal(SIGCHLD, previous) }
    let started = Date()
    XCTAssertThrowsError(
      try Export.render(
        try Effect.preset("classic-cannon"),
        settings(folder.appendingPathComponent("c.webm"), frames: 3))
    ) {
      XCTAssert("\($0)".contains("this process ignores SIGCHLD"), "\($0)")
      XCTAssert("\($0)".contains("signal(SIGCHLD, SIG_DFL)"), "\($0)")
    }
    XCTAssertThrowsError(try Celebration(CelebrationOptions(), program: confettiBinary)) {
      XCTAssert("\($0)".contains("this process ignores SIGCHLD"), "\($0)")
    }
    XCTAssertLessThan(Date().timeIntervalSince(started), 5, "refused at once")
    let picture = folder.appendingPathComponent("p.png")
    _ = try Export.render(try Effect.preset("classic-cannon"), settings(picture, frames: 1))
    XCTAssert(FileManager.default.fileExists(atPath: picture.path))
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: folder.path), ["p.png"], "nothing else")
  }

  /// Files put in place together (a picture and its records) are all made ready first: one
  /// that cannot be, its folder moved once it was written, leaves every name as it was, the
  /// first's too, and nothing hidden behind. (The picture was once put in place before its
  /// records failed, then removed: the old picture was lost.)
  func testFilesPutInPlaceTogetherLeaveEveryNameWhenOneCannotBe() throws {
    let folder = try temporaryDirectory()
    let (pictures, records) = (
      folder.appendingPathComponent("pictures"), folder.appendingPathComponent("records")
    )
    for made in [pictures, records] {
      try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
    }
    let picture = pictures.appendingPathComponent("p.png")
    try Data("old".utf8).write(to: picture)
    func prepared() throws -> [(file: ExclusiveFile, path: String)] {
      [
        (try OutputFile.prepare(Data("new picture".utf8), for: picture.path), picture.path),
        (
          try OutputFile.prepare(
            Data("new records".utf8), for: records.appendingPathComponent("r.bin").path),
          records.appendingPathComponent("r.bin").path
        ),
      ]
    }
    let files = try prepared()
    let moved = folder.appendingPathComponent("moved")
    try FileManager.default.moveItem(at: records, to: moved)
    XCTAssertThrowsError(try OutputFile.commit(files)) {
      XCTAssert("\($0)".contains("its folder was moved or removed"), "\($0)")
    }
    XCTAssertEqual(try String(contentsOf: picture, encoding: .utf8), "old")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: pictures.path), ["p.png"])
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: moved.path), [])
    // Back in place: both are put there.
    try FileManager.default.moveItem(at: moved, to: records)
    try OutputFile.commit(try prepared())
    XCTAssertEqual(try String(contentsOf: picture, encoding: .utf8), "new picture")
    XCTAssertEqual(
      try String(contentsOf: records.appendingPathComponent("r.bin"), encoding: .utf8),
      "new records")
  }

  /// A sequence's pictures are written on other threads, some before they are told: one asked
  /// to stop at its first frame keeps that frame alone, every time, and leaves the files the
  /// later frames' names held as they were (pictures written ahead of the stop once replaced
  /// them, then were removed).
  func testASequenceStoppedAtItsFirstFrameKeepsThatFrameAlone() throws {
    for round in 0..<10 {
      let folder = try temporaryDirectory()
      let earlier = (round % 2 == 0 ? 1..<1 : 1..<8).map { String(format: "f-%04d.png", $0) }
      for name in earlier {
        try Data("an earlier \(name)".utf8).write(to: folder.appendingPathComponent(name))
      }
      var settings = RenderOptions(out: folder.appendingPathComponent("f.png").path)
      settings.size = PixelSize(width: 64, height: 48)
      settings.frames = 20
      var told = 0
      XCTAssertThrowsError(
        try Export.render(
          try Effect.preset("confetti"), settings, progress: { _ in told += 1 },
          shouldStop: { told >= 1 })
      ) { XCTAssert($0 is RenderStopped, "\($0)") }
      XCTAssertEqual(told, 1, "round \(round)")
      XCTAssertEqual(
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
        ["f-0000.png"] + earlier, "round \(round)")
      XCTAssertEqual(try PNG.read(folder.appendingPathComponent("f-0000.png")).width, 64)
      for name in earlier {
        XCTAssertEqual(
          try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8),
          "an earlier \(name)", "round \(round)")
      }
    }
  }

  /// JSON handed to the library is measured, as a file is, before it is parsed.
  func testJSONPastAnyEffectIsRefusedBeforeItIsParsed() throws {
    let huge = "[" + String(repeating: "[1],", count: 300_000) + "[1]]"
    XCTAssertThrowsError(try Effect(json: huge)) {
      XCTAssertEqual(
        "\($0)",
        "the effect's JSON is over 1 MiB (\(huge.utf8.count) bytes), the most an effect may be "
          + "(1048576 bytes)")
    }
  }

  /// A JSON file beside the records that confetti did not write is someone's, and kept; one a
  /// render wrote is written again.
  func testTheRecordsNeverReplaceSomeoneElsesJSON() throws {
    let folder = try temporaryDirectory()
    let picture = folder.appendingPathComponent("X.png")
    let records = folder.appendingPathComponent("X.bin")
    let description = folder.appendingPathComponent("X.json")
    try "{\"mine\": true}".write(to: description, atomically: true, encoding: .utf8)
    var settings = settings(picture)
    settings.records = records.path
    XCTAssertThrowsError(try Export.render(try Effect.preset("classic-cannon"), settings)) {
      XCTAssert("\($0)".contains("a JSON file that confetti did not write is there"), "\($0)")
    }
    XCTAssertEqual(try String(contentsOf: description, encoding: .utf8), "{\"mine\": true}")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["X.json"])
    try FileManager.default.removeItem(at: description)
    for _ in 0..<2 {  // the second time, over its own files
      let wrote = try Export.render(try Effect.preset("classic-cannon"), settings)
      XCTAssertEqual(wrote.files, [picture.path, records.path, description.path])
    }
  }

  func testRefusedSettingsNameTheSettingAsTheCallerSpellsIt() throws {
    var settings = RenderOptions(out: "x.png")
    settings.fps = 0
    XCTAssertThrowsError(try settings.check()) {
      XCTAssertEqual("\($0)", "fps must be finite and > 0")
    }
    settings.fps = 30
    settings.frames = 10
    settings.frameRange = 5..<12
    XCTAssertThrowsError(try settings.check { "--" + $0.replacingOccurrences(of: "_", with: "-") })
    {
      XCTAssertEqual(
        "\($0)", "--frame-range 5:12 reaches past the sequence's 10 frames (0:10 is all of it)")
    }
    XCTAssertNil(RenderOptions.background(named: "+fffff"), "hex digits only")
    XCTAssertNil(RenderOptions.background(named: "-fffff"))
    XCTAssertEqual(RenderOptions.background(named: "#ff000080")?.alpha, 0x80)
    XCTAssertEqual(RenderOptions.background(named: "Transparent"), .transparent)
  }
}
