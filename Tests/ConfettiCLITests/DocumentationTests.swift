import ConfettiTestSupport
import Foundation
import XCTest

/// The documentation as its readers meet it: the tutorial's code is the code it names, and the
/// user's pages and `--help` speak of the program, not of its tests.
final class DocumentationTests: XCTestCase {
  private let tutorial = "docs/learn/README.md"

  /// Every code block the tutorial and the derivation introduce with `<!-- same as PATH -->` is
  /// in PATH as shown: its lines, without their indentation and blank lines, are consecutive
  /// lines of the file.
  func testTheTutorialsCodeBlocksAreInTheFilesTheyName() throws {
    let checked = try checkBlocks(in: tutorial)
    // The code a learner reads in each of the files the tutorial walks through.
    for path in [
      "Examples/learn/confetti.vert", "Examples/learn/confetti.frag", "Examples/learn/confetti.c",
      "Sources/ConfettiCore/ConfettiPhysics.swift", "Shaders/particle.vert",
    ] {
      XCTAssertGreaterThan(checked[path] ?? 0, 0, "the tutorial shows no code of \(path)")
    }
    XCTAssertGreaterThanOrEqual(checked.values.reduce(0, +), 20, "blocks checked: \(checked)")
    let derivation = try checkBlocks(in: "docs/offload.md")
    XCTAssertGreaterThanOrEqual(derivation.values.reduce(0, +), 4, "blocks checked: \(derivation)")
  }

  /// Checks each marked block of the page at `page`; returns how many there were of each file.
  private func checkBlocks(in page: String) throws -> [String: Int] {
    let lines = try text(page).components(separatedBy: "\n")
    var checked: [String: Int] = [:]
    var index = 0
    while index < lines.count {
      let line = lines[index].trimmingCharacters(in: .whitespaces)
      index += 1
      guard line.hasPrefix("<!-- same as "), line.hasSuffix(" -->") else { continue }
      let path = String(line.dropFirst("<!-- same as ".count).dropLast(" -->".count))
      guard index < lines.count, lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("```")
      else {
        XCTFail("\(page):\(index): no code block follows the mark for \(path)")
        continue
      }
      let start = index + 1
      var end = start
      while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("```") {
        end += 1
      }
      index = end + 1
      let block = significant(lines[start..<end])
      let file = significant(try text(path).components(separatedBy: "\n")[...])
      XCTAssertFalse(block.isEmpty, "\(page):\(start): an empty block for \(path)")
      let found = (0...max(0, file.count - block.count)).contains {
        file.count >= block.count && Array(file[$0..<$0 + block.count]) == block
      }
      XCTAssert(found, "\(page):\(start): this block is not in \(path) as shown:\n\(block)")
      checked[path, default: 0] += 1
    }
    return checked
  }

  /// The tutorial's table of the example's files gives their lengths as they are.
  func testTheTutorialsTableGivesTheExamplesLengths() throws {
    let rows = try text(tutorial).components(separatedBy: "\n").filter { $0.hasPrefix("| `") }
    var seen = 0
    for row in rows {
      let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 2, let stated = Int(cells[1]) else { continue }
      let name = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
      let lines = try text("Examples/learn/" + name).components(separatedBy: "\n").count - 1
      XCTAssertEqual(stated, lines, "the tutorial's table: \(name) has \(lines) lines")
      seen += 1
    }
    XCTAssertEqual(seen, 4, "the table lists the two shaders, the C program and the page")
  }

