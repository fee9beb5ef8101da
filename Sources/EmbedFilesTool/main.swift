import Foundation

// Usage: EmbedFilesTool OUTPUT.swift VARIABLE FOLDER FILE...
// Writes a Swift file declaring VARIABLE: each file's text, keyed by its file name.

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3 else {
  FileHandle.standardError.write(
    Data("usage: EmbedFilesTool OUTPUT.swift VARIABLE FOLDER FILE...\n".utf8))
  exit(2)
}
let (outputPath, variable, folder) = (arguments[0], arguments[1], arguments[2])

var generated = """
  // Generated at build time by EmbedFilesTool from the package's \(folder)/ folder. Do not edit.

  /// The text of every file in `\(folder)/`, keyed by file name.
  let \(variable): [String: String] = [

  """
for path in arguments.dropFirst(3) {
  let url = URL(fileURLWithPath: path)
  let text = try String(contentsOf: url, encoding: .utf8)
  // A raw string whose delimiter cannot occur in the file's text.
  var hashes = "#"
  while text.contains("\"\"\"" + hashes) || text.contains("\"" + hashes) { hashes += "#" }
  generated += "  \"\(url.lastPathComponent)\": \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes),\n"
}
generated += "]\n"

let output = URL(fileURLWithPath: outputPath)
if (try? String(contentsOf: output, encoding: .utf8)) != generated {
  try generated.write(to: output, atomically: true, encoding: .utf8)
}
