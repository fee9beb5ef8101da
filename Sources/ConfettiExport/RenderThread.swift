import ConfettiPlatform
import Glibc

/// A render's frames, made on a thread of the render's own while the calling thread tells its
/// caller how far they have come and asks it whether to stop. The render's thread tells each
/// frame and waits until the calling thread has told its caller (and asked whether to stop):
/// frames are told one by one, in order, and none is made after a stop was asked.
enum RenderThread {
  /// A render's work, on its own thread: `tell` a frame reached (it returns once the caller
  /// has heard), and `isStopping` says whether a stop was asked.
  typealias Work = (
    _ tell: @escaping (RenderProgress) -> Void, _ isStopping: @escaping @Sendable () -> Bool
  ) throws -> RenderResult

  /// Runs `work` on a new thread and waits for it, calling `progress` with each frame `work`
  /// tells, and `shouldStop` after each and every few hundredths of a second meanwhile, both
  /// on this thread. Returns or throws what `work` does, once its thread has ended.
  static func run(
    progress: ((RenderProgress) -> Void)?, shouldStop: () -> Bool, _ work: @escaping Work
  ) throws -> RenderResult {
    let shared = SharedState()
    // Big pictures and ffmpeg's pipes want more than a secondary thread's default stack. The
    // thread is joined before this returns, whatever it returns: a host may exit at once, and a
    // thread still ending then (its drivers' thread-local state freed) raced exit's own frees.
    let thread = try JoinedThread(stackSize: 8 << 20) {
      shared.finish(with: Result { try work({ shared.tell($0) }, { shared.isStopping }) })
    }
    defer { thread.join() }
    while true {
      let (reached, result) = shared.next(within: 0.05)
      if let reached {
        progress?(reached)
        if shouldStop() { shared.stop() }
        shared.acknowledge()
      } else if result == nil, !shared.isStopping, shouldStop() {
        shared.stop()
      }
      if let result { return try result.get() }
    }
  }

  /// What the render's thread and the calling thread share: the frame told and not yet
  /// acknowledged, the outcome, and whether a stop was asked.
  private final class SharedState: @unchecked Sendable {
    /// Guards what follows, and wakes either thread when it changes.
    private let condition = Condition()
    /// The frame told and not yet acknowledged.
    private var progress: RenderProgress?
    /// What the render returned or threw, once it has.
    private var result: Result<RenderResult, Error>?
    /// Whether the caller asked to stop.
    private var stopping = false

    /// From the render's thread: `reached`, then wait until it is acknowledged.
    func tell(_ reached: RenderProgress) {
      condition.withLock {
        progress = reached
        condition.broadcast()
        while progress != nil { condition.wait() }
      }
    }

    /// From the render's thread: its outcome, once it has one.
    func finish(with result: Result<RenderResult, Error>) {
      condition.withLock {
        self.result = result
        condition.broadcast()
      }
    }

    /// Whether a stop was asked.
    var isStopping: Bool { condition.withLock { stopping } }

    /// From the calling thread: its caller asked to stop.
    func stop() { condition.withLock { stopping = true } }

    /// From the calling thread: the frame told has been told on.
    func acknowledge() {
      condition.withLock {
        progress = nil
        condition.broadcast()
      }
    }

    /// Waits up to `seconds` for news; returns the frame told and not yet acknowledged, and
    /// the outcome once there is one.
    func next(within seconds: Double) -> (RenderProgress?, Result<RenderResult, Error>?) {
      condition.withLock {
        if progress == nil, result == nil {
          condition.wait(seconds: seconds)
        }
        return (progress, progress == nil ? result : nil)
      }
    }
  }
}

/// A thread of its own stack size, running `body` from the start, that its maker joins
/// (Foundation's Thread cannot be joined).
private final class JoinedThread {
  /// The thread started.
  private var thread = pthread_t()
  /// Whether it has been joined (a thread is joined once).
  private var joined = false

  /// Starts `body` on a new thread with a stack of `stackSize` bytes; throws if the system
  /// has no thread to give.
  init(stackSize: Int, _ body: @escaping () -> Void) throws {
    switch startThread(stackSize: stackSize, body) {
    case .success(let started): thread = started
    case .failure(let error):
      throw RenderError(description: "cannot start the render's thread: \(error)")
    }
  }

  /// Waits until the thread has ended, its own clean-up included. Once only.
  func join() {
    guard !joined else { return }
    joined = true
    pthread_join(thread, nil)
  }
}
