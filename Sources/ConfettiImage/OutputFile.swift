import Foundation

/// Files the program writes (pictures, plots), written so that a failure never leaves a damaged
/// file under the final name and never replaces anything but a regular file.
///
/// The data goes to a temporary file beside the destination, is flushed to disk and checked,
/// and only then renamed over the final name. A destination that exists and is not a regular
/// file (a device such as /dev/full, a FIFO, a folder, a symbolic link) is refused.
public enum OutputFile {
  /// A destination that cannot be written, said in one line.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Throws unless `path` can be written: it is absent or a regular file, and its folder exists
  /// and is writable. Creates nothing: call it before long work whose result goes there.
  public static func check(_ path: String) throws {
    guard !path.isEmpty else { throw Failure(description: "no output file name given") }
    var status = stat()
    if lstat(path, &status) == 0 {
      let type = status.st_mode & S_IFMT
      guard type == S_IFREG else {
        let what =
          switch type {
          case S_IFLNK: "a symbolic link"
          case S_IFDIR: "a folder"
          case S_IFCHR, S_IFBLK: "a device"
          case S_IFIFO: "a FIFO"
          default: "not a regular file"
          }
        throw Failure(
          description: "will not write \(path): it is \(what); give the path of a regular file")
      }
    }
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard access(folder, W_OK) == 0 else {
      throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
    }
  }

  /// Writes `data` to `path` safely (see the type's documentation).
  public static func write(_ data: Data, to path: String) throws {
    try check(path)
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var template = Array((folder + "/." + url.lastPathComponent + ".XXXXXX").utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { throw failure(path) }
    let temporary = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var renamed = false
    defer {
      if !renamed { unlink(temporary) }
    }
    do {
      try data.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = Foundation.write(
            descriptor, buffer.baseAddress! + offset, buffer.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            throw failure(path)
          }
          offset += written
        }
      }
      guard fsync(descriptor) == 0 else { throw failure(path) }
      // mkstemp makes the file readable by its owner only; give it the usual permissions.
      let mask = umask(0)
      umask(mask)
      fchmod(descriptor, 0o666 & ~mask)
    } catch {
      close(descriptor)
      throw error
    }
    guard close(descriptor) == 0 else { throw failure(path) }
    guard rename(temporary, path) == 0 else { throw failure(path) }
    renamed = true
  }

  private static func failure(_ path: String) -> Failure {
    Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
  }
}
