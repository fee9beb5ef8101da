import ConfettiConfig
import ConfettiImage
import ConfettiTestSupport
import Foundation
import XCTest

/// A hostile tester's table, run against the real binary: bad arguments, configuration files,
/// images, environments and output paths. Each case names its exact exit code (64 for a usage
/// mistake, 1 for one found while running) and a piece of its one-line message; none may crash,
/// hang, print more than one line or write anything on standard output.
final class HostileInputTests: XCTestCase {
  struct Case {
    var arguments: [String]
    var status: Int32
    var message: String
    var environment: [String: String?] = [:]
  }

  /// Every numeric or sized option of every command, with values none of them accepts.
  func badValues() -> [Case] {
    let options: [(command: [String], option: String)] = [
      ([], "--seed"), ([], "--capacity"), ([], "--size"), (["window"], "--exit-after"),
      (["render"], "--time"), (["render"], "--fps"), (["render"], "--frames"),
      (["render"], "--count"), (["render"], "--scale"), (["render"], "--size"),
      (["render"], "--seed"), (["bench"], "--particles"), (["bench"], "--seconds"),
      (["bench"], "--frames"), (["bench"], "--size"), (["bench"], "--seed"), (["bench"], "--mode"),
      (["render"], "--duration"), (["render"], "--frame-range"), (["render"], "--trigger"),
      (["overlay"], "--duration"), (["overlay"], "--monitor"), (["run"], "--duration"),
      (["shaders"], "--primitive"), (["shaders"], "--stage"),
    ]
    let values = ["nan", "inf", "-inf", "-1", "abc", "", "1e999", "0x0x0"]
    return options.flatMap { command, option in
      values.map { Case(arguments: command + [option, $0], status: 64, message: option) }
    }
  }

