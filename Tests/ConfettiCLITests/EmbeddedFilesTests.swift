import ConfettiPresetFiles
import ConfettiPresets
import ConfettiShaderFiles
import ConfettiTestSupport
import XCTest

/// What the build puts into the program: the shaders and presets SwiftPM embeds, and the commit
/// the BuildCommit plugin writes.
final class EmbeddedFilesTests: XCTestCase {
  /// Every file of Presets/ and Shaders/ is embedded, with the text it has now, and Package.swift
  /// lists each: a file added to a folder without its lines, or a line without its file, fails
  /// here (SwiftPM only warns of a file it was not told of).
  func testEveryPresetAndShaderFileIsEmbeddedAsItIsNow() throws {
    let manifest = try String(
      contentsOf: repository.appending(path: "Package.swift"), encoding: .utf8)
    let folders: [(folder: String, embedded: [String: String])] = [
      (
        "Presets",
        Dictionary(uniqueKeysWithValues: presetFiles.map { ($0.name + ".json", $0.text) })
      ),
      ("Shaders", shaderFiles),
    ]
    for (folder, embedded) in folders {
      let files = try FileManager.default.contentsOfDirectory(
        atPath: repository.appending(path: folder).path
      ).filter { !$0.hasSuffix(".swift") }
      XCTAssertEqual(Set(files), Set(embedded.keys), "\(folder)/ and what is embedded")
      XCTAssertGreaterThan(files.count, 5, folder)
      for file in files {
        let text = try String(
          contentsOf: repository.appending(path: "\(folder)/\(file)"), encoding: .utf8)
        XCTAssertEqual(embedded[file], text, "\(folder)/\(file) as embedded")
        let listed = file.hasSuffix(".json") ? String(file.dropLast(".json".count)) : file
        XCTAssert(manifest.contains("\"\(listed)\""), "Package.swift lists \(folder)/\(file)")
      }
    }
    XCTAssertEqual(Presets.names, presetFiles.map(\.name))
  }

  /// The tool writes the commit HEAD names, through a branch's loose ref or its line in
  /// packed-refs, and "unknown" for anything but a commit's hash.
  func testTheCommitToolReadsHeadThroughLooseAndPackedRefs() throws {
    let tool = ["BuildCommitTool-tool", "BuildCommitTool"].map(builtBinary)
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    let binary = try XCTUnwrap(tool, "the plugin's tool is built with the program")
    let git = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: git) }
    let output = git.appending(path: "BuildCommit.swift")
    let hash = String(repeating: "0123456789", count: 4)
    func commit(head: String, loose: String?, packed: String?) throws -> String {
      try head.write(to: git.appending(path: "HEAD"), atomically: true, encoding: .utf8)
      let ref = git.appending(path: "refs/heads/main")
      try? FileManager.default.removeItem(at: ref)
      if let loose {
        try FileManager.default.createDirectory(
          at: ref.deletingLastPathComponent(), withIntermediateDirectories: true)
        try loose.write(to: ref, atomically: true, encoding: .utf8)
      }
      try (packed ?? "").write(
        to: git.appending(path: "packed-refs"), atomically: true, encoding: .utf8)
      let result = try runProgram(binary, [output.path, git.path, git.path])
      XCTAssertEqual(result.status, 0, result.stderr)
      let text = try String(contentsOf: output, encoding: .utf8)
      return try XCTUnwrap(text.firstMatch(of: /let buildCommit = "([^"]*)"/)).1.description
    }
    XCTAssertEqual(try commit(head: hash + "\n", loose: nil, packed: nil), hash)
    XCTAssertEqual(
      try commit(head: "ref: refs/heads/main\n", loose: hash + "\n", packed: nil), hash)
    XCTAssertEqual(
      try commit(
        head: "ref: refs/heads/main\n", loose: nil, packed: "# pack\n\(hash) refs/heads/main\n"),
      hash)
    XCTAssertEqual(try commit(head: "ref: refs/heads/gone\n", loose: nil, packed: nil), "unknown")
    XCTAssertEqual(try commit(head: "not a hash\n", loose: nil, packed: nil), "unknown")
    let usage = try runProgram(binary, [])
    XCTAssertEqual(usage.status, 2)
    XCTAssert(usage.stderr.hasPrefix("usage: BuildCommitTool"), usage.stderr)
  }
}
