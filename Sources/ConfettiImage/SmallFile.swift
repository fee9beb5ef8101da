import FoundationEssentials
import Glibc

/// A small file read as if someone else could have put it there: opened without waiting (a
/// FIFO would wait for a writer for ever), checked on what was opened (a regular file, of at
/// most a size), and read with that cap; optionally never through a link, and only if it is
/// this user's. For the files the program and library read that no argument names: the
/// celebration's pid file, the desktop's animation settings.
package enum SmallFile {
  /// The bytes of the regular file at `path` if it holds at most `largest`; nil otherwise, or
  /// where it cannot be read. `ownedAndNoLink`: only a file of this user's, opened without
  /// following a link.
  package static func read(_ path: String, atMost largest: Int, ownedAndNoLink: Bool = false)
    -> [UInt8]?
  {
    let flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (ownedAndNoLink ? O_NOFOLLOW : 0)
    let descriptor = open(path, flags)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      status.st_size <= largest, !ownedAndNoLink || status.st_uid == getuid()
    else { return nil }
    var bytes = [UInt8](repeating: 0, count: largest + 1)
    var count = 0
    while count < bytes.count {
      let read = bytes.withUnsafeMutableBytes {
        Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count)
      }
      if read < 0, errno == EINTR { continue }
      guard read > 0 else { break }
      count += read
    }
    guard count <= largest else { return nil }  // it grew past the cap as it was read
    return Array(bytes[..<count])
  }
}
