import Foundation

// Usage: BuildCommitTool OUTPUT.swift GIT-DIRECTORY COMMON-DIRECTORY
// Writes a Swift file declaring `buildCommit`: the commit HEAD names, or "unknown". Run by the
// BuildCommit plugin.

/// Writes `text` to `path` unless it already says that, so that nothing rebuilds for nothing.
func write(_ text: String, to path: String) throws {
  let output = URL(fileURLWithPath: path)
  if (try? String(contentsOf: output, encoding: .utf8)) != text {
    try text.write(to: output, atomically: true, encoding: .utf8)
  }
}

/// The commit HEAD in `gitDirectory` names: its own hash, its branch's loose ref, or the branch's
/// line in packed-refs, both in `common` (the repository's common folder, which the plugin
/// found: a worktree keeps its branches there).
func headCommit(in gitDirectory: URL, common: URL) -> String? {
  func read(_ path: String, in folder: URL) -> String? {
    (try? String(contentsOf: folder.appending(path: path), encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }
  guard let head = read("HEAD", in: gitDirectory) else { return nil }
  guard head.hasPrefix("ref: ") else { return head }
  let ref = String(head.dropFirst("ref: ".count))
  if let loose = read(ref, in: common) { return loose }
  let packed = read("packed-refs", in: common)?.split(separator: "\n") ?? []
  return packed.first { $0.hasSuffix(" " + ref) }.map { String($0.prefix { $0 != " " }) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3 else {
  FileHandle.standardError.write(
    Data("usage: BuildCommitTool OUTPUT.swift GIT-DIRECTORY COMMON-DIRECTORY\n".utf8))
  exit(2)
}
let commit =
  headCommit(in: URL(fileURLWithPath: arguments[1]), common: URL(fileURLWithPath: arguments[2]))
  ?? "unknown"
let isHash = commit.count == 40 && commit.allSatisfy(\.isHexDigit)
try write(
  """
  // Generated at build time by BuildCommitTool from the checkout's HEAD. Do not edit.

  /// The commit this program was built from, "unknown" when it was not built from a checkout.
  let buildCommit = "\(isHash ? commit : "unknown")"

  """, to: arguments[0])
