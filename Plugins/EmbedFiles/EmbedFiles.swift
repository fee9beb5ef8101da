import Foundation
import PackagePlugin

/// Embeds text files from a top-level folder of the package into the target it is applied to, as
/// one generated Swift file, so the program never looks for them at run time:
/// `Shaders/*.vert|frag|glsl` into ConfettiGL, `Presets/*.json` into ConfettiPresets.
@main
struct EmbedFiles: BuildToolPlugin {
  /// Per target: the folder, the file extensions, and the name of the generated dictionary.
  static let sources: [String: (folder: String, extensions: [String], variable: String)] = [
    "ConfettiGL": ("Shaders", ["vert", "frag", "glsl"], "embeddedShaderSources"),
    "ConfettiPresets": ("Presets", ["json"], "embeddedPresetSources"),
  ]

  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let source = Self.sources[target.name] else {
      throw PluginError("EmbedFiles does not know what to embed into \(target.name)")
    }
    let directory = context.package.directoryURL.appending(path: source.folder)
    let files = try FileManager.default
      .contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
      .filter { source.extensions.contains($0.pathExtension) }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let output = context.pluginWorkDirectoryURL.appending(path: "Embedded\(source.folder).swift")
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) files of \(source.folder)/ into \(target.name)",
        executable: try context.tool(named: "EmbedFilesTool").url,
        arguments: [output.path, source.variable, source.folder] + files.map(\.path),
        inputFiles: files,
        outputFiles: [output]
      )
    ]
  }
}

struct PluginError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
