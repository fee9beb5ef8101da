import Glibc

/// A lock with a condition to wait for under it: `withLock`, then `wait()` for a
/// `broadcast()` or `signal()` from another thread.
package final class Condition: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  package init() {
    pthread_mutex_init(mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    // Deadlines on the monotonic clock: a clock set back does not stretch a wait.
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  package func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }

  /// Waits, the lock held, until another thread signals or broadcasts.
  package func wait() { pthread_cond_wait(condition, mutex) }

  /// Waits, the lock held, at most `seconds`; false when the time ran out.
  @discardableResult
  package func wait(seconds: Double) -> Bool {
    guard seconds.isFinite, seconds < 1e9 else {
      wait()
      return true
    }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let whole = seconds.rounded(.down)
    var deadline = timespec(
      tv_sec: now.tv_sec + Int(min(whole, 1e9)),
      tv_nsec: now.tv_nsec + Int((seconds - whole) * 1e9))
    if deadline.tv_nsec >= 1_000_000_000 {
      deadline.tv_sec += 1
      deadline.tv_nsec -= 1_000_000_000
    }
    return pthread_cond_timedwait(condition, mutex, &deadline) == 0
  }

  package func signal() { pthread_cond_signal(condition) }

  package func broadcast() { pthread_cond_broadcast(condition) }
}

/// Starts `body` on a new thread, with a stack of `stackSize` bytes where given; returns the
/// thread, or the error number when the system has no thread to give.
package func startThread(stackSize: Int? = nil, _ body: @escaping () -> Void) -> Result<
  pthread_t, ThreadError
> {
  final class Body {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
  }
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
  var thread = pthread_t()
  let context = Unmanaged.passRetained(Body(body)).toOpaque()
  let created = pthread_create(
    &thread, &attributes,
    { context in
      Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
      return nil
    }, context)
  guard created == 0 else {
    Unmanaged<Body>.fromOpaque(context).release()
    return .failure(ThreadError(number: created))
  }
  return .success(thread)
}

/// Why a thread could not be started: the system's error number, and its words.
package struct ThreadError: Error, CustomStringConvertible {
  package var number: Int32
  package var description: String {
    String(cString: strerror(number))
  }
}

/// Runs `body` on a thread of its own that nobody joins; false when the system has no thread
/// to give.
@discardableResult
package func detachThread(_ body: @escaping @Sendable () -> Void) -> Bool {
  guard case .success(let thread) = startThread(body) else { return false }
  pthread_detach(thread)
  return true
}
