import ArgumentParser
import ConfettiCore
import ConfettiGL
import ConfettiImage
import ConfettiPresets
import Foundation

/// The options that choose an effect, shared by the window, `--bench` and `render`.
struct EffectOptions: ParsableArguments {
  @Option(help: ArgumentHelp("A named effect (see --list-presets).", valueName: "name"))
  var preset: String?

  @Option(
    help: ArgumentHelp(
      "A JSON effect file, such as a copy of one in the repository's Presets/ folder.",
      valueName: "file"))
  var config: String?

  @Flag(
    help: "Replace movement with a short, gentle fade in place (also: CONFETTI_REDUCE_MOTION=1).")
  var reduceMotion = false

  /// The environment variable that asks for reduced motion, as the flag does.
  static let reduceMotionVariable = "CONFETTI_REDUCE_MOTION"

  func validate() throws {
    if preset != nil, config != nil {
      throw ValidationError("give --preset or --config, not both")
    }
    if let preset, !Presets.names.contains(preset) {
      throw ValidationError(
        "no preset named \"\(preset)\"; the presets are \(Presets.names.joined(separator: ", "))")
    }
  }

  /// Whether reduced motion was asked for, by the flag or the environment.
  var wantsReducedMotion: Bool {
    if reduceMotion { return true }
    let value = ProcessInfo.processInfo.environment[Self.reduceMotionVariable] ?? ""
    return !["", "0", "false", "no"].contains(value.lowercased())
  }

  /// The chosen effect (`fallback` when none was named) and where its image paths are relative
  /// to.
  func load(fallback: String) throws -> LoadedEffect {
    guard let config else {
      return LoadedEffect(config: try Presets.named(preset ?? fallback), directory: nil)
    }
    return try LoadedEffect(file: config)
  }
}

/// An effect and the folder its image paths are relative to (nil: a preset, which has none).
struct LoadedEffect {
  var config: EffectConfig
  var directory: URL?

  init(config: EffectConfig, directory: URL?) {
    (self.config, self.directory) = (config, directory)
  }

  /// Reads and decodes a configuration file; every failure names the file.
  init(file path: String) throws {
    let url = URL(fileURLWithPath: path)
    let text: String
    do {
      text = try String(contentsOf: url, encoding: .utf8)
    } catch {
      throw ConfigFileError("cannot read the configuration \(path): \(Self.reason(error))")
    }
    do {
      config = try EffectConfig.decode(text)
    } catch {
      throw ConfigFileError("\(path): \(error)")
    }
    directory = url.deletingLastPathComponent()
  }

  /// A scene of the effect, its rings holding `capacity` records.
  func scene(capacity: Int, seed: UInt64, reduceMotion: Bool) throws -> EffectScene {
    try EffectScene(config: config, capacity: capacity, seed: seed, reduceMotion: reduceMotion)
  }

  /// Gives `renderer` what `scene`'s particles index: its emitter table, and its shape table
  /// with the images (decoded here unless already given).
  func prepare(
    _ renderer: ParticleRenderer, for scene: EffectScene, images: [RGBAImage]? = nil
  ) throws {
    renderer.setEmitterTable(scene.table)
    try renderer.setShapeTable(scene.shapes, images: try images ?? self.images(for: scene.shapes))
  }

  /// Decodes every image the scene's shapes name, in order.
  func images(for shapes: ShapeTable) throws -> [RGBAImage] {
    try shapes.images.map { path in
      guard let directory else {
        throw ConfigFileError("a preset cannot use image files (\(path)); use --config")
      }
      let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appending(path: path)
      do {
        return try PNG.read(url)
      } catch {
        throw ConfigFileError("cannot use the image \(url.path): \(error)")
      }
    }
  }

  private static func reason(_ error: Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      let posix = POSIXErrorCode(rawValue: Int32(underlying.code))
    {
      return String(cString: strerror(posix.rawValue))
    }
    return nsError.localizedDescription
  }
}

/// A configuration that cannot be used, said in one line.
struct ConfigFileError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