  /// Arguments that are wrong in other ways.
  let arguments: [Case] = [
    Case(arguments: ["--bogus"], status: 64, message: "Unknown option '--bogus'"),
    Case(arguments: ["nosuch"], status: 64, message: "Unexpected argument 'nosuch'"),
    Case(arguments: ["render", "extra"], status: 64, message: "Unexpected argument 'extra'"),
    Case(
      arguments: ["presets", "show"], status: 64, message: "see 'confetti presets show --help'"),
    Case(arguments: ["presets", "show", "nope"], status: 64, message: "no preset named \"nope\""),
    Case(arguments: ["presets", "list", "x"], status: 64, message: "Unexpected argument 'x'"),
    Case(arguments: ["render", "--preset"], status: 64, message: "Missing value for '--preset"),
    // A value that begins with '-' reads as an option: the message says how to give it.
    Case(
      arguments: ["render", "--background", "-fffff"], status: 64,
      message: "a value that begins with '-' is given as --background=-fffff"),
    Case(
      arguments: ["render", "--background=-fffff"], status: 64,
      message: "The value '-fffff' is invalid for '--background"),
    Case(arguments: ["--preset", "glitter"], status: 64, message: "no preset named \"glitter\""),
    // What cannot be seen, or breaks a line, is echoed as an escape: a line separator, a
    // zero-width space, a byte-order mark.
    Case(
      arguments: ["--preset", "a\u{2028}b\u{200B}c\u{FEFF}"], status: 64,
      message: #"a\u{2028}b\u{200b}c\u{feff}"#),
    // A Hangul filler and a no-break space, which read as nothing and as a plain space.
    Case(
      arguments: ["--preset", "snow\u{3164}\u{A0}"], status: 64,
      message: #"no preset named "snow\u{3164}\u{a0}""#),
    Case(arguments: ["bench", "--preset", "../etc"], status: 64, message: "no preset named"),
    Case(arguments: ["--preset", "snow", "--config", "x.json"], status: 64, message: "not both"),
    Case(arguments: ["--capacity", "99999999999"], status: 64, message: "between 1 and 31580641"),
    Case(arguments: ["--size", "99999x10"], status: 64, message: "16384x16384 at most"),
    Case(
      arguments: ["render", "--size", "1080"], status: 64,
      message: "is invalid for '--size <size>': give WIDTHxHEIGHT (such as 1920x1080) or 720p"),
    Case(arguments: ["--bench", "10", "--size", "8k"], status: 64, message: "1080p, 1440p, 4k"),
    Case(
      arguments: ["render", "--size", "100000x100"], status: 1, message: "outside what this GL"),
    Case(arguments: ["render", "--time", "3601"], status: 64, message: "from 0 to 3600"),
    Case(arguments: ["render", "--frames", "100001"], status: 64, message: "1 to 100000"),
    Case(arguments: ["render", "--count", "1000001"], status: 64, message: "1 to 1000000"),
    Case(arguments: ["render", "--scale", "9"], status: 64, message: "1 to 8"),
    Case(arguments: ["render", "--scale", "8", "--size", "4x4"], status: 64, message: "no window"),
    Case(
      arguments: ["render", "--time", "3000", "--frames", "100000", "--fps", "30"], status: 64,
      message: "within 3600 s"),
    Case(arguments: ["render", "--fps", "5e-324", "--frames", "2"], status: 64, message: "3600 s"),
    Case(arguments: ["bench", "--sweep", "0,10"], status: 64, message: "between 1 and"),
    Case(arguments: ["bench", "--sweep", "10,,20"], status: 64, message: "separated by commas"),
    Case(arguments: ["bench", "--particles", "40000000"], status: 64, message: "not 40000000"),
    Case(arguments: ["bench", "--seconds", "100000"], status: 64, message: "at most 86400"),
    Case(arguments: ["bench", "--seconds", "1", "--frames", "2"], status: 64, message: "not both"),
    Case(arguments: ["bench", "--mode", "floor", "--churn"], status: 64, message: "no floor"),
    Case(
      arguments: ["bench", "--particles", "10", "--sweep", "10"], status: 64, message: "not both"),
    Case(arguments: ["--bench"], status: 64, message: "--particles"),
    Case(arguments: ["--bench", "5", "--capacity", "9"], status: 64, message: "'--capacity'"),
    Case(arguments: ["--list-presets", "--bench", "10"], status: 64, message: "'--list-presets'"),
    Case(arguments: ["--compare"], status: 64, message: "Unknown option '--compare'"),
    Case(arguments: ["window", "--exit-after", "-5"], status: 64, message: "--exit-after"),
    Case(arguments: ["--generate-completion-script", "tcsh"], status: 64, message: "tcsh"),
    // Thousands of arguments (the parser's time grows with their square: 20,000 took minutes).
    Case(
      arguments: ["render"] + Array(repeating: ["--seed", "1"], count: 10_000).joined(),
      status: 64, message: "20001 arguments are too many: at most 1024"),
    Case(
      arguments: ["render"] + Array(repeating: "--trigger=key", count: 1_100), status: 64,
      message: "1101 arguments are too many"),
    // Rates and sizes an animation would play wrongly, and counts that overflow.
    Case(
      arguments: ["render", "--duration", "1", "--fps", "1e19"], status: 64, message: "--frames"),
    Case(
      arguments: ["render", "--duration", "3600", "--fps", "1e300"], status: 64, message: "--frames"
    ),
    Case(
      arguments: ["render", "--frames", "2", "--fps", "51", "--out", "a.gif"], status: 64,
      message: "GIF plays at most 50 frames a second"),
    Case(
      arguments: ["render", "--frames", "2", "--fps", "1e9", "--out", "a.mov"], status: 64,
      message: "at most 1000 frames a second"),
    Case(
      arguments: ["render", "--frames", "2", "--fps", "1000.5", "--out", "a.webm"], status: 64,
      message: "not 1000.5"),
    Case(
      arguments: ["render", "--frames", "2", "--size", "99x99", "--out", "a.mp4"], status: 64,
      message: "needs even sides, not 99×99: give --size 100x100"),
    Case(
      arguments: ["render", "--frames", "2", "--size", "100x75", "--out", "a.webm"], status: 64,
      message: "give --size 100x76"),
    Case(arguments: ["render", "--records", "r.txt"], status: 64, message: "a .bin file"),
    Case(
      arguments: ["render", "--check-flashes"], status: 64,
      message: "a flash check needs an animation: give --duration or --frames"),
    Case(
      arguments: [
        "render", "--check-flashes", "--duration", "1", "--background", "transparent", "--out",
        "a.webm",
      ], status: 64, message: "flashes are checked over a colour"),
    // What is echoed stays on one line: a newline or an escape in a name is written escaped.
    Case(
      arguments: ["render", "--out", "\(missingFolder)\nfolder\u{1B}[2J/a.png"], status: 1,
      message: "\(missingFolder)\\nfolder\\u{1b}[2J/a.png"),
    Case(
      arguments: ["--preset", "bad\nname"], status: 64, message: "no preset named \"bad\\nname\""),
    Case(
      arguments: ["render", "--frames", "3", "--fps", "0.001", "--out", "a.gif"], status: 64,
      message: "GIF shows a frame for at most 655.35 s"),
    Case(
      arguments: ["render", "--records", "r.bin", "--frames", "3"], status: 64,
      message: "one picture's records"),
    Case(
      arguments: ["render", "--records", "\(missingFolder)/r.bin"], status: 1,
      message: "cannot write \(missingFolder)/r.bin"),
  ]

  /// Configuration files, each wrong in its own way, with where and what the message says.
  let configurations: [(text: String, message: String)] = [
    ("", "not valid JSON: line 1, column 1"),
    ("{", "not valid JSON"),
    ("[]", "must be an object"),
    ("null", "must be an object"),
    (#"{"name": "a", "emitters": [],}"#, "trailing commas are not JSON"),
    (#"{"name": "a", // note"#, "comments are not JSON"),
    (#"{"name": "a", "name": "b", "emitters": []}"#, "duplicate"),
    (#"{"name": "a"}"#, "missing \"emitters\""),
    (#"{"emitters": [{"cells": [{"count": 1}]}]}"#, "missing \"name\""),
    (#"{"name": "", "emitters": [{"cells": [{"count": 1}]}]}"#, "$.name"),
    (#"{"name": "a b", "emitters": [{"cells": [{"count": 1}]}]}"#, "letters, digits or '-'"),
    (#"{"name": "a", "emitters": []}"#, "$.emitters: must not be empty"),
    (#"{"name": "a", "emitters": [{}]}"#, "missing \"cells\""),
    (#"{"name": "a", "emitters": [{"cells": []}]}"#, "$.emitters[0].cells: must not be empty"),
    (#"{"name": "a", "emitters": [{"cells": [{}]}]}"#, "count"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 0}]}]}"#, "cells[0].count"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1.5}]}]}"#, "whole number"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": "3"}]}]}"#, "not \"3\""),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1e400}]}]}"#, "not valid JSON"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 01}]}]}"#, "leading zero"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1, "birthrate": 3}]}]}"#, "did you mean"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1, "gravty": 3}]}]}"#, "\"gravity\"?"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1, "zzz": 3}]}]}"#, "unknown key"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1, "lifetime": -2}]}]}"#, "lifetime"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1, "lifetime": 601}]}]}"#, "to 600"),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "lifetime": {"value": 1, "range": 2}}]}]}"#,
      "must stay within"
    ),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1, "sizes": []}]}]}"#, "sizes"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1, "sizes": [[1]]}]}]}"#, "2 items"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1, "colors": ["red"]}]}]}"#, "#rrggbb"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1, "shapes": ["blob"]}]}]}"#, "blob"),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "shapes": [{"polygon": [[0,0],[1,1]]}]}]}]}"#,
      "polygon"
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "shapes": [{"polygon": [[0,0],[1,0],[2,0]]}]}]}]}"#,
      "shapes[0]"
    ),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1, "trail": 17}]}]}"#, "trail"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1, "drag": -1}]}]}"#, "drag"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1, "speedUnit": "miles"}]}]}"#, "miles"),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "velocity": {"z": 1}}]}]}"#, "velocity.z"
    ),
    (#"{"name": "a", "emitters": [{"trigger": "tap", "cells": [{"count": 1}]}]}"#, "trigger"),
    (
      #"{"name": "a", "emitters": [{"shape": {"kind": "line"}, "cells": [{"count": 1}]}]}"#,
      "length"
    ),
    (
      #"{"name": "a", "emitters": [{"shape": {"kind": "point", "radius": 1}, "cells": [{"count": 1}]}]}"#,
      "radius"
    ),
    (
      #"{"name": "a", "emitters": [{"emission": {"mode": "timed"}, "cells": [{"count": 1}]}]}"#,
      "birthRate"
    ),
    (
      #"{"name": "a", "emitters": [{"emission": {"mode": "burst", "duration": 2}, "cells": [{"count": 1}]}]}"#,
      "duration"
    ),
    (
      #"{"name": "a", "emitters": [{"wind": {"speed": 1e9}, "cells": [{"count": 1}]}]}"#,
      "wind.speed"
    ),
    (
      #"{"name": "a", "emitters": [{"position": {"x": 5, "y": 0}, "cells": [{"count": 1}]}]}"#,
      "-1 to 2"
    ),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1}]}], "$schema": 3}"#, "$schema"),
    ("{\"name\": \"a\u{0}\", \"emitters\": []}", "not valid JSON"),
    (#"{"name": "\ud800", "emitters": []}"#, "not valid JSON"),
    (String(repeating: "[", count: 100), "not valid JSON"),
    (#"{"name": "a", "emitters": [{"cells": [{"count": 1}]}]} x"#, "not valid JSON"),
    // Controls and direction marks that would act on a terminal, refused where they are read
    // and shown escaped.
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "shapes": [{"text": "a\u0000b"}]}]}]}"#,
      #"none of them a control or direction mark, not "a\u0000b""#
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "shapes": [{"text": "\u001b[31m"}]}]}]}"#,
      #"not "\u001b[31m""#
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "shapes": [{"text": "\u0007"}]}]}]}"#,
      "none of them a control or direction mark"
    ),
    (
      #"{"name": "a", "description": "x\u202ey", "emitters": [{"cells": [{"count": 1}]}]}"#,
      #"$.description: must be text of at most 200 characters, none of them a control"#
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "shapes": [{"image": "a\nb.png"}]}]}]}"#,
      "none of them a control or direction mark"
    ),
  ]

  func testEveryHostileInputGetsItsOneLineAndItsExitCode() throws {
    let directory = try temporaryDirectory()
    var cases = badValues() + arguments
    for (index, configuration) in configurations.enumerated() {
      let file = directory.appendingPathComponent("config-\(index).json")
      try Data(configuration.text.utf8).write(to: file)
      cases.append(
        Case(
          arguments: ["render", "--config", file.path, "--out", directory.path + "/c.png"],
          status: 1, message: configuration.message))
    }
    cases += try images(in: directory) + outputs(in: directory) + environments()
    cases += try schemaValues(in: directory)
    XCTAssertGreaterThanOrEqual(cases.count, 400)
    print("HostileInputTests: \(cases.count) cases")
    // Two at a time: each is mostly a process starting and ending.
    let results = CollectedResults(count: cases.count)
    let all = cases
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      for index in stride(from: worker, to: all.count, by: 2) {
        results[index] = Result {
          try confetti(all[index].arguments, environment: all[index].environment, timeout: 30)
        }
      }
    }
    for (index, test) in cases.enumerated() {
      let result = try XCTUnwrap(results[index]).get()
      let label = "\(test.arguments) \(test.environment)"
      XCTAssertEqual(result.status, test.status, "\(label): \(result.stderr)")
      XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(label): \(result.stderr)")
      XCTAssert(result.stderr.hasPrefix("confetti: "), "\(label): \(result.stderr)")
      XCTAssert(
        result.stderr.contains(test.message),
        "\(label) should say \(test.message): \(result.stderr)")
      XCTAssertEqual(result.stdout, "", label)
    }
  }

  /// The file that names the celebration `confetti run` left on the screen is read as if an
  /// attacker had planted it: a folder others can write in is not used at all (the user's own
  /// state folder instead); in the user's own, a link is not followed, a FIFO not waited on, a
  /// huge file not read; and a process it names is signalled only if it is this program's own
  /// celebration, not any whose arguments read `overlay --shown-fd`. (Each of these once ate
  /// memory without end, hung, or sent SIGTERM to another program.)
  func testACelebrationsFilePlantedAnywhereIsNeitherFollowedNorTrusted() throws {
    let root = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let (shared, own, state) = (
      root.appendingPathComponent("shared"), root.appendingPathComponent("own"),
      root.appendingPathComponent("state")
    )
    for folder in [shared, own, state] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    chmod(shared.path, 0o1777)  // as /tmp
    chmod(own.path, 0o700)  // as the login session makes XDG_RUNTIME_DIR
    let name = "confetti-celebration.pid"

    /// `confetti run -- true` with no display to celebrate on (it ends the last celebration
    /// all the same, then says it cannot show one), in `runtime`, within 512 MiB and 20 s.
    func run(runtime: URL) throws -> RunResult {
      let result = try runProgram(
        URL(fileURLWithPath: "/usr/bin/prlimit"),
        ["--as=536870912", confettiBinary.path, "run", "--", "true"],
        environment: [
          "DISPLAY": ":97", "WAYLAND_DISPLAY": nil, "XDG_RUNTIME_DIR": runtime.path,
          "XDG_STATE_HOME": state.path,
        ], timeout: 20)
      XCTAssertEqual(result.status, 0, result.stderr)
      XCTAssert(result.stderr.contains("the command succeeded"), result.stderr)
      return result
    }
    let link = { (folder: URL) in
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent(name).path, withDestinationPath: "/proc/self/pagemap")
    }

    // A folder anyone can write in: not used, and nothing written there.
    try link(shared)
    _ = try run(runtime: shared)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shared.path), [name])

    // The user's own folder: a link, a FIFO, a gigabyte.
    try link(own)
    _ = try run(runtime: own)
    let file = own.appendingPathComponent(name)
    try FileManager.default.removeItem(at: file)
    XCTAssertEqual(mkfifo(file.path, 0o600), 0)
    _ = try run(runtime: own)
    try FileManager.default.removeItem(at: file)
    XCTAssert(FileManager.default.createFile(atPath: file.path, contents: nil))
    XCTAssertEqual(truncate(file.path, 1 << 30), 0)
    _ = try run(runtime: own)

    // Another program whose arguments read as a celebration's: left alone.
    let script = root.appendingPathComponent("overlay")
    try "import time\ntime.sleep(60)\n".write(to: script, atomically: true, encoding: .utf8)
    let python = try requiredProgram("python3", for: "a program that reads as a celebration")
    let other = Process()
    other.executableURL = python
    other.arguments = ["overlay", "--shown-fd", "3"]
    other.currentDirectoryURL = root
    try other.run()
    defer { if other.isRunning { other.terminate() } }
    // Once python3 runs (past any launcher script), its command line reads as a celebration's:
    // its second word is `overlay`, then `--shown-fd`.
    try waitUntil("python3's command line", timeout: 30) {
      let line = FileManager.default.contents(atPath: "/proc/\(other.processIdentifier)/cmdline")
      let words = line.map { $0.split(separator: 0).map { String(decoding: $0, as: UTF8.self) } }
      return words.map { Array($0.dropFirst().prefix(2)) } == ["overlay", "--shown-fd"]
    }
    try FileManager.default.removeItem(at: file)
    try "\(other.processIdentifier)\n".write(to: file, atomically: true, encoding: .utf8)
    _ = try run(runtime: own)
    XCTAssert(other.isRunning, "a program that is not confetti's celebration was not signalled")
  }

  /// A file its owner made read-only is not replaced (a rename would pass over its protection):
  /// as root, the render runs as nobody, for whom the file is protected.
  func testAReadOnlyPictureIsNotReplaced() throws {
    let directory = try temporaryDirectory()
    chmod(directory.path, 0o777)
    let png = directory.appendingPathComponent("mine.png")
    try Data("mine".utf8).write(to: png)
    chmod(png.path, 0o444)
    let render = ["render", "--size", "32x32", "--out", png.path]
    let result =
      getuid() == 0
      ? try runProgram(
        URL(fileURLWithPath: "/usr/bin/setpriv"),
        ["--reuid=65534", "--regid=65534", "--clear-groups", confettiBinary.path] + render)
      : try confetti(render)
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertEqual(
      result.stderr,
      "confetti: will not write \(png.path): it is read-only (make it writable, or give another "
        + "name)\n")
    XCTAssertEqual(try String(contentsOf: png, encoding: .utf8), "mine")
  }

  /// Standard streams closed at start: an animation is still made (ffmpeg's pipe must not land
  /// on descriptor 0), and an error with all three closed still ends at once with its code.
  func testClosedStandardStreamsChangeNothingButWhereMessagesGo() throws {
    let directory = try temporaryDirectory()
    let gif = directory.appendingPathComponent("closed-input.gif").path
    let program = confettiBinary.path
    let made = try runProgram(
      URL(fileURLWithPath: "/bin/bash"),
      [
        "-c",
        "'\(program)' render --duration 0.3 --fps 10 --size 64x48 --out '\(gif)' <&-; echo $?",
      ])
    XCTAssertEqual(made.stdout.split(separator: "\n").last, "0", made.stderr)
    XCTAssertGreaterThan(
      (try? FileManager.default.attributesOfItem(atPath: gif)[.size] as? Int) ?? 0, 100,
      "the GIF was written with standard input closed")
    for (arguments, status) in [
      ("--preset nope", "64"), ("render --size 32x32 --out \(missingFolder)/x.png", "1"),
    ] {
      let refused = try runProgram(
        URL(fileURLWithPath: "/bin/bash"),
        ["-c", "( '\(program)' \(arguments) <&- >&- 2>&- ); echo $?"], timeout: 20)
      XCTAssertEqual(refused.stdout.trimmingCharacters(in: .whitespacesAndNewlines), status)
    }
    // With standard output closed, a command whose work is to print fails, saying why (it
    // printed nothing and exited 0); a render's pictures are its work, and it succeeds.
    for command in ["presets list", "presets show snow", "shaders", "--version", "schema"] {
      let printed = try runProgram(
        URL(fileURLWithPath: "/bin/bash"), ["-c", "'\(program)' \(command) >&-; echo $?"])
      XCTAssertEqual(printed.stdout, "1\n", command)
      XCTAssertEqual(
        printed.stderr, "confetti: cannot write standard output: it is closed\n", command)
    }
    let png = directory.appendingPathComponent("closed-output.png").path
    let rendered = try runProgram(
      URL(fileURLWithPath: "/bin/bash"),
      ["-c", "'\(program)' render --size 64x48 --out '\(png)' >&-; echo $?"])
    XCTAssertEqual(rendered.stdout, "0\n", rendered.stderr)
    XCTAssertNoThrow(try PNG.read(URL(fileURLWithPath: png)))
    // Full, the same: the picture is written, and its report goes to stderr, with a note.
    let full = directory.appendingPathComponent("full-output.png").path
    let noted = try runProgram(
      URL(fileURLWithPath: "/bin/bash"),
      ["-c", "'\(program)' render --size 64x48 --out '\(full)' >/dev/full; echo $? >&2"])
    XCTAssertEqual(
      noted.stderr,
      "confetti: note: standard output could not take the report (No space left on device): "
        + "wrote \(full) (64×48)\n0\n")
    XCTAssertNoThrow(try PNG.read(URL(fileURLWithPath: full)))

    // A picture it replaces keeps its permissions: a private one stays private.
    chmod(full, 0o600)
    let replaced = try runProgram(
      confettiBinary, ["render", "--size", "32x24", "--out", full, "--time", "0.3"])
    XCTAssertEqual(replaced.status, 0, replaced.stderr)
    let mode = try FileManager.default.attributesOfItem(atPath: full)[.posixPermissions] as? Int
    XCTAssertEqual(mode, 0o600)
  }

  /// Images a configuration names that are not usable pictures.
  func images(in directory: URL) throws -> [Case] {
    // A folder where an image should be; the other files are written below.
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("folder.png"), withIntermediateDirectories: true)
    // A FIFO that nothing writes: opening it to read would wait for ever.
    XCTAssertEqual(mkfifo(directory.appendingPathComponent("pipe.png").path, 0o600), 0)
    let pictures: [(name: String, bytes: [UInt8]?, message: String)] = [
      ("missing.png", nil, "cannot use the image"),
      ("folder.png", nil, "it is a folder, not a file"),
      ("pipe.png", nil, "it is a FIFO, not a file"),
      ("/dev/zero", nil, "it is a device or special file, not a file"),
      ("text.png", Array("not a picture".utf8), "cannot use the image"),
      ("empty.png", [], "cannot use the image"),
      ("truncated.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], "cannot use"),
    ]
    return try pictures.map { picture in
      if let bytes = picture.bytes {
        try Data(bytes).write(to: directory.appendingPathComponent(picture.name))
      }
      let file = directory.appendingPathComponent(
        "image-\(picture.name.replacingOccurrences(of: "/", with: "_")).json")
      try
        #"{"name": "i", "emitters": [{"cells": [{"count": 1, "shapes": [{"image": "\#(picture.name)"}]}]}]}"#
        .write(to: file, atomically: true, encoding: .utf8)
      return Case(
        arguments: ["render", "--config", file.path, "--out", directory.path + "/i.png"],
        status: 1, message: picture.message)
    }
  }

  /// Places a picture must not be written to.
  func outputs(in directory: URL) throws -> [Case] {
    let link = directory.appendingPathComponent("link.png").path
    XCTAssertEqual(symlink("/dev/null", link), 0)
    let fifo = directory.appendingPathComponent("fifo.png").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let folder = directory.appendingPathComponent("a-folder.png").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let render = ["render", "--size", "32x32", "--out"]
    // Configuration files that cannot be read as one: not UTF-8, a loop of links, a byte over.
    let notText = directory.appendingPathComponent("latin1.json").path
    try Data([0x7B, 0x22, 0xE9, 0x22, 0x7D]).write(to: URL(fileURLWithPath: notText))
    let loop = directory.appendingPathComponent("loop.json").path
    XCTAssertEqual(symlink(loop + ".2", loop), 0)
    XCTAssertEqual(symlink(loop, loop + ".2"), 0)
    let large = directory.appendingPathComponent("large.json").path
    try Data(repeating: 0x20, count: 1_048_577).write(to: URL(fileURLWithPath: large))
    // An effect file that --records' description would replace (cfg.bin's is cfg.json).
    let effectFile = directory.appendingPathComponent("cfg.json").path
    try Data(#"{"name": "mine", "emitters": [{"cells": [{"count": 5}]}]}"#.utf8)
      .write(to: URL(fileURLWithPath: effectFile))
    let recordsOverEffect = ["render", "--size", "32x32", "--config", effectFile, "--records"]
    // An effect whose piece is a picture beside it, and an effect file named as a plot.
    let picture = directory.appendingPathComponent("star.png").path
    try PNG.write(
      RGBAImage(width: 4, height: 4, fill: .init(red: 255, green: 0, blue: 0)),
      to: URL(fileURLWithPath: picture))
    let pictureEffect = directory.appendingPathComponent("pictures.json").path
    try Data(
      #"{"name": "p", "emitters": [{"cells": [{"count": 3, "shapes": [{"image": "star.png"}]}]}]}"#
        .utf8
    )
    .write(to: URL(fileURLWithPath: pictureEffect))
    let svgEffect = directory.appendingPathComponent("effect.svg").path
    try Data(#"{"name": "mine", "emitters": [{"cells": [{"count": 5}]}]}"#.utf8)
      .write(to: URL(fileURLWithPath: svgEffect))
    return [
      Case(
        arguments: ["render", "--size", "32x32", "--config", pictureEffect, "--out", picture],
        status: 1, message: "it is \(picture), which this command reads"),
      Case(
        arguments: [
          "bench", "--frames", "1", "--size", "32x32", "--sweep", "10,20", "--config",
          svgEffect, "--plot", svgEffect,
        ], status: 1, message: "which this command reads"),
      Case(
        arguments: recordsOverEffect + [directory.appendingPathComponent("cfg.bin").path],
        status: 1, message: "it is \(effectFile), which this command reads"),
      Case(
        arguments: ["render", "--size", "32x32", "--config", effectFile, "--out", effectFile],
        status: 64, message: "must name a .png"),
      Case(
        arguments: render + [directory.path + "/x.png/"], status: 1,
        message: "a name ending in / is a folder's"),
      Case(
        arguments: render + [directory.path + "/x.gif/", "--frames", "2"], status: 1,
        message: "ending in /"),
      Case(
        arguments: render + [
          directory.path + "/e.png", "--time", "60", "--records",
          directory.path + "/e.bin",
        ], status: 1, message: "no piece is in flight at 60 s"),
      Case(arguments: ["help", "nosuch"], status: 64, message: "no command named 'nosuch'"),
      Case(arguments: ["help", "render", "nosuch"], status: 64, message: "no command named"),
      Case(
        arguments: ["render", "--trigger", "key@1\n2"], status: 64,
        message: #"The value 'key@1\n2' is invalid for '--trigger"#),
      Case(arguments: render + [link], status: 1, message: "it is a symbolic link"),
      Case(arguments: render + [fifo], status: 1, message: "it is a FIFO"),
      Case(arguments: render + [folder], status: 1, message: "it is a folder"),
      Case(arguments: render + ["\(missingFolder)/x.png"], status: 1, message: "No such file"),
      Case(arguments: render + ["/proc/x.png"], status: 1, message: "cannot write /proc/x.png"),
      Case(
        arguments: render + ["x.jpg"], status: 64,
        message: "must name a .png, .gif, .webm, .mp4 or .mov file"),
      Case(
        arguments: render + [""], status: 64,
        message: "must name a .png, .gif, .webm, .mp4 or .mov file"),
      Case(
        arguments: ["--sweep", "10,20", "--frames", "1", "--plot", link], status: 64,
        message: "--plot writes an SVG file"),
      Case(
        arguments: ["--sweep", "10,20", "--frames", "1", "--plot", "/dev/full"], status: 64,
        message: "--plot writes an SVG file: give a name ending in .svg, not '/dev/full'"),
      Case(arguments: ["render", "--config", "/dev/zero"], status: 1, message: "special file"),
      Case(arguments: ["render", "--config", fifo], status: 1, message: "it is a FIFO"),
      Case(arguments: ["render", "--config", folder], status: 1, message: "it is a folder"),
      Case(arguments: ["render", "--config", ""], status: 1, message: "no configuration file"),
      Case(
        arguments: ["render", "--config", "\(missingFolder).json"], status: 1, message: "No such"),
      Case(arguments: ["render", "--config", notText], status: 1, message: "it is not UTF-8 text"),
      Case(
        arguments: ["render", "--config", loop], status: 1,
        message: "Too many levels of symbolic links"),
      Case(
        arguments: ["render", "--config", large], status: 1,
        message: "it is over 1 MiB (1048577 bytes), the most an effect file may be"),
    ]
  }

  /// Environments the program cannot work in.
  func environments() -> [Case] {
    [
      Case(
        arguments: [], status: 1, message: "no display",
        environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil]),
      Case(
        arguments: [], status: 1, message: "no display",
        environment: ["DISPLAY": ":99999", "WAYLAND_DISPLAY": nil]),
      Case(
        arguments: ["render", "--out", "/tmp/never.png"], status: 1,
        message: "no headless OpenGL 3.3 context",
        environment: ["MESA_GL_VERSION_OVERRIDE": "3.0"]),
      Case(
        arguments: ["bench", "--frames", "1"], status: 1, message: "OpenGL 3.3",
        environment: ["MESA_GL_VERSION_OVERRIDE": "2.1"]),
      // No driver at all: Mesa's own complaints must not come before the program's line.
      Case(
        arguments: ["render", "--out", "/tmp/never.png"], status: 1,
        message: "install Mesa's EGL and DRI drivers",
        environment: ["LIBGL_DRIVERS_PATH": missingFolder]),
      Case(
        arguments: ["bench", "--frames", "1"], status: 1, message: "no headless OpenGL 3.3",
        environment: ["LIBGL_DRIVERS_PATH": missingFolder]),
      // A reduced-motion setting that says neither yes nor no (it turned motion off silently).
      Case(
        arguments: ["render", "--out", "/tmp/never.png"], status: 64,
        message: "CONFETTI_REDUCE_MOTION is 1, true, yes or on to reduce motion",
        environment: ["CONFETTI_REDUCE_MOTION": "0.0"]),
      Case(
        arguments: ["render", "--out", "/tmp/never.png"], status: 64, message: "not \"1x\"",
        environment: ["CONFETTI_REDUCE_MOTION": "1x"]),
    ]
  }

  /// Every key a cell or an emitter takes, set to a value of the wrong type, and a number past
  /// either end of its range: each file refused in one line naming the key's place. Written
  /// from the schema, so a key added later is tried too.
  func schemaValues(in directory: URL) throws -> [Case] {
    func past(_ range: ClosedRange<Double>) -> [String] {
      let (low, high) = (range.lowerBound, range.upperBound)
      return [high >= 1e300 ? "1e309" : "\(high + max(1, abs(high)))"]
        + (low <= -1e300 ? [] : ["\(low - max(1, abs(low)))"])
    }
    var files: [(json: String, place: String)] = []
    for (object, key) in ConfigSchema.cell.keys.map({ ("cell", $0) })
      + ConfigSchema.emitter.keys.map({ ("emitter", $0) })
    where key.name != "cells" {
      var values: [String]
      switch key.kind {
      case .number(let range), .varied(let range): values = past(range) + [#""text""#]
      case .integer(let range):
        values = past(Double(range.lowerBound)...Double(range.upperBound)) + ["1.5"]
      case .boolean: values = ["3"]
      case .choice: values = [#""no such choice""#]
      case .text: values = ["5"]
      case .list: values = ["{}"]
      default: values = ["[]"]
      }
      for value in values {
        // The count the burst's cell takes, unless it is the key tried.
        let cell = object == "cell" ? #""\#(key.name)": \#(value)"# : #""count": 1"#
        let countKey = key.name == "count" || object == "emitter" ? "" : #", "count": 1"#
        let emitterKey = object == "emitter" ? #", "\#(key.name)": \#(value)"# : ""
        let text =
          #"{"name": "v", "emitters": [{"cells": [{\#(cell)\#(countKey)}]\#(emitterKey)}]}"#
        let place =
          object == "cell" ? "$.emitters[0].cells[0].\(key.name)" : "$.emitters[0].\(key.name)"
        files.append((text, place))
      }
    }
    return try files.enumerated().map { index, file in
      let url = directory.appendingPathComponent("value-\(index).json")
      try Data(file.json.utf8).write(to: url)
      return Case(
        arguments: ["render", "--config", url.path, "--out", directory.path + "/v.png"], status: 1,
        message: file.place)
    }
  }
}
