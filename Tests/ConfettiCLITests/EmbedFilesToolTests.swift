import ConfettiTestSupport
import XCTest

/// The build tool that embeds Presets/ and Shaders/ into the program (Plugins/EmbedFiles).
final class EmbedFilesToolTests: XCTestCase {
  /// The tool as SwiftPM built it for the plugin.
  var tool: URL {
    let candidates = ["EmbedFilesTool-tool", "EmbedFilesTool"].map(builtBinary)
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
      ?? candidates[0]
  }

  /// SwiftPM plans the plugin's command again only when the package changes, so a preset added
  /// since sees an old list of files: the tool embeds what the folder holds when it runs, and
  /// says which of its files the plan does not know of.
  func testItEmbedsWhatTheFolderHoldsNowAndNamesFilesThePlanMisses() throws {
    let folder = try temporaryDirectory().appending(path: "Presets")
    defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let files = [
      "old.json": #"{"name": "old"}"#, "new.json": "\"\"\"#\"", "notes.txt": "not embedded",
    ]
    for (name, text) in files {
      try text.write(to: folder.appending(path: name), atomically: true, encoding: .utf8)
    }
    let output = folder.deletingLastPathComponent().appending(path: "Embedded.swift")
    let result = try runProgram(
      tool, [output.path, "embedded", folder.path, "json,glsl", "old.json", "gone.json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let generated = try String(contentsOf: output, encoding: .utf8)
    XCTAssert(generated.contains("let embedded: [String: String] = ["), generated)
    // Both files of the folder, in name order, each text intact in a raw string of its own.
    XCTAssert(generated.contains("\"new.json\": ##\"\"\"\n\"\"\"#\"\n\"\"\"##,"), generated)
    XCTAssert(generated.contains("\"old.json\": #\"\"\"\n{\"name\": \"old\"}\n\"\"\"#,"), generated)
    XCTAssertLessThan(
      try XCTUnwrap(generated.range(of: "new.json")).lowerBound,
      try XCTUnwrap(generated.range(of: "old.json")).lowerBound)
    XCTAssertFalse(generated.contains("notes.txt"), "only the extensions asked for")
    XCTAssertFalse(generated.contains("gone.json"), "a planned file no longer there")
    XCTAssert(
      result.stdout.hasPrefix("warning: Presets/new.json embedded, but SwiftPM sees later edits"),
      result.stdout)
    XCTAssert(result.stdout.hasSuffix("touch Package.swift\n"), result.stdout)

    // Planned in full: nothing to say.
    let planned = try runProgram(
      tool, [output.path, "embedded", folder.path, "json", "new.json", "old.json"])
    XCTAssertEqual(planned.status, 0, planned.stderr)
    XCTAssertEqual(planned.stdout, "")
  }
}
