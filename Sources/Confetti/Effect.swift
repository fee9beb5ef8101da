import ConfettiConfig
import ConfettiCore
import ConfettiGL
import ConfettiImage
import ConfettiPresets
import ConfettiText
import FoundationEssentials
import Glibc

/// An effect to run: its configuration, and the folder its image files are found in.
///
/// Make one from a preset (``preset(_:)``), a configuration file (``init(path:)``) or
/// a value built in code (``init(_:imageFolder:)``).
public struct Effect: Sendable {
  /// What the effect emits, and how it moves.
  public var config: EffectConfig
  /// Where relative image paths in ``config`` are found; nil for presets, which use no images.
  public var imageFolder: URL?

  /// An effect from a configuration value; its images, if any, are read relative to
  /// `imageFolder` (absolute paths are read as they are).
  public init(_ config: EffectConfig, imageFolder: URL? = nil) {
    (self.config, self.imageFolder) = (config, imageFolder)
  }

  /// One of the presets (``Presets/names``: "confetti", "cannon", "snow", …).
  public static func preset(_ name: String) throws -> Effect {
    Effect(try Presets.named(name))
  }

  /// Decodes a configuration from JSON text (the format of the repository's `Presets/*.json`;
  /// `confetti presets show snow` prints one), strictly: every key known, every value in its
  /// range. Its images, if it names any by path, are found in `imageFolder`.
  public init(json: String, imageFolder: URL? = nil) throws {
    // Measured before it is parsed, as a file is: text past any effect is refused at once.
    let bytes = json.utf8.count
    guard bytes <= Self.largestFile else {
      throw EffectError(
        "the effect's JSON is over 1 MiB (\(bytes) bytes), the most an effect may be "
          + "(\(Self.largestFile) bytes)")
    }
    do {
      config = try EffectConfig.decode(json)
    } catch {
      throw EffectError("the effect's JSON: \(error)")
    }
    self.imageFolder = imageFolder
  }

  /// Reads and decodes a configuration file (the format of the repository's `Presets/*.json`);
  /// its images are read relative to the file's folder. Every failure names the file.
  public init(path: String) throws {
    guard !path.isEmpty else { throw EffectError("no configuration file name given") }
    let url = URL(fileURLWithPath: path)
    // Only a regular file of sensible size is read: not a folder, a device (/dev/zero), a FIFO
    // that may never end, or a file larger than any effect.
    var status = stat()
    if stat(path, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFREG else {
        throw EffectError(
          "cannot read the configuration \(path): it is \(nonRegularFileKind(status.st_mode)), "
            + "not a file")
      }
      guard status.st_size <= Self.largestFile else {
        throw Self.tooLarge(path, size: status.st_size)
      }
    }
    let text = try Self.readText(path)
    do {
      config = try EffectConfig.decode(text)
    } catch {
      throw EffectError("\(path): \(error)")
    }
    imageFolder = url.deletingLastPathComponent()
  }

  /// The largest configuration file read, in bytes.
  public static let largestFile = 1_048_576

  /// Decodes every image `shapes` names, in order, refusing any larger than the atlas takes
  /// before decoding it, and draws every text from the system's fonts.
  package func images(for shapes: ShapeTable) throws -> [RGBAImage] {
    try shapes.images.map { source in
      let path: String
      switch source {
      case .file(let file): path = file
      case .text(let text):
        do {
          return try TextImage.render(text)
        } catch {
          // Quoted with its control characters escaped, so the message stays one line.
          throw EffectError("cannot draw the text shape \(text.debugDescription): \(error)")
        }
      }
      let url = try imageURL(path)
      do {
        return try PNG.read(url, largest: ParticleRenderer.largestImage)
      } catch {
        throw EffectError("cannot use the image \(url.path): \(error)")
      }
    }
  }

