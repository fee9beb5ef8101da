import CProcess
import Glibc

/// The signals that ask the program to stop (``stopping``), noted instead of ending it at once,
/// so that a render can remove its half-made file first and the window and overlay can close
/// their windows.
package enum Interruption {
  /// The last stopping signal received; 0: none yet.
  nonisolated(unsafe) private static var received: Int32 = 0
  /// Posted by the signal handler (sem_post is safe there) to wake the watchdog.
  nonisolated(unsafe) private static let arrived: UnsafeMutablePointer<sem_t> = {
    let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    sem_init(semaphore, 0, 0)
    return semaphore
  }()

  /// How long the overlay may take to end by itself after a signal, in seconds: past it, the
  /// program exits (status 0, as a clean end) whatever it is waiting for (a window manager, the
  /// driver).
  package static let promptEnd: Double = 0.5

  /// Starts noting the signals. With a `deadline` (in seconds), a watchdog thread exits the
  /// program that long after the first one, if it has not ended by then, having run
  /// `beforeEnding` (what must not be left as it is: a terminal borrowed is given back).
  package static func watch(
    endingWithin deadline: Double? = nil, beforeEnding: @escaping @Sendable () -> Void = {}
  ) {
    // Everything the handler touches is set up now, before it can run: a global's first use
    // allocates, and a handler that interrupts malloc (the GL driver's, setting up) and then
    // allocates waits for ever on malloc's lock.
    _ = (Interruption.arrived, Interruption.received)
    if let deadline {
      detachThread {
        while sem_wait(Interruption.arrived) != 0 {}
        var rest = timespec(
          tv_sec: Int(deadline), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&rest, &left) != 0, errno == EINTR { rest = left }
        beforeEnding()
        _exit(0)
      }
    }
    // A signal ignored from the start stays ignored, as the starter meant: nohup's SIGHUP, and
    // the SIGINT and SIGQUIT of a job a script started in the background, which the
    // terminal's Ctrl-C must not stop.
    for number in stopping where confetti_signal_is_ignored(number) == 0 {
      signal(number) {
        Interruption.received = $0
        sem_post(Interruption.arrived)
      }
    }
  }

  /// The signals that ask the program to stop, noted rather than ending it at once: Ctrl-C,
  /// Ctrl-\\, SIGTERM, a closed terminal (SIGHUP), and those whose default would end it
  /// as abruptly (SIGUSR1, SIGUSR2, SIGALRM).
  package static let stopping = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM]

  /// The signal received, if any.
  package static var caught: Int32? { received == 0 ? nil : received }
}
