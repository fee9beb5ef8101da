import ConfettiGL
import ConfettiImage
import ConfettiTestSupport
import Foundation
import XCTest

/// The real `confetti` binary, run end to end: output, files and exit codes.
final class CommandLineTests: XCTestCase {
  func testHelpDocumentsTheControlsAndTheCommands() throws {
    let result = try confetti(["--help"])
    XCTAssertEqual(result.status, 0)
    for text in ["left click", "space", "esc, q", "window", "render", "bench", "presets"] {
      XCTAssert(result.stdout.contains(text), "--help does not mention \(text)")
    }
    let window = try confetti(["window", "--help"])
    for text in ["--seed", "--no-vsync", "--preset", "--capacity"] {
      XCTAssert(window.stdout.contains(text), "window --help does not mention \(text)")
    }
    for text in ["seed's", "the seed:", "The seed"] {
      XCTAssertFalse(result.stdout.contains(text), "plain words, not \(text)")
    }
    // A sentence is not broken by a line of the source: it wraps where the terminal does.
    XCTAssert(result.stdout.contains("exits with the command's status"), result.stdout)
    // run offers only what it takes: its celebration ends, so no --loop.
    let run = try confetti(["run", "--help"])
    XCTAssert(run.stdout.contains("--duration"), run.stdout)
    XCTAssertFalse(run.stdout.contains("--loop"), run.stdout)
    XCTAssert(try confetti(["overlay", "--help"]).stdout.contains("--loop"))
    // Help is read by people who installed a package: no source tree is named.
    for command in [[], ["window"], ["overlay"], ["run"], ["render"], ["bench"]] {
      let help = try confetti(command + ["--help"]).stdout
      for text in ["repository", "Presets/"] {
        XCTAssertFalse(help.contains(text), "\(command) --help names \(text)")
      }
    }
  }

