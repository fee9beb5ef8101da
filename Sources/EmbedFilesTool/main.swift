import Foundation

// Usage: EmbedFilesTool OUTPUT.swift VARIABLE FOLDER EXTENSION,... [PLANNED...]
// Writes a Swift file declaring VARIABLE: the text of each file in FOLDER whose name ends in
// one of the extensions, keyed by its file name. PLANNED: the files SwiftPM's plan lists as the
// command's inputs, to say when the folder holds others.
//        EmbedFilesTool --commit OUTPUT.swift GIT-DIRECTORY COMMON-DIRECTORY
// Writes a Swift file declaring `buildCommit`: the commit HEAD names, or "unknown".

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
if arguments.first == "--commit", arguments.count == 4 {
  let commit =
    headCommit(
      in: URL(fileURLWithPath: arguments[2]), common: URL(fileURLWithPath: arguments[3]))
    ?? "unknown"
  let isHash = commit.count == 40 && commit.allSatisfy(\.isHexDigit)
  try write(
    """
    // Generated at build time by EmbedFilesTool from the checkout's HEAD. Do not edit.

    /// The commit this program was built from, "unknown" when it was not built from a checkout.
    let buildCommit = "\(isHash ? commit : "unknown")"

    """, to: arguments[1])
  exit(0)
}
guard arguments.count >= 4 else {
  FileHandle.standardError.write(
    Data("usage: EmbedFilesTool OUTPUT.swift VARIABLE FOLDER EXTENSION,... [PLANNED...]\n".utf8))
  exit(2)
}
let (outputPath, variable, directory) = (
  arguments[0], arguments[1], URL(fileURLWithPath: arguments[2])
)
let extensions = Set(arguments[3].split(separator: ",").map(String.init))
let folder = directory.lastPathComponent
// What the folder holds now: the plan's list of files dates from when SwiftPM last planned.
let files = try FileManager.default
  .contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
  .filter { extensions.contains($0.pathExtension) }
  .sorted { $0.lastPathComponent < $1.lastPathComponent }
let unplanned = Set(files.map(\.lastPathComponent)).subtracting(arguments.dropFirst(4))
if !unplanned.isEmpty {
  print(
    "warning: \(folder)/\(unplanned.sorted().joined(separator: ", ")) embedded, but SwiftPM "
      + "sees later edits to it only once it plans the build again: touch Package.swift")
}

var generated = """
  // Generated at build time by EmbedFilesTool from the package's \(folder)/ folder. Do not edit.

  /// The text of every file in `\(folder)/`, keyed by file name.
  let \(variable): [String: String] = [

  """
for url in files {
  let text = try String(contentsOf: url, encoding: .utf8)
  // A raw string whose delimiter cannot occur in the file's text.
  var hashes = "#"
  while text.contains("\"\"\"" + hashes) || text.contains("\"" + hashes) { hashes += "#" }
  generated += "  \"\(url.lastPathComponent)\": \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes),\n"
}
generated += "]\n"

try write(generated, to: outputPath)