  /// Where the picture file `path` of a shape is read: as it is when it is absolute, else in
  /// ``imageFolder``; throws when it is relative and the effect has no folder (JSON text).
  package func imageURL(_ path: String) throws -> URL {
    if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
    guard let imageFolder else {
      throw EffectError(
        "the image \(path) is named relative to no folder: load the effect from a file (its "
          + "images are found beside it), give it an image folder, or name the image in full")
    }
    return imageFolder.appending(path: path)
  }

  /// The picture paths the effect's shapes name, as written.
  private var imagePaths: [String] {
    let cells = config.emitters.flatMap(\.cells) + config.subCells
    return cells.flatMap(\.shapes).compactMap { shape in
      guard case .image(let path) = shape else { return nil }
      return path
    }
  }

  /// Throws, as drawing would, when a picture is named relative to no folder: a check that
  /// reads no file.
  package func checkImagesCanBeFound() throws {
    for path in imagePaths { _ = try imageURL(path) }
  }

  /// The picture files the effect's shapes name, as found (relative ones in ``imageFolder``):
  /// files a command that writes must not write over.
  package var imageFiles: [String] {
    imagePaths.compactMap { try? imageURL($0).path }
  }

  /// The configuration file at `path`, as UTF-8 text: every failure is the system's own reason
  /// (a symbolic link loop, a permission) or "it is not UTF-8 text", never Foundation's.

  private static func readText(_ path: String) throws -> String {
    func failure(_ reason: String) -> EffectError {
      EffectError("cannot read the configuration \(path): \(reason)")
    }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      if count == 0 { break }
      guard count > 0 else {
        if errno == EINTR { continue }
        throw failure(String(cString: strerror(errno)))
      }
      bytes += buffer[..<count]
      // A file that grew since it was looked at is refused as it reads.
      guard bytes.count <= largestFile else { throw tooLarge(path, size: nil) }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw failure("it is not UTF-8 text")
    }
    return text
  }

  /// The refusal of a file over ``largestFile`` bytes: `size` of them, where known.
  private static func tooLarge(_ path: String, size: off_t?) -> EffectError {
    let bytes = size.map { " (\($0) bytes)" } ?? ""
    return EffectError(
      "cannot read the configuration \(path): it is over 1 MiB\(bytes), the most an effect "
        + "file may be (\(largestFile) bytes)")
  }
}

/// An effect that cannot be used, said in one line.
public struct EffectError: Error, CustomStringConvertible {
  /// The message: what is wrong, and what to do.
  public var description: String
  /// An error saying `description`.
  public init(_ description: String) { self.description = description }
}

extension Effect {
  /// The vertex and fragment shaders exactly as a system links them for this effect (or, with
  /// `allFeatures`, for any effect), each whole and ready to compile on its own; with
  /// `primitive` `.auto`, for the primitive and points this machine's GL would get (a headless
  /// context is made to ask it). `features` names the #defines compiled in.
  package func shaderSources(allFeatures: Bool, primitive: SpritePrimitive) throws -> (
    vertex: String, fragment: String, primitive: SpritePrimitive, wholePixelPoints: Bool,
    features: [String]
  ) {
    let features =
      allFeatures
      ? ShaderFeatures.all
      : try EffectScene(config: config.validated(), capacity: 1, seed: 1).expectedFeatures
    var primitive = primitive
    var wholePixelPoints = false
    if primitive == .auto {
      let context = try DriverMessages.silenced { try HeadlessContext() }
      primitive = withExtendedLifetime(context) { primitive.resolved(for: context.info) }
      wholePixelPoints = context.info.drawsWholePixelPoints && primitive != .quads
    }
    let sources = ParticleRenderer.shaderSources(
      features: features, primitive: primitive, wholePixelPoints: wholePixelPoints)
    let named = SpriteProgram.defines.filter { features.contains($0.feature) }.map(\.define)
    return (sources.vertex, sources.fragment, primitive, wholePixelPoints, named)
  }
}

extension Effect {
  /// ``init(path:)``, by its name before 0.6.
  @available(*, deprecated, renamed: "init(path:)")
  public init(contentsOfFile path: String) throws { try self.init(path: path) }
}
