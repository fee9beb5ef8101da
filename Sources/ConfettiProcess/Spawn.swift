import CProcess
import Glibc

/// Why a program could not be started: what the system said.
package struct SpawnError: Error, Sendable {
  package var reason: String
}

/// Starts `arguments` (the program's path first) as every program confetti starts is started
/// (a celebration's overlay, ffmpeg, ffprobe): every signal at its default and none blocked,
/// whatever the caller set; standard input, output and errors from `input`, `output` and
/// `errors` (nil: /dev/null); `passing` a descriptor on at a number of its own.
///
/// - Parameters:
///   - environment: the program's environment; nil: this process's.
///   - closingTheRest: every other descriptor closed in the program, so that it holds nothing
///     of the caller's (a pipe a host leaked, make's job server), even one not close-on-exec.
///   - ownGroup: in a process group of its own, so that a terminal's Ctrl-C, sent to the
///     caller's group, reaches the caller alone, which ends it as it sees fit.
/// - Returns: the program's process, or why it could not be started.
package func spawnProgram(
  _ arguments: [String], environment: [String: String]? = nil, input: Int32? = nil,
  output: Int32? = nil, errors: Int32? = nil, passing passed: (Int32, as: Int32)? = nil,
  closingTheRest: Bool = false, ownGroup: Bool = false
) -> Result<pid_t, SpawnError> {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  for (target, source) in [(Int32(0), input), (1, output), (2, errors)] {
    if let source {
      posix_spawn_file_actions_adddup2(&actions, source, target)
    } else {
      posix_spawn_file_actions_addopen(
        &actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
    }
  }
  if let passed { posix_spawn_file_actions_adddup2(&actions, passed.0, passed.as) }
  if closingTheRest {
    _ = confetti_spawn_closes_from(&actions, max(3, (passed?.as ?? 2) + 1))
  }
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var defaults = sigset_t()
  sigfillset(&defaults)
  var unblocked = sigset_t()
  sigemptyset(&unblocked)
  posix_spawnattr_setsigdefault(&attributes, &defaults)
  posix_spawnattr_setsigmask(&attributes, &unblocked)
  var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
  if ownGroup {
    posix_spawnattr_setpgroup(&attributes, 0)
    flags |= POSIX_SPAWN_SETPGROUP
  }
  posix_spawnattr_setflags(&attributes, Int16(flags))
  var argv = arguments.map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  var pid: pid_t = 0
  let failed: Int32
  if let environment {
    var envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { envp.forEach { free($0) } }
    failed = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, &envp)
  } else {
    failed = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, Glibc.environ)
  }
  guard failed == 0 else { return .failure(SpawnError(reason: String(cString: strerror(failed)))) }
  return .success(pid)
}
