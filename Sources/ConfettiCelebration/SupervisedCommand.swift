import CProcess
import Glibc
import Synchronization

/// A command run for a person, as `confetti run` runs it before it celebrates: it shares the
/// terminal, and its status is returned as a shell gives it.
package enum SupervisedCommand {
  /// The child being waited for, for the signal handlers (0: none).
  private static let running = Atomic<pid_t>(0)

  /// Signals passed on to the child: those sent to confetti alone, not to the terminal's
  /// process group (which the child is in already).
  package static let forwarded = [SIGTERM, SIGHUP, SIGUSR1, SIGUSR2]
  /// Signals the terminal sends the whole group: confetti waits them out, the child decides.
  package static let waitedOut = [SIGINT, SIGQUIT]
  /// The signals that ask a program to stop.
  package static let stopping = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]

  /// The last signal received while a child ran (forwarded or waited out); 0: none.
  private static let lastSignal = Atomic<Int32>(0)
  /// The signals to forward, a bit each (1 << N), until one side takes them. A handler sets
  /// its bit and then reads ``running``; ``run(_:environment:)`` writes ``running`` and then
  /// reads them: one of the two (or both) sees the other, whatever thread the handler runs on,
  /// so none is lost between the spawn and the pid being noted; and each is taken, and so
  /// forwarded, once (a second SIGTERM can mean "force it").
  private static let pending = Atomic<UInt32>(0)

  /// The last signal received while the last child ran, if any.
  package static var received: Int32? {
    let number = lastSignal.load(ordering: .sequentiallyConsistent)
    return number == 0 ? nil : number
  }

  /// Whether a signal that asks to stop (Ctrl-C, SIGTERM, SIGHUP) came while the last child
  /// ran, even if it then exited 0 (a command that catches them).
  package static var wasToldToStop: Bool {
    received.map { stopping.contains($0) } ?? false
  }

  /// Passes the signals ``pending`` holds on to `pid`, taking them. A stopped command acts on
  /// SIGTERM or SIGHUP only once it runs again: it is woken as `kill` and `timeout` wake what
  /// they end (their SIGCONT reaches confetti alone).
  private static func forwardPending(to pid: pid_t) {
    let taken = pending.exchange(0, ordering: .sequentiallyConsistent)
    for number in forwarded where taken & (1 << UInt32(number)) != 0 {
      kill(pid, number)
      if number == SIGTERM || number == SIGHUP { kill(pid, SIGCONT) }
    }
  }

  /// The environment the program was started with, before it quieted the GL drivers' messages
  /// for itself: what a command it runs gets. Set first thing by ``keepStartingEnvironment()``.
  nonisolated(unsafe) package private(set) static var startingEnvironment: [String]?

  /// Notes the environment as it is now, as ``startingEnvironment``.
  package static func keepStartingEnvironment() {
    var entries: [String] = []
    var entry = Glibc.environ
    while let text = entry.pointee {
      entries.append(String(cString: text))
      entry += 1
    }
    startingEnvironment = entries
  }

  /// Runs `arguments` (found on PATH) in `environment` (by default this process's), waits for
  /// it and returns its status: its exit code, 128 + N when signal N ended it. The signals of
  /// ``forwarded`` are passed on to it (from the moment it starts); those of ``waitedOut`` are
  /// noted only (``received``). Throws ``SupervisedCommandError`` when it cannot be started
  /// (status 127 or 126, as a shell's) or is lost.
  package static func run(_ arguments: [String], environment: [String]? = nil) throws -> Int32 {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The child starts with every signal at its default and none blocked, whatever was set.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in forwarded + waitedOut + [SIGPIPE] { sigaddset(&defaults, signal) }
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    // Handlers before the child exists: a signal in between is forwarded as soon as it does.
    lastSignal.store(0, ordering: .sequentiallyConsistent)
    pending.store(0, ordering: .sequentiallyConsistent)
    running.store(0, ordering: .sequentiallyConsistent)
    let previous = (forwarded + waitedOut).map { number in
      let handler: @convention(c) (Int32) -> Void =
        forwarded.contains(number)
        ? { number in
          SupervisedCommand.lastSignal.store(number, ordering: .sequentiallyConsistent)
          SupervisedCommand.pending.bitwiseOr(
            1 << UInt32(number), ordering: .sequentiallyConsistent)
          let pid = SupervisedCommand.running.load(ordering: .sequentiallyConsistent)
          if pid > 0 { SupervisedCommand.forwardPending(to: pid) }
        }
        : { number in
          SupervisedCommand.lastSignal.store(number, ordering: .sequentiallyConsistent)
        }
      return (number, signal(number, handler))
    }
    defer { for (number, handler) in previous { signal(number, handler) } }
    var argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var envp = environment.map { $0.map { strdup($0) } + [nil] }
    defer { envp?.forEach { free($0) } }
    var pid: pid_t = 0
    let failed =
      envp == nil
      ? posix_spawnp(&pid, arguments[0], nil, &attributes, &argv, Glibc.environ)
      : posix_spawnp(&pid, arguments[0], nil, &attributes, &argv, &envp!)
    guard failed == 0 else {
      throw SupervisedCommandError(
        status: failed == ENOENT ? 127 : 126,
        description: "cannot run \(arguments[0]): \(String(cString: strerror(failed)))")
    }
    running.store(pid, ordering: .sequentiallyConsistent)
    defer { running.store(0, ordering: .sequentiallyConsistent) }
    forwardPending(to: pid)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else {
        throw SupervisedCommandError(
          status: 1, description: "lost the command (\(String(cString: strerror(errno))))")
      }
    }
    return confetti_exit_status(status)
  }
}

/// Why a ``SupervisedCommand`` has no status of its own, in one line, with the status to
/// exit with instead: 127 (not found) or 126 (not runnable), as a shell's, or 1 (lost).
package struct SupervisedCommandError: Error, CustomStringConvertible {
  /// The exit status that stands for the command's.
  package var status: Int32
  /// What happened, in one line.
  package var description: String
}
