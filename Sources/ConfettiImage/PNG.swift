import CPNG
import FoundationEssentials
import Glibc

/// What went wrong reading or writing a PNG file, said in one line.
public struct PNGError: Error, CustomStringConvertible {
  public var description: String
}

/// PNG files through libpng's simplified API.
public enum PNG {
  // png.h's PNG_FORMAT_RGBA: (PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA), a macro Swift
  // does not import.
  private static let rgbaFormat = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

  /// The zlib level pictures are written at: with the Up filter and zlib's run-length strategy,
  /// 4 to 7 times as fast as libpng's defaults (level 6, every filter tried) on confetti's
  /// frames, at about the same size (measured in docs/export.md). Still lossless.
  public static let compressionLevel: Int32 = 1

  /// The PNG encoding of `image`.
  public static func encode(_ image: RGBAImage) throws -> Data {
    guard image.width > 0, image.height > 0, image.width <= 1 << 20, image.height <= 1 << 20
    else {
      throw PNGError(description: "cannot encode a \(image.width)×\(image.height) PNG")
    }
    var output = confetti_png_output()
    let status = image.bytes.withUnsafeBufferPointer {
      confetti_png_encode(
        $0.baseAddress, UInt32(image.width), UInt32(image.height), image.width * 4,
        compressionLevel, &output)
    }
    guard status == 0, let bytes = output.bytes else {
      let reason = withUnsafeBytes(of: output.message) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      throw PNGError(description: "cannot encode PNG: \(reason)")
    }
    return Data(bytesNoCopy: bytes, count: output.count, deallocator: .free)
  }

  /// Writes `image` to `url` as a PNG file, safely: never a damaged file under the final name,
  /// never over anything but a regular file.
  public static func write(_ image: RGBAImage, to url: URL) throws(PNGError) {
    do {
      try OutputFile.write(try encode(image), to: url.path)
    } catch let error as PNGError {
      throw error
    } catch {
      throw PNGError(description: "\(error)")
    }
  }

  /// Reads a PNG file as 8-bit RGBA. With `largest`, a picture wider or taller than that many
  /// pixels is refused from its header, before any pixel memory is allocated.
  public static func read(_ url: URL, largest: Int? = nil) throws -> RGBAImage {
    let file = try openRegularFile(url.path)
    defer { fclose(file) }
    var png = png_image()
    png.version = UInt32(PNG_IMAGE_VERSION)
    guard png_image_begin_read_from_stdio(&png, file) != 0 else {
      throw PNGError(description: "cannot read \(url.path): \(message(of: &png))")
    }
    if let largest, png.width > largest || png.height > largest {
      png_image_free(&png)
      throw PNGError(
        description:
          "\(url.path) is \(png.width)x\(png.height) pixels; at most \(largest)x\(largest) are "
          + "allowed: scale it down")
    }
    png.format = rgbaFormat
    var bytes = [UInt8](repeating: 0, count: Int(png.width) * Int(png.height) * 4)
    guard png_image_finish_read(&png, nil, &bytes, 0, nil) != 0 else {
      png_image_free(&png)
      throw PNGError(description: "cannot decode \(url.path): \(message(of: &png))")
    }
    return RGBAImage(width: Int(png.width), height: Int(png.height), bytes: bytes)
  }

  /// Opens `path` for reading if it is a regular file. Opened without blocking, then checked: a
  /// FIFO would otherwise wait for a writer for ever, and a device never end.
  private static func openRegularFile(_ path: String) throws -> UnsafeMutablePointer<FILE> {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw PNGError(description: "cannot read \(path): \(String(cString: strerror(errno)))")
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      throw PNGError(
        description: "cannot read \(path): it is \(nonRegularFileKind(status.st_mode)), not a file")
    }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    guard let file = fdopen(descriptor, "rb") else {
      close(descriptor)
      throw PNGError(description: "cannot read \(path): \(String(cString: strerror(errno)))")
    }
    return file
  }

  private static func message(of png: inout png_image) -> String {
    withUnsafeBytes(of: &png.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  }
}

/// What a file that is not a regular one is, for a message: "a folder", "a FIFO", "a device or
/// special file" (`mode` as stat gives it).
package func nonRegularFileKind(_ mode: mode_t) -> String {
  switch mode & S_IFMT {
  case S_IFDIR: "a folder"
  case S_IFIFO: "a FIFO"
  default: "a device or special file"
  }
}
