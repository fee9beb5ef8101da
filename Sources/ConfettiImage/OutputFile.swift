import FoundationEssentials
import Glibc

/// A destination that cannot be written, said in one line.
public struct OutputFileError: Error, CustomStringConvertible {
  public var description: String
}

/// Files the program writes (pictures, plots), written so that a failure never leaves a damaged
/// file under the final name and never replaces anything but a regular file.
///
/// The data goes to a temporary file beside the destination, is flushed to disk and checked,
/// and only then renamed over the final name. A destination that exists and is not a regular
/// file (a device such as /dev/full, a FIFO, a folder, a symbolic link) is refused.
public enum OutputFile {
  /// Throws unless `path` can be written: it is absent or a regular file, and its folder exists
  /// and is writable. Creates nothing: call it before long work whose result goes there.
  public static func check(_ path: String) throws {
    guard !path.isEmpty else { throw OutputFileError(description: "no output file name given") }
    guard !path.hasSuffix("/") else {
      throw OutputFileError(
        description: "will not write \(path): a name ending in / is a folder's; give the path "
          + "of a file")
    }
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
        throw OutputFileError(
          description: "will not write \(path): it is \(what); give the path of a regular file")
      }
      // Replacing it by a rename would pass over its own protection, as cp does not.
      guard access(path, W_OK) == 0 else {
        throw OutputFileError(
          description: "will not write \(path): it is read-only (make it writable, or give "
            + "another name)")
      }
    }
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard access(folder, W_OK) == 0 else {
      throw OutputFile.failure(path)
    }
  }

  /// ``check(_:)``, and that `path` is none of `inputs` (files the run reads, under any name):
  /// writing it would destroy what it was made from.
  public static func check(_ path: String, sparing inputs: [String]) throws {
    try check(path)
    var output = stat()
    guard stat(path, &output) == 0 else { return }
    for input in inputs {
      var read = stat()
      if stat(input, &read) == 0, read.st_dev == output.st_dev, read.st_ino == output.st_ino {
        throw OutputFileError(
          description: "will not write \(path): it is \(input), which this command reads; give "
            + "another name")
      }
    }
  }

  /// Writes `data` to `path` safely (see the type's documentation).
  public static func write(_ data: Data, to path: String) throws {
    try prepare(data, for: path).commit(to: path)
  }

  /// Writes `data` into a hidden file beside `path`, not yet put in its place: its
  /// ``ExclusiveFile/commit(to:signatures:kind:check:)`` to `path` does that, and dropping it
  /// removes it, leaving whatever `path` held.
  public static func prepare(_ data: Data, for path: String) throws -> ExclusiveFile {
    try check(path)
    let file = try ExclusiveFile(beside: path)
    try data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(
          file.descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          throw failure(path)
        }
        offset += written
      }
    }
    return file
  }

  /// Puts prepared files (``prepare(_:for:)``) in their places, all or none: each is made
  /// ready first (any failing removes them all, and each name keeps what it held), then all are
  /// renamed; a rename that fails removes those put before it.
  public static func commit(_ files: [(file: ExclusiveFile, path: String)]) throws {
    defer { for (file, _) in files { file.remove() } }
    for (file, path) in files { try file.ready(for: path) }
    for (index, (file, path)) in files.enumerated() {
      do {
        try file.place(at: path)
      } catch {
        for (_, placed) in files[..<index] { unlink(placed) }
        throw error
      }
    }
  }

  /// The failure to write `path`, in the system's words for `errno`.
  public static func failure(_ path: String) -> OutputFileError {
    OutputFileError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
  }
}

/// A hidden file created exclusively (mkstemp) beside a destination and kept open, with a
/// short name whatever the destination's length (a 255-byte name has no room for more), to be
/// renamed over the destination only while that name still holds the very file created:
/// another program (or anyone who can write the folder) may write into it by name, but what
/// is moved into place is never a link or a file planted there.
public final class ExclusiveFile {
  /// Its hidden name.
  public let path: String
  /// Open for writing.
  public let descriptor: Int32
  /// Its folder, held open: the file is removed or renamed there even if the folder has been
  /// moved meanwhile (then the rename is refused, and the file removed where it went).
  private let folder: Int32
  private let folderPath: String
  private let name: String
  private let identity: (device: UInt, inode: UInt)
  private var open = true