  func testPiecesLargerThanTheGLsLargestSpriteAreDrawnWholeOnEitherPrimitive() throws {
    // 300 × 300 points at 2 pixels a point: 849 px across, far beyond llvmpipe's 255 px sprites.
    let directory = try temporaryDirectory()
    let big = directory.appendingPathComponent("big.json")
    try #"""
    {"name": "big", "emitters": [{"position": {"x": 0.5, "y": 0.5}, "cells": [{"count": 1,
      "sizes": [[300, 300]], "speed": 0, "gravity": 0, "spin": 0, "rotation": 45,
      "flips": false, "colors": ["#ff0000"]}]}]}
    """#.write(to: big, atomically: true, encoding: .utf8)
    var painted: [String: Int] = [:]
    for primitive in ["points", "quads"] {
      let out = directory.appendingPathComponent("\(primitive).png")
      let result = try confetti([
        "render", "--config", big.path, "--size", "1000x1000", "--scale", "2", "--time", "0.1",
        "--primitive", primitive, "--out", out.path,
      ])
      XCTAssertEqual(result.status, 0, result.stderr)
      XCTAssertEqual(result.stderr, "", "no warning: nothing is cut")
      let image = try PNG.read(out)
      painted[primitive] = (0..<image.height).reduce(0) { count, y in
        count + (0..<image.width).filter { image[$0, y].red > 200 }.count
      }
    }
    // A 600 × 600 px square: 360,000 pixels, whole (a 255 px sprite would show 65,025 at most).
    for (primitive, count) in painted {
      XCTAssertEqual(Double(count), 360_000, accuracy: 3_000, primitive)
    }
  }

  func testAWriteThatFailsHalfWayLeavesTheOldPictureAndNoDebris() throws {
    // A file size limit of 1 KiB makes the write fail part-way, as a full disk would.
    let directory = try temporaryDirectory()
    let picture = directory.appendingPathComponent("shot.png")
    try Data("the old picture".utf8).write(to: picture)
    let command = "trap '' XFSZ; ulimit -f 2; exec \"$0\" render --size 400x300 --out \"$1\""
    let result = try runProgram(
      URL(fileURLWithPath: "/bin/sh"), ["-c", command, confettiBinary.path, picture.path])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stderr, "confetti: cannot write \(picture.path): File too large\n")
    XCTAssertEqual(try String(contentsOf: picture, encoding: .utf8), "the old picture")
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: directory.path), ["shot.png"])
  }

  func testAFullDiskOnStandardOutputIsAnErrorNotASuccess() throws {
    for arguments in [
      // (A preset over 4 KB fills the output's buffer and loses it on the way, before the end.)
      ["schema"], ["presets", "show", "snow"], ["presets", "show", "confetti"],
      ["presets", "show", "fireworks"], ["--version"], ["--help"],
      ["--bench", "10", "--frames", "1", "--size", "64x64", "--json"],
    ] {
      let process = Process()
      process.executableURL = confettiBinary
      process.arguments = arguments
      process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
      let err = Pipe()
      process.standardError = err
      try process.run()
      let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      XCTAssertEqual(process.terminationStatus, 1, "\(arguments)")
      XCTAssertEqual(message, "confetti: cannot write standard output: No space left on device\n")
    }
  }

  func testSubcommandsVersionAndCompletionScripts() throws {
    let version = try confetti(["--version"])
    XCTAssertEqual(version.status, 0)
    XCTAssert(version.stdout.first?.isNumber == true, version.stdout)

    let show = try confetti(["presets", "show", "snow"])
    XCTAssertEqual(show.status, 0)
    let snow = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appending(path: "../../Presets/snow.json").standardized
    XCTAssertEqual(show.stdout, try String(contentsOf: snow, encoding: .utf8))
    let list = try confetti(["presets", "list"])
    XCTAssertEqual(list.stdout, try confetti(["--list-presets"]).stdout)
    for text in ["seed's", "The seed"] {
      XCTAssertFalse(list.stdout.contains(text), "plain words, not \(text): \(list.stdout)")
    }

    // The JSON Schema, for editors: every key of the format, the presets' among them.
    let schema = try confetti(["schema"])
    XCTAssertEqual(schema.status, 0)
    let document =
      try JSONSerialization.jsonObject(with: Data(schema.stdout.utf8)) as? [String: Any]
    XCTAssertEqual(document?["$schema"] as? String, "https://json-schema.org/draft/2020-12/schema")
    for key in ["birthRate", "velocityUnit", "flutterAmplitude", "gustPeriod", "offset"] {
      XCTAssert(schema.stdout.contains("\"\(key)\""), "the schema lacks \(key)")
    }

    // The shells' completion scripts offer the subcommands, the preset names and files.
    for shell in ["bash", "zsh", "fish"] {
      let script = try confetti(["--generate-completion-script", shell])
      XCTAssertEqual(script.status, 0, shell)
      for word in ["render", "bench", "presets", "schema", "falling-confetti", "json"] {
        XCTAssert(script.stdout.contains(word), "\(shell) completion lacks \(word)")
      }
    }
  }

  /// bash's completion, as a person gets it pressing Tab: after `run --` the programs on PATH,
  /// then the files the command may name; the backdrops after `--background`.
  func testBashCompletesRunsCommandAndTheBackdrop() throws {
    let folder = try temporaryDirectory()
    let script = folder.appendingPathComponent("confetti.bash")
    try Data(try confetti(["--generate-completion-script", "bash"]).stdout.utf8).write(to: script)
    let programs = folder.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
    let program = programs.appendingPathComponent("confetti-test-program")
    try Data("#!/bin/sh\n".utf8).write(to: program)
    chmod(program.path, 0o755)
    try Data().write(to: folder.appendingPathComponent("notes-for-the-command.txt"))
    // What Tab offers at the end of `line`: the completion function run as bash runs it.
    func offered(_ line: String) throws -> [String] {
      let harness = """
        source "$1"
        cd "$3"
        COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
        read -ra COMP_WORDS <<<"$2"
        [[ "$2" == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        _confetti confetti "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\\n' "${COMPREPLY[@]}"
        """
      let path = [
        programs.path, confettiBinary.deletingLastPathComponent().path, "/usr/bin", "/bin",
      ]
      let result = try runProgram(
        URL(fileURLWithPath: "/bin/bash"), ["-c", harness, "bash", script.path, line, folder.path],
        environment: ["PATH": path.joined(separator: ":")])
      XCTAssertEqual(result.status, 0, result.stderr)
      return result.stdout.split(separator: "\n").map(String.init)
    }
    XCTAssertEqual(try offered("confetti run -- confetti-test-pr"), ["confetti-test-program"])
    XCTAssert(try offered("confetti run --preset snow -- sh").contains("sh"))
    XCTAssertEqual(
      try offered("confetti run -- confetti-test-program notes-"), ["notes-for-the-command.txt"])
    XCTAssertEqual(
      try offered("confetti render --background "), ["transparent", "#000000", "#ffffff"])
    // The window's options at the top level, as the README writes them; subcommands before
    // any.
    XCTAssertEqual(try offered("confetti --preset sn"), ["snow"])
    XCTAssertEqual(try offered("confetti --seed 3 --pre"), ["--preset"])
    XCTAssert(try offered("confetti ").contains("shell-hook"))
  }

  /// zsh's and fish's completion, as a person gets it pressing Tab: the window's options at the
  /// top level too (`confetti --preset <Tab>`, as the README writes it), the subcommands first.
  func testZshAndFishCompleteTheWindowsOptionsAtTheTopLevel() throws {
    let folder = try temporaryDirectory()
    // zsh: its completion system in a pseudo-terminal, compadd noting each candidate in a file.
    let zshScript = folder.appendingPathComponent("_confetti")
    try Data(try confetti(["--generate-completion-script", "zsh"]).stdout.utf8).write(to: zshScript)
    let zshHarness = #"""
      zmodload zsh/zpty
      local script=$1 line=$2 hits=$3 done=$3.done out
      zpty z zsh -f -i
      zpty -w z "autoload -Uz compinit && compinit -u -D; source ${(q)script}; compdef _confetti confetti; compadd() { if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi; local -a found; builtin compadd -A found \"\$@\"; print -rl -- \$found >> ${(q)hits}; }; PROMPT=Z''READY"
      # Type only once the line editor reads keys (before, the terminal would take Ctrl-U).
      zpty -r -m z out '*ZREADY*' || exit 1
      zpty -w -n z "$line"$'\t'
      zpty -w z $'\C-u'"touch ${(q)done}"
      for i in {1..600}; do [[ -e $done ]] && break; sleep 0.1; done
      zpty -d z
      [[ -e $done ]]
      """#
    var asked = 0
    func zshOffers(_ line: String) throws -> [String] {
      asked += 1
      let hits = folder.appendingPathComponent("zsh-hits-\(asked)")
      let result = try runProgram(
        URL(fileURLWithPath: "/usr/bin/zsh"),
        ["-f", "-c", zshHarness, "zsh", zshScript.path, line, hits.path])
      XCTAssertEqual(result.status, 0, "zsh: \(line): \(result.stderr)")
      let text = (try? String(contentsOf: hits, encoding: .utf8)) ?? ""
      return text.split(separator: "\n").map(String.init)
    }
    XCTAssertEqual(try zshOffers("confetti --preset sn"), ["snow"])
    XCTAssert(try zshOffers("confetti --seed 3 --pre").contains("--preset"))
    XCTAssert(try zshOffers("confetti ").contains("shell-hook"))
    // fish: its own completion of a command line.
    let fishScript = folder.appendingPathComponent("confetti.fish")
    try Data(try confetti(["--generate-completion-script", "fish"]).stdout.utf8).write(
      to: fishScript)
    func fishOffers(_ line: String) throws -> [String] {
      let result = try runProgram(
        URL(fileURLWithPath: "/usr/bin/fish"),
        ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", fishScript.path, line])
      XCTAssertEqual(result.status, 0, "fish: \(line): \(result.stderr)")
      return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
    }
    XCTAssertEqual(try fishOffers("confetti --preset sn"), ["snow"])
    XCTAssert(try fishOffers("confetti --seed 3 --pre").contains("--preset"))
    XCTAssert(try fishOffers("confetti ").contains("shell-hook"))
  }

  func testWithoutADisplayTheWindowSaysSoInOneLineAndExits1() throws {
    let result = try confetti([], environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    XCTAssert(result.stderr.hasPrefix("confetti: cannot open a window: no display"), result.stderr)
    XCTAssert(result.stderr.contains("confetti render"), "it says what to do instead")
  }

  func testBadArgumentsGetOneLineAndANonZeroExitCode() throws {
    let table: [([String], String)] = [
      (["--size", "0x600"], "--size"), (["--size", "wide"], "--size"),
      (["render", "--size", "-10x10"], "-10x10"),
      (["--seed", "-1"], "--seed"),
      (["--capacity", "0"], "--capacity"), (["--bogus"], "--bogus"),
      (["--bench", "0"], "between 1 and"), (["--bench", "-5"], "between 1 and"),
      (["bench", "--particles", "-5"], "not -5"), (["presets", "show", "nope"], "no preset named"),
      (["render", "--config", "/tmp"], "/tmp: it is a folder"),
      (["--bench", "many"], "many"),
      (["--bench", "99999999999"], "between 1 and"),
      (["--bench", "100", "--size", "0x10"], "--size"),
      (["--bench", "100", "--size", "99999x10"], "16384"),
      (["--bench", "100", "--seconds", "nan"], "--seconds"),
      (["--bench", "100", "--seconds", "inf"], "--seconds"),
      (["--bench", "100", "--frames", "0"], "--frames"),
      (["--bench", "100", "--mode", "fast"], "--mode"),
      (["--sweep", "10,abc"], "--sweep"), (["--sweep", ""], "--sweep"),
      (["--compare"], "Unknown option '--compare'"),
      (["--bench", "10", "--sweep", "10"], "not both"),
      (["render", "--time", "nan"], "--time"), (["render", "--time", "-1"], "--time must be"),
      (["render", "--fps", "0"], "--fps"), (["render", "--size", "800"], "--size"),
      (["render", "--frames", "0"], "--frames"), (["render", "--count", "0"], "--count"),
      (["render", "--size", "20000x100"], "20000"),
      (
        ["--preset", "glitter"],
        "no preset named \"glitter\"; the presets are confetti, party-popper"
      ),
      (["render", "--preset", "nope"], "no preset named"),
      (["--bench", "10", "--preset", "nope"], "no preset named"),
      (["--preset", "snow", "--config", "x.json"], "not both"),
      (["render", "--config", "\(missingFolder)/effect.json"], "cannot read the configuration"),
      (["render", "--config", badConfig], "$.emitters[0].cells[0].lifetime: must be a number"),
      (["--bench", "10", "--config", badConfig], "effect.json: $.emitters[0]"),
      (["render", "--config", missingImage], "cannot use the image"),
      (["render", "--config", "/dev/zero"], "/dev/zero: it is a device or special file"),
      (["render", "--config", "/dev/null"], "/dev/null: it is a device or special file"),
      (["render", "--config", ""], "no configuration file name given"),
      (["render", "--config", fifo], "it is a FIFO, not a file"),
      (["render", "--config", pngBomb], "100000x100000 pixels; at most 512x512"),
      (["render", "--out", "x.jpg"], "--out must name a .png, .gif, .webm, .mp4 or .mov file"),
      (["render", "--out", link], "it is a symbolic link"),
      (["render", "--scale", "8", "--size", "4x4"], "leaves no window"),
      (["render", "--fps", "1e-9", "--frames", "2"], "must stay within 3600 s"),
      (["render", "--fps", "5e-324", "--frames", "2"], "must stay within 3600 s"),
      (["bench", "--seconds", "1", "--frames", "2"], "not both"),
      (["--sweep", "10,20", "--plot", "/dev/full"], "give a name ending in .svg"),
      (["--sweep", "10", "--plot", "one.svg"], "two particle counts or more"),
      (["bench", "--particles", "10", "--plot", "p.svg"], "give --sweep N,N,... too"),
      (["--list-presets", "--bench", "10"], "Unknown option '--list-presets'"),
    ]
    for (arguments, mention) in table {
      let result = try confetti(arguments)
      XCTAssertNotEqual(result.status, 0, "\(arguments) was accepted")
      XCTAssertEqual(
        result.stderr.split(separator: "\n").count, 1, "\(arguments): \(result.stderr)")
      XCTAssert(result.stderr.hasPrefix("confetti: "), "\(arguments): \(result.stderr)")
      XCTAssert(
        result.stderr.contains(mention), "\(arguments) should mention \(mention): \(result.stderr)")
      XCTAssertEqual(result.stdout, "", "\(arguments)")
    }
  }

  /// A configuration with a negative lifetime.
  lazy var badConfig: String = {
    let file = try! temporaryDirectory().appendingPathComponent("effect.json")
    try! #"{"name": "bad", "emitters": [{"cells": [{"count": 1, "lifetime": -2}]}]}"#
      .write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }()

  /// A FIFO where a configuration file is expected: reading it would wait for ever.
  lazy var fifo: String = {
    let path = try! temporaryDirectory().appendingPathComponent("effect.json").path
    XCTAssertEqual(mkfifo(path, 0o600), 0)
    return path
  }()

  /// A symbolic link where a picture is to be written.
  lazy var link: String = {
    let directory = try! temporaryDirectory()
    let path = directory.appendingPathComponent("link.png").path
    XCTAssertEqual(symlink(directory.appendingPathComponent("target.png").path, path), 0)
    return path
  }()

  /// A configuration whose image is a 74-byte PNG claiming 100000×100000 pixels: decoding it
  /// would take 40 GB.
  lazy var pngBomb: String = {
    let directory = try! temporaryDirectory()
    func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
      let typed = Array(type.utf8) + body
      return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
    }
    let header = bigEndian(100_000) + bigEndian(100_000) + [8, 6, 0, 0, 0]
    // An empty zlib stream: the header alone must be enough to refuse it.
    let png =
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
      + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
    try! Data(png).write(to: directory.appendingPathComponent("bomb.png"))
    let file = directory.appendingPathComponent("bomb.json")
    try!
      #"{"name": "b", "emitters": [{"cells": [{"count": 1, "shapes": [{"image": "bomb.png"}]}]}]}"#
      .write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }()

  /// A configuration naming an image that is not there.
  lazy var missingImage: String = {
    let file = try! temporaryDirectory().appendingPathComponent("image.json")
    try!
      #"{"name": "img", "emitters": [{"cells": [{"count": 1, "shapes": [{"image": "no.png"}]}]}]}"#
      .write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }()

  func testPresetsAreListedAndEachFileLoadsAsAConfig() throws {
    let list = try confetti(["--list-presets"])
    XCTAssertEqual(list.status, 0)
    let lines = list.stdout.split(separator: "\n")
    let files = try FileManager.default.contentsOfDirectory(
      at: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appending(path: "../../Presets").standardized, includingPropertiesForKeys: nil)
    XCTAssertEqual(lines.count, files.filter { $0.pathExtension == "json" }.count, list.stdout)
    XCTAssert(lines[0].hasPrefix("confetti "))
    XCTAssert(list.stdout.contains("falling-confetti"))
    // A preset file copied out of the repository loads with --config and draws the same picture.
    let directory = try temporaryDirectory()
    let presets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appending(path: "../../Presets/snow.json").standardized
    let copy = directory.appendingPathComponent("my-snow.json")
    try FileManager.default.copyItem(at: presets, to: copy)
    let viaPreset = directory.appendingPathComponent("preset.png")
    let viaConfig = directory.appendingPathComponent("config.png")
    for (arguments, file) in [
      (["--preset", "snow"], viaPreset), (["--config", copy.path], viaConfig),
    ] {
      let result = try confetti(
        ["render"] + arguments + ["--size", "160x120", "--time", "2", "--out", file.path])
      XCTAssertEqual(result.status, 0, result.stderr)
    }
    XCTAssertEqual(try Data(contentsOf: viaPreset), try Data(contentsOf: viaConfig))
    // The images example: PNG files next to the configuration, packed into the atlas.
    let hearts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appending(path: "../../docs/examples/hearts.json").standardized
    let picture = directory.appendingPathComponent("hearts.png")
    let result = try confetti(
      [
        "render", "--config", hearts.path, "--size", "160x120", "--time", "0.5", "--out",
        picture.path,
      ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let image = try PNG.read(picture)
    let reds = (0..<(160 * 120)).filter {
      image.bytes[$0 * 4] > 200 && image.bytes[$0 * 4 + 1] < 90
    }
    XCTAssertGreaterThan(reds.count, 30, "hearts drawn in their own red")
  }

  func testAMissingFontIsOneLineNamingThePackageToInstall() throws {
    // A fontconfig that knows no fonts at all.
    let directory = try temporaryDirectory()
    let conf = directory.appendingPathComponent("fonts.conf")
    try """
    <?xml version="1.0"?>
    <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
    <fontconfig><dir>\(directory.path)/none</dir><cachedir>\(directory.path)/cache</cachedir></fontconfig>
    """.write(to: conf, atomically: true, encoding: .utf8)
    let out = directory.appendingPathComponent("emoji.png")
    let result = try confetti(
      ["render", "--preset", "emoji", "--out", out.path],
      environment: ["FONTCONFIG_FILE": conf.path])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    XCTAssert(result.stderr.contains("no font on this system has \"🎉\" (U+1F389)"), result.stderr)
    XCTAssert(result.stderr.contains("apt-get install fonts-noto-color-emoji"), result.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "no picture written")
  }

  func testReducedMotionComesFromTheFlagOrTheEnvironment() throws {
    let directory = try temporaryDirectory()
    var pictures: [Data] = []
    for (arguments, environment) in [
      ([], [:]), (["--reduce-motion"], [:]), ([], ["CONFETTI_REDUCE_MOTION": "1"]),
    ] as [([String], [String: String?])] {
      let file = directory.appendingPathComponent("\(pictures.count).png")
      let result = try confetti(
        [
          "render", "--preset", "confetti", "--size", "160x120", "--time", "0.5", "--out",
          file.path,
        ]
          + arguments, environment: environment)
      XCTAssertEqual(result.status, 0, result.stderr)
      pictures.append(try Data(contentsOf: file))
    }
    XCTAssertNotEqual(pictures[0], pictures[1], "reduced motion changes the picture")
    XCTAssertEqual(pictures[1], pictures[2], "the variable does what the flag does")
  }

  func testRenderWritesThePictureItWasAskedFor() throws {
    let directory = try temporaryDirectory()
    let file = directory.appendingPathComponent("shot.png")
    let result = try confetti(["render", "--size", "320x240", "--time", "0.5", "--out", file.path])
    XCTAssertEqual(result.status, 0, result.stderr)
    let image = try PNG.read(file)
    XCTAssertEqual(image.width, 320)
    XCTAssertEqual(image.height, 240)
    // The corner is backdrop; somewhere there is confetti in the seed's colours.
    XCTAssertEqual(image[0, 0], RGBAImage.Pixel(red: 18, green: 20, blue: 28))
    let colours = Set((0..<240).flatMap { y in (0..<320).map { x in image[x, y] } })
    XCTAssertGreaterThan(colours.count, 6, "no confetti in the picture")
  }

  func testTheSameSeedRendersTheSamePictureAndAnotherSeedAnother() throws {
    let directory = try temporaryDirectory()
    func render(seed: Int, name: String) throws -> Data {
      let file = directory.appendingPathComponent(name)
      let result = try confetti([
        "render", "--size", "200x150", "--seed", "\(seed)", "--out", file.path,
      ])
      XCTAssertEqual(result.status, 0, result.stderr)
      return try Data(contentsOf: file)
    }
    let first = try render(seed: 4, name: "a.png")
    XCTAssertEqual(first, try render(seed: 4, name: "b.png"))
    XCTAssertNotEqual(first, try render(seed: 5, name: "c.png"))
  }

  func testRenderWritesANumberedSequence() throws {
    let directory = try temporaryDirectory()
    let result = try confetti([
      "render", "--size", "64x48", "--frames", "3", "--out",
      directory.appendingPathComponent("f.png").path,
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    XCTAssertEqual(names, ["f-0000.png", "f-0001.png", "f-0002.png"])
  }

  func testAnUnwritableOutputIsOneLineAndExit1() throws {
    let result = try confetti(["render", "--size", "64x48", "--out", "\(missingFolder)/dir/x.png"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.stderr,
      "confetti: cannot write \(missingFolder)/dir/x.png: No such file or directory\n")
  }

  func testSizesAreGivenAsWidthByHeightOrByTheirNames() throws {
    let sizes = [
      "720p": (1280, 720), "1080P": (1920, 1080), "1440p": (2560, 1440), "4k": (3840, 2160),
      "2160p": (3840, 2160), "640X360": (640, 360),
    ]
    for (text, (width, height)) in sizes {
      XCTAssertEqual(PixelSize(parsing: text), PixelSize(width: width, height: height), text)
    }
    for bad in ["1080", "1080x", "x720", "0x10", "-5x5", "1080i", "4kx", "", "1e3x10"] {
      XCTAssertNil(PixelSize(parsing: bad), bad)
    }
    let out = try temporaryDirectory().appendingPathComponent("named.png").path
    let named = try confetti(["render", "--size", "720p", "--out", out])
    XCTAssertEqual(named.status, 0, named.stderr)
    XCTAssert(named.stdout.contains("(1280×720)"), named.stdout)
  }

  func testATestCICannotRunIsAFailureThereAndASkipElsewhere() {
    XCTAssert(unavailable("needs xdotool", onCI: false) is XCTSkip)
    let failure = unavailable("needs xdotool", onCI: true)
    XCTAssertFalse(failure is XCTSkip)
    XCTAssertEqual("\(failure)", "CI must run this test, but it needs xdotool")
  }

  func testAGLOlderThan33IsAClearErrorNotACrash() throws {
    // Mesa can be told to offer only GL 3.0.
    for arguments in [["render", "--out", "/tmp/never.png"], ["--bench", "100", "--frames", "2"]] {
      let result = try confetti(arguments, environment: ["MESA_GL_VERSION_OVERRIDE": "3.0"])
      XCTAssertEqual(result.status, 1, "\(arguments)")
      XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
      XCTAssert(result.stderr.hasPrefix("confetti: no headless OpenGL 3.3 context"), result.stderr)
    }
  }
}
private func bigEndian(_ value: UInt32) -> [UInt8] {
  [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
}

/// The CRC-32 PNG chunks end with.
private func crc32(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}
