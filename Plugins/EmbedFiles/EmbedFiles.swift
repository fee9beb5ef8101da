import Foundation
import PackagePlugin

/// Embeds text files from a top-level folder of the package into the target it is applied to, as
/// one generated Swift file, so the program never looks for them at run time:
/// `Shaders/*.vert|frag|glsl` into ConfettiGL, `Presets/*.json` into ConfettiPresets; and the
/// commit the package was built from into ConfettiCLI, for `confetti version --verbose`.
@main
struct EmbedFiles: BuildToolPlugin {
  /// Per target: the folder, the file extensions, and the name of the generated dictionary.
  static let sources: [String: (folder: String, extensions: [String], variable: String)] = [
    "ConfettiGL": ("Shaders", ["vert", "frag", "glsl"], "embeddedShaderSources"),
    "ConfettiPresets": ("Presets", ["json"], "embeddedPresetSources"),
  ]

  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    if target.name == "ConfettiCLI" { return [try commitCommand(context: context)] }
    guard let source = Self.sources[target.name] else {
      throw PluginError("EmbedFiles does not know what to embed into \(target.name)")
    }
    let directory = context.package.directoryURL.appending(path: source.folder)
    let files = try FileManager.default
      .contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
      .filter { source.extensions.contains($0.pathExtension) }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let output = context.pluginWorkDirectoryURL.appending(path: "Embedded\(source.folder).swift")
    // SwiftPM plans this command again only when the package changes, not when a file is added
    // to or taken from the folder. So the folder itself is an input too (its modification time
    // moves when its list of files does), and the tool embeds what the folder holds when it
    // runs, not the files listed here, which only make an edit to one of them run it again.
    return [
      .buildCommand(
        displayName: "Embedding the files of the \(source.folder) folder into \(target.name)",
        executable: try context.tool(named: "EmbedFilesTool").url,
        arguments: [
          output.path, source.variable, directory.path, source.extensions.joined(separator: ","),
        ] + files.map(\.lastPathComponent),
        inputFiles: [directory] + files,
        outputFiles: [output]
      )
    ]
  }
}

extension EmbedFiles {
  /// Writes `let buildCommit` from the git checkout the package is in ("unknown" outside one),
  /// again whenever HEAD or the branch it names moves.
  func commitCommand(context: PluginContext) throws -> Command {
    let package = context.package.directoryURL
    var gitDirectory = package.appending(path: ".git")
    // A worktree's .git is a file naming its folder.
    if let link = try? String(contentsOf: gitDirectory, encoding: .utf8),
      link.hasPrefix("gitdir: ")
    {
      let path = link.dropFirst("gitdir: ".count).trimmingCharacters(in: .whitespacesAndNewlines)
      gitDirectory = URL(fileURLWithPath: path, relativeTo: package)
    }
    // A worktree's branches and packed refs are in the repository's common folder.
    var common = gitDirectory
    if let path = try? String(
      contentsOf: gitDirectory.appending(path: "commondir"), encoding: .utf8)
    {
      let trimmed = path.trimmingCharacters(in: .whitespacesAndNewlines)
      common = URL(fileURLWithPath: trimmed, relativeTo: gitDirectory.appending(path: "/"))
    }
    var inputs = [gitDirectory.appending(path: "HEAD")]
    if let head = try? String(contentsOf: inputs[0], encoding: .utf8), head.hasPrefix("ref: ") {
      let ref = head.dropFirst("ref: ".count).trimmingCharacters(in: .whitespacesAndNewlines)
      inputs.append(common.appending(path: ref))
    }
    inputs.append(common.appending(path: "packed-refs"))
    inputs = inputs.filter { FileManager.default.fileExists(atPath: $0.path) }
    let output = context.pluginWorkDirectoryURL.appending(path: "BuildCommit.swift")
    return .buildCommand(
      displayName: "Embedding the commit into ConfettiCLI",
      executable: try context.tool(named: "EmbedFilesTool").url,
      arguments: ["--commit", output.path, gitDirectory.path, common.path],
      inputFiles: inputs,
      outputFiles: [output]
    )
  }
}

struct PluginError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
