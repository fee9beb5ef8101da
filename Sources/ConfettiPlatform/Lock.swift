import Glibc

/// A mutual-exclusion lock for state that outlives one call (a celebration's, standard
/// error's): `lock()` and `unlock()` around it, or `withLock`.
package final class Lock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  package init() { pthread_mutex_init(mutex, nil) }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  package func lock() { pthread_mutex_lock(mutex) }

  package func unlock() { pthread_mutex_unlock(mutex) }

  package func withLock<T>(_ body: () throws -> T) rethrows -> T {
    lock()
    defer { unlock() }
    return try body()
  }
}
