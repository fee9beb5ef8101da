import ConfettiImage
import ConfettiPlatform
import Dispatch
import FoundationEssentials

/// The pictures of a PNG sequence, made straight, encoded and written on the machine's other
/// cores while the next frames are drawn (a 1080p picture takes longer to encode than to draw).
/// Each is written safely (``OutputFile``), as one picture is, beside its name, and put in
/// place only when it is told: a stop leaves a file the name held before as it was. Frames
/// finish in any order and are told in order (``tellWritten(of:naming:told:)``); the first
/// failure is the earliest frame that failed.
final class PictureSequence: @unchecked Sendable {
  /// Guards what follows, and wakes the drawing thread when a picture is done.
  private let condition = Condition()
  /// The most pictures in flight at once: each holds a frame's pixels.
  private let most: Int
  /// Pictures queued and not yet written or failed.
  private var inFlight = 0
  /// Frames written beside their names (their files and names) or failed, not yet told.
  private var outcomes: [Int: Result<(file: ExclusiveFile, path: String), Error>] = [:]
  /// The next frame to tell, in order.
  private var next: Int
  /// Files written for frames past the last one told, not yet in place: removed if the
  /// sequence stops early.
  private var ahead: [Int: (file: ExclusiveFile, path: String)] = [:]
  /// Whether to stop: a picture finished after it says so is not written.
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

  /// Tells the frames written since the last call, in order: each is put in place, then
  /// `told`; a stop asked as one is told leaves the rest untold (and ``stop()`` removes them).
  /// Throws the earliest frame that failed as a render says it (`option` spells a setting as
  /// the caller does): which pictures of `settings`' sequence are whole, and the frame range
  /// that renders the rest; ``RenderStopped`` for one a stop left unwritten.
  func tellWritten(
    of settings: RenderOptions, naming option: (String) -> String, told: (Int) -> Void
  ) throws {
    let rendered = settings.renderedFrames
    do {
      // Until none is left to tell: a failed frame comes after those before it are told.
      while case let frames = try finished(), !frames.isEmpty {
        for frame in frames {
          // A stop asked as an earlier frame was told: this one is not told, nor kept.
          guard !shouldStop() else { return }
          try putInPlace(frame)
          told(frame)
        }
      }
    } catch let failure as FrameFailure {
      if failure.error is Stopped { throw RenderStopped(out: settings.out, whole: false) }
      let frame = failure.frame
      guard frame > rendered.lowerBound else { throw failure.error }
      // The frames before it are whole: say so, and how to render the rest.
      let whole = rendered.lowerBound..<frame
      throw RenderError(
        description: "\(failure.error); \(settings.pictures(whole)) "
          + "\(whole.count == 1 ? "is" : "are") written: \(option("frame_range")) "
          + "\(frame):\(rendered.upperBound) renders the rest")
    }
  }

  /// The frames written since the last call, in order, up to the first not yet written or
  /// failed; throws the earliest failed frame's error (``FrameFailure``) when it comes first.
  /// Each is put in place by ``putInPlace(_:)`` as it is told; one a stop leaves untold is
  /// removed by ``stop()``.
  private func finished() throws -> [Int] {
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
  private func putInPlace(_ frame: Int) throws {
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
  private struct FrameFailure: Error {
    /// The frame, numbered as in the whole sequence.
    var frame: Int
    /// Why its picture could not be written.
    var error: Error
  }

  /// A picture finished after a stop was asked: not written.
  private struct Stopped: Error {}
}
