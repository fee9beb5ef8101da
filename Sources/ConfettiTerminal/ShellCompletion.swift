import FoundationEssentials

/// What the shells' completion offers where the program's own options end: `confetti run -- …`'s
/// command, as a shell completes a command line.
package enum ShellCompletion {
  /// What the shells' completion offers for the word at `index` of `words` (typed up to
  /// `prefix`): after `--`, the programs on PATH, as a shell offers a command; then the files
  /// and folders the command's own arguments may name.
  package static func commandLine(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    let manager = FileManager.default
    guard let separator = words.firstIndex(of: "--"), index == separator + 1 else {
      // A path typed so far: its folder's entries that begin with the rest.
      let slash = prefix.lastIndex(of: "/")
      let folder = slash.map { String(prefix[...$0]) } ?? ""
      let start = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
      let entries = (try? manager.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
      return entries.filter { $0.hasPrefix(start) && (!$0.hasPrefix(".") || start.hasPrefix(".")) }
        .sorted().map { folder + $0 }
    }
    if prefix.contains("/") { return [] }
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    var programs = Set<String>()
    for folder in folders {
      for name in (try? manager.contentsOfDirectory(atPath: String(folder))) ?? []
      where name.hasPrefix(prefix) && manager.isExecutableFile(atPath: "\(folder)/\(name)") {
        programs.insert(name)
      }
    }
    return programs.sorted()
  }
}