  /// The pages a user reads, the manual page and every command's `--help` name no test, no
  /// test file and no test method.
  func testTheUsersPagesAndHelpNameNoTests() throws {
    var pages = [
      "README.md", "docs/usage.md", "docs/configuration.md", "docs/presets.md",
      "docs/export.md", "docs/editors.md", "docs/confetti.1.mdoc", tutorial,
    ]
    pages += try FileManager.default.contentsOfDirectory(
      atPath: repository.appendingPathComponent("docs/hosts").path
    ).filter { $0.hasSuffix(".md") }.map { "docs/hosts/" + $0 }
    var texts = try pages.map { ($0, try text($0)) }
    for command in [
      [], ["window"], ["overlay"], ["run"], ["render"], ["bench"], ["presets"], ["schema"],
      ["shaders"], ["shell-hook"],
    ] {
      let help = try confetti(command + ["--help"])
      XCTAssertEqual(help.status, 0, "\(command) --help: \(help.stderr)")
      texts.append(((["confetti"] + command + ["--help"]).joined(separator: " "), help.stdout))
    }
    let test = try NSRegularExpression(
      pattern: #"\b[A-Z][A-Za-z]*Tests\b|\btest[A-Z][A-Za-z]+|Tests/"#)
    for (name, text) in texts {
      for (number, line) in text.components(separatedBy: "\n").enumerated() {
        let range = NSRange(line.startIndex..., in: line)
        XCTAssertNil(test.firstMatch(in: line, range: range), "\(name):\(number + 1): \(line)")
      }
    }
  }

  /// docs/layout.md names every folder of Sources/, Tests/, Examples/ and Plugins/, and every
  /// file of .ci/: a target or a script added without a line there fails here.
  func testTheLayoutNamesEveryTargetAndScript() throws {
    let layout = try text("docs/layout.md")
    let files = FileManager.default
    for folder in ["Sources", "Tests", "Examples", "Plugins"] {
      for entry in try files.contentsOfDirectory(
        atPath: repository.appendingPathComponent(folder).path)
      where !entry.hasPrefix(".") {
        let named =
          layout.contains("`\(folder)/\(entry)`") || layout.contains("`\(entry)`")
          || layout.contains("`\(entry)/`")
        XCTAssert(named, "docs/layout.md does not name \(folder)/\(entry)")
      }
    }
    for script in try files.contentsOfDirectory(
      atPath: repository.appendingPathComponent(".ci").path)
    {
      XCTAssert(layout.contains("`\(script)`"), "docs/layout.md does not name .ci/\(script)")
    }
  }

  /// docs/layout.md's table of targets is what Package.swift's comments say, target by target
  /// (`.ci/layout` writes it from them): a target added, renamed or described anew without the
  /// page written again fails here, as does a target without a comment of its own.
  func testTheLayoutsTableOfTargetsIsWhatPackageSwiftSays() throws {
    let check = try runProgram(
      URL(fileURLWithPath: "/usr/bin/python3"),
      [repository.appendingPathComponent(".ci/layout").path, "--check"])
    XCTAssertEqual(check.status, 0, check.stderr)
    let layout = try text("docs/layout.md")
    XCTAssert(layout.contains("| `ConfettiGL` | `Sources/ConfettiGL` |"), "the table is there")
  }

  /// Every file the README and the docs link to by a relative path (a picture, an example, a
  /// page) is in the repository, tracked by git: one that .gitignore leaves out shows on its
  /// author's machine and is a broken picture everywhere else.
  func testEveryFileTheDocsLinkToIsInTheRepository() throws {
    let listed = try runProgram(
      URL(fileURLWithPath: "/usr/bin/git"), ["-C", repository.path, "ls-files"])
    XCTAssertEqual(listed.status, 0, listed.stderr)
    let tracked = Set(listed.stdout.split(separator: "\n").map(String.init))
    let pages = tracked.filter {
      $0.hasSuffix(".md") && ($0 == "README.md" || $0.hasPrefix("docs/"))
    }
    XCTAssertGreaterThan(pages.count, 10)
    var checked = 0
    for page in pages.sorted() {
      let folder = page.split(separator: "/").dropLast().map(String.init)
      for match in try text(page).matches(of: /\]\(([^)#\s]+)(#[^)]*)?\)/) {
        let target = String(match.1)
        guard !target.contains(":") else { continue }  // https://, mailto:
        var parts = folder
        for part in target.split(separator: "/") {
          if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(String(part)) }
        }
        let path = parts.joined(separator: "/")
        XCTAssert(
          tracked.contains(path) || tracked.contains { $0.hasPrefix(path + "/") },
          "\(page) links to \(target), which is not in the repository (ignored by .gitignore?)")
        checked += 1
      }
    }
    XCTAssertGreaterThan(checked, 50)
  }

  private func text(_ path: String) throws -> String {
    try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
  }

  /// The lines that carry code: without indentation, blank lines left out.
  private func significant(_ lines: ArraySlice<String>) -> [String] {
    lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }
}
