import ConfettiText
import Foundation

/// An effect to run: its configuration, and the folder its image files are found in.
///
/// Make one from a preset (``preset(_:)``), a configuration file (``init(contentsOfFile:)``) or
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

  /// Reads and decodes a configuration file (the format of the repository's `Presets/*.json`);
  /// its images are read relative to the file's folder. Every failure names the file.
  public init(contentsOfFile path: String) throws {
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
        throw EffectError(
          "cannot read the configuration \(path): it is \(status.st_size / 1024) KiB; an effect "
            + "is at most \(Self.largestFile / 1024) KiB")
      }
    }
    let text: String
    do {
      text = try String(contentsOf: url, encoding: .utf8)
    } catch {
      throw EffectError("cannot read the configuration \(path): \(Self.reason(error))")
    }
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
  public func images(for shapes: ShapeTable) throws -> [RGBAImage] {
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
      let url: URL
      if path.hasPrefix("/") {
        url = URL(fileURLWithPath: path)
      } else if let imageFolder {
        url = imageFolder.appending(path: path)
      } else {
        throw EffectError(
          "the image \(path) has no folder to be found in: give the effect an image folder, "
            + "or load it from a file")
      }
      do {
        return try PNG.read(url, largest: ParticleRenderer.largestImage)
      } catch {
        throw EffectError("cannot use the image \(url.path): \(error)")
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
    if nsError.domain == NSCocoaErrorDomain {
      switch CocoaError.Code(rawValue: nsError.code) {
      case .fileReadInapplicableStringEncoding: return "it is not UTF-8 text"
      case .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
      case .fileReadNoPermission: return String(cString: strerror(EACCES))
      default: break
      }
    }
    return nsError.localizedDescription
  }
}

/// An effect that cannot be used, said in one line.
public struct EffectError: Error, CustomStringConvertible {
  /// The message: what is wrong, and what to do.
  public var description: String
  /// An error saying `description`.
  public init(_ description: String) { self.description = description }
}
