import ConfettiImage
import ConfettiPlatform
import Dispatch
import FoundationEssentials
import Glibc

/// The pictures of a PNG sequence, made straight, encoded and written on the machine's other
/// cores while the next frames are drawn (a 1080p picture takes longer to encode than to draw).
/// Each is written safely (``OutputFile``), as one picture is, beside its name, and put in
/// place only when it is told: a stop leaves a file the name held before as it was. Frames
/// finish in any order and are told in order (``finished()``); the first failure is the
/// earliest frame that failed.
final class PictureSequence: @unchecked Sendable {
  private let condition = Condition()
  /// The most pictures in flight at once: each holds a frame's pixels.
  private let most: Int
  private var inFlight = 0
  /// Frames written beside their names (their files and names) or failed, not yet told.
  private var outcomes: [Int: Result<(file: ExclusiveFile, path: String), Error>] = [:]
  /// The next frame to tell, in order.
  private var next: Int
  /// Files written for frames past the last one told, not yet in place: removed if the
  /// sequence stops early.
  private var ahead: [Int: (file: ExclusiveFile, path: String)] = [:]
  private let shouldStop: @Sendable () -> Bool
  /// Whether the pictures need straight alpha made (a transparent backdrop): over an opaque one
  /// every pixel is opaque, and premultiplied is straight.
  private let straightening: Bool
  /// Seconds spent making pictures straight, encoding them and writing them, over every thread.
  private var spent = (converting: 0.0, encoding: 0.0, writing: 0.0)

  /// A sequence whose first frame is `first`, its pictures made straight if `straightening`;
  /// pictures are not written once `shouldStop` says true.
  init(
    first: Int, straightening: Bool, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
    shouldStop: @escaping @Sendable () -> Bool
  ) {
    next = first
    self.straightening = straightening
    most = max(2, threads)
    self.shouldStop = shouldStop
  }

  /// Queues `image`, premultiplied as it was read back, to be written to `path` as frame
  /// `frame`; waits while the most are in flight.
  func add(_ image: RGBAImage, frame: Int, to path: String) {
    condition.withLock {
      while inFlight >= most { condition.wait() }
      inFlight += 1
    }
    DispatchQueue.global().async { [self] in
      let started = monotonicSeconds()
      var (converted, encoded) = (started, started)
      let outcome = Result { () throws -> (file: ExclusiveFile, path: String) in
        let straight = straightening ? image.unpremultiplied() : image
        converted = monotonicSeconds()
        let file = try PNG.encode(straight)
        encoded = monotonicSeconds()
        // A stop asked meanwhile: the picture is not written (nor told).
        guard !shouldStop() else { throw Stopped() }
        // Written, flushed and checked here, on this thread; only renamed when told.
        let prepared = try OutputFile.prepare(file, for: path)
        try prepared.ready(for: path)
        return (prepared, path)
      }
      let ended = monotonicSeconds()
      condition.withLock {
        spent.converting += max(0, converted - started)
        spent.encoding += max(0, encoded - converted)
        spent.writing += max(0, ended - encoded)
        outcomes[frame] = outcome
        if case .success(let file) = outcome { ahead[frame] = file }
        inFlight -= 1
        condition.broadcast()
      }
    }
  }

  /// The frames written since the last call, in order, up to the first not yet written or
  /// failed; throws the earliest failed frame's error (``FrameFailure``) when it comes first.
  /// Each is put in place when it is ``told(_:)``; one a stop leaves untold is removed by
  /// ``stop()``.
  func finished() throws -> [Int] {
    try condition.withLock {
      var frames: [Int] = []
      while let outcome = outcomes[next] {
        if case .failure(let error) = outcome {
          // The frames before it are given first, to be told and put in place; the failure
          // waits for the next call.
          guard frames.isEmpty else { break }
          outcomes[next] = nil
          throw FrameFailure(frame: next, error: error)
        }
        outcomes[next] = nil
        frames.append(next)
        next += 1
      }
      return frames
    }
  }

  /// Frame `frame` is told: its picture is put in place, and kept whatever comes after; throws
  /// ``FrameFailure`` if it cannot be.
  func told(_ frame: Int) throws {
    guard let written = condition.withLock({ ahead.removeValue(forKey: frame) }) else { return }
    do {
      try written.file.place(at: written.path)
    } catch {
      written.file.remove()
      throw FrameFailure(frame: frame, error: error)
    }
  }

  /// Seconds spent so far making pictures straight, encoding and writing them, summed over the
  /// threads that did it.
  var time: (converting: Double, encoding: Double, writing: Double) {
    condition.withLock { spent }
  }

  /// Waits until every picture queued is written or has failed.
  func waitForAll() {
    condition.withLock {
      while inFlight > 0 { condition.wait() }
    }
  }

  /// Waits for the pictures in flight, then removes those written past the last frame told:
  /// what is kept is what was told.
  func stop() {
    waitForAll()
    condition.withLock {
      for written in ahead.values { written.file.remove() }
      ahead = [:]
    }
  }

  /// Frame `frame`'s picture could not be written.
  struct FrameFailure: Error {
    var frame: Int
    var error: Error
  }

  /// A picture finished after a stop was asked: not written.
  struct Stopped: Error {}
}

/// Seconds since an arbitrary start, never going back (CLOCK_MONOTONIC).
package func monotonicSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
