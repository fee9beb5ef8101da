import Foundation

// Usage: EmbedShadersTool OUTPUT.swift SHADER...
// Writes a Swift file holding each shader's text, keyed by its file name.

let arguments = CommandLine.arguments.dropFirst()
guard let outputPath = arguments.first else {
  FileHandle.standardError.write(Data("usage: EmbedShadersTool OUTPUT.swift SHADER...\n".utf8))
  exit(2)
}

var generated = """
  // Generated at build time by EmbedShadersTool from the package's Shaders/ folder. Do not edit.

  /// The text of every shader in `Shaders/`, keyed by file name.
  let embeddedShaderSources: [String: String] = [

  """
for path in arguments.dropFirst() {
  let url = URL(fileURLWithPath: path)
  let text = try String(contentsOf: url, encoding: .utf8)
  // A raw string whose delimiter cannot occur in the shader text.
  var hashes = "#"
  while text.contains("\"\"\"" + hashes) || text.contains("\"" + hashes) { hashes += "#" }
  generated += "  \"\(url.lastPathComponent)\": \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes),\n"
}
generated += "]\n"

let output = URL(fileURLWithPath: outputPath)
if (try? String(contentsOf: output, encoding: .utf8)) != generated {
  try generated.write(to: output, atomically: true, encoding: .utf8)
}