  /// Creates it in the folder of `destination`, with the usual permissions (umask applied).
  public init(beside destination: String) throws {
    folderPath = URL(fileURLWithPath: destination).deletingLastPathComponent().path
    folder = Glibc.open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard folder >= 0 else { throw OutputFile.failure(destination) }
    var template = Array((folderPath + "/.confetti-XXXXXX").utf8CString)
    descriptor = mkstemp(&template)
    guard descriptor >= 0 else {
      let failure = OutputFile.failure(destination)
      close(folder)
      throw failure
    }
    // Not passed on to programs started meanwhile (ffmpeg opens the file by its name).
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    path = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    name = URL(fileURLWithPath: path).lastPathComponent
    var status = stat()
    fstat(descriptor, &status)
    identity = (UInt(status.st_dev), UInt(status.st_ino))
    // mkstemp makes the file readable by its owner only; give it the usual permissions.
    let mask = umask(0)
    umask(mask)
    fchmod(descriptor, 0o666 & ~mask)
  }

  deinit { remove() }

  /// Puts the file, flushed to disk and not empty, under `destination` (replacing what is
  /// there, whose permissions it takes); removes it and throws if it cannot, if its name no
  /// longer holds it, if its folder has moved, if it does not begin with one of `signatures`
  /// (bytes at an offset; none: anything), described then as not `kind`, or if `check` (a last
  /// look at its contents, just before the rename) throws.
  public func commit(
    to destination: String, signatures: [(offset: Int, bytes: [UInt8])] = [], kind: String = "",
    check: () throws -> Void = {}
  ) throws {
    defer { remove() }
    try ready(for: destination, signatures: signatures, kind: kind, check: check)
    try place(at: destination)
  }

  /// Everything ``commit(to:signatures:kind:check:)`` does but the rename: throws where it
  /// would, and leaves the file in place (``place(at:)`` renames it; ``remove()`` removes it).
  public func ready(
    for destination: String, signatures: [(offset: Int, bytes: [UInt8])] = [], kind: String = "",
    check: () throws -> Void = {}
  ) throws {
    guard fsync(descriptor) == 0 else { throw OutputFile.failure(destination) }
    var written = stat()
    guard fstat(descriptor, &written) == 0, written.st_size > 0 else {
      throw OutputFileError(description: "cannot write \(destination): nothing was written")
    }
    guard holdsItsName else {
      throw OutputFileError(
        description: "cannot write \(destination): its hidden file \(path) was replaced while "
          + "it was written")
    }
    var held = stat()
    var named = stat()
    guard fstat(folder, &held) == 0, stat(folderPath, &named) == 0, held.st_ino == named.st_ino,
      held.st_dev == named.st_dev
    else {
      throw OutputFileError(
        description: "cannot write \(destination): its folder was moved or removed while it was "
          + "written")
    }
    guard signatures.isEmpty || begins(with: signatures) else {
      throw OutputFileError(
        description: "cannot write \(destination): what was written is not \(kind)")
    }
    try check()
    let target = URL(fileURLWithPath: destination).lastPathComponent
    // A file it replaces keeps its permissions (a private 0600 picture stays private); its
    // owner and its other hard links cannot be kept by a rename.
    var replaced = stat()
    if fstatat(folder, target, &replaced, AT_SYMLINK_NOFOLLOW) == 0,
      replaced.st_mode & S_IFMT == S_IFREG
    {
      fchmod(descriptor, replaced.st_mode & 0o777)
    }
  }

  /// Renames the file, made ready (``ready(for:signatures:kind:check:)``), to `destination`
  /// in its folder, and closes it.
  public func place(at destination: String) throws {
    let target = URL(fileURLWithPath: destination).lastPathComponent
    guard renameat(folder, name, folder, target) == 0 else { throw OutputFile.failure(destination) }
    open = false
    close(descriptor)
    close(folder)
  }

  /// Whether the file begins with one of `signatures` (bytes at an offset).
  public func begins(with signatures: [(offset: Int, bytes: [UInt8])]) -> Bool {
    signatures.contains { signature in
      var read = [UInt8](repeating: 0, count: signature.bytes.count)
      let count = pread(descriptor, &read, read.count, off_t(signature.offset))
      return count == read.count && read == signature.bytes
    }
  }

  /// Removes the file (if its name in its folder, wherever that is now, still holds it) and
  /// closes it.
  public func remove() {
    guard open else { return }
    open = false
    if holdsItsName { unlinkat(folder, name, 0) }
    close(descriptor)
    close(folder)
  }

  /// Whether its name in its folder is still that of the regular file created.
  private var holdsItsName: Bool {
    var named = stat()
    return fstatat(folder, name, &named, AT_SYMLINK_NOFOLLOW) == 0
      && named.st_mode & S_IFMT == S_IFREG && UInt(named.st_dev) == identity.device
      && UInt(named.st_ino) == identity.inode
  }
}
