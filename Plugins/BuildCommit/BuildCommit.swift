import Foundation
import PackagePlugin

/// Writes the commit the package was built from into the target it is applied to (the program),
/// as one generated Swift file declaring `buildCommit`, for `confetti version --verbose`. The
/// shaders and presets need no plugin: SwiftPM embeds them (`.embedInCode` in Package.swift).
@main
struct BuildCommit: BuildToolPlugin {
  /// A command that writes `let buildCommit` from the git checkout the package is in ("unknown"
  /// outside one), run again whenever HEAD or the branch it names moves.
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
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
    return [
      .buildCommand(
        displayName: "Writing the commit into \(target.name)",
        executable: try context.tool(named: "BuildCommitTool").url,
        arguments: [output.path, gitDirectory.path, common.path],
        inputFiles: inputs,
        outputFiles: [output]
      )
    ]
  }
}
