import Foundation
import PackagePlugin

/// Embeds every shader in the package's top-level `Shaders/` folder into the target it is applied
/// to, as one generated Swift file, so the program never looks for shader files at run time.
@main
struct EmbedShaders: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let shaderDirectory = context.package.directoryURL.appending(path: "Shaders")
    let shaders = try FileManager.default
      .contentsOfDirectory(at: shaderDirectory, includingPropertiesForKeys: nil)
      .filter { ["vert", "frag", "glsl"].contains($0.pathExtension) }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedShaders.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(shaders.count) shaders into \(target.name)",
        executable: try context.tool(named: "EmbedShadersTool").url,
        arguments: [output.path] + shaders.map(\.path),
        inputFiles: shaders,
        outputFiles: [output]
      )
    ]
  }
}
