import ConfettiPlatform
import Dispatch
import Glibc

/// Reads a child's standard error as it comes, on a thread of its own, keeping its last few
/// kilobytes: a child with much to say never blocks on a full pipe.
final class TailReader: @unchecked Sendable {
  /// Guards ``tail``, which the reading thread appends to.
  private let lock = Lock()
  /// The last bytes read, at most ``kept`` of them.
  private var tail: [UInt8] = []
  /// Signalled once the child's end is closed and everything is read.
  private let ended = DispatchSemaphore(value: 0)
  /// How many bytes of what the child said are kept.
  private static let kept = 4096

  /// Reads `descriptor` (the read end of the child's standard error) until its end, then
  /// closes it.
  init(reading descriptor: Int32) {
    let started = detachThread { [self] in
      var buffer = [UInt8](repeating: 0, count: 16_384)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        lock.withLock {
          tail.append(contentsOf: buffer[..<count])
          if tail.count > Self.kept { tail.removeFirst(tail.count - Self.kept) }
        }
      }
      close(descriptor)
      ended.signal()
    }
    // No thread to read with: the pipe is closed, so a child that writes gets EPIPE rather
    // than blocking on a full pipe, and there is nothing to tell.
    if !started {
      close(descriptor)
      ended.signal()
    }
  }

  /// The last line said, once the child has closed its end (within a second), if any.
  func lastLine() -> String? {
    _ = ended.wait(timeout: .now() + 1)
    ended.signal()
    // Its control characters (terminal escapes among them) are not passed on.
    let text = lock.withLock { String(decoding: tail, as: UTF8.self) }
    guard let last = text.split(whereSeparator: \.isNewline).last else { return nil }
    let shown = last.unicodeScalars.map {
      $0.properties.generalCategory == .control ? "?" : Character($0)
    }
    let line = String(shown).trimmed
    return line.isEmpty ? nil : line
  }
}
