import CProcess
import ConfettiImage
import ConfettiPlatform
import FoundationEssentials
import Glibc

/// The celebration the last `confetti run` left on the screen, named in a file that only this
/// user can write: the next run ends it and starts its own over it, so that two never pile up.
///
/// The file is read as if someone else had planted it: never through a link, only a small
/// regular file of this user's, and the process it names is signalled only if it is a
/// celebration of this very program (the same executable, this user's, started as one).
enum LeftCelebration {
  /// The file's name in its folder.
  static let name = "confetti-celebration.pid"

  /// The most a file that names a process holds, in bytes: a number and a newline.
  static let largest = 32

  /// The most of a process's command line that is read, in bytes: a celebration's is short.
  static let longestCommandLine = 65_536

  /// The file, or nil where this user has no folder of their own for it (then no celebration
  /// is named or ended).
  static var file: String? {
    folder(ProcessInfo.processInfo.environment).map { "\($0)/\(name)" }
  }

  /// `$XDG_RUNTIME_DIR` where it is this user's own folder that nobody else can write (as the
  /// login session makes it), else `$XDG_STATE_HOME/confetti` (`~/.local/state/confetti`),
  /// made readable by this user alone; nil where neither can be had. Never a shared folder
  /// such as /tmp, where anyone can create a name first.
  static func folder(_ environment: [String: String]) -> String? {
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
      isOwnFolder(runtime)
    {
      return runtime
    }
    let home =
      environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } }
    let state =
      environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? home.map { "\($0)/.local/state" }
    guard let state else { return nil }
    let folder = "\(state)/confetti"
    try? FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return isOwnFolder(folder) ? folder : nil
  }

  /// Whether `path` is a folder of this user's that no one else can write in.
  static func isOwnFolder(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
      && status.st_uid == getuid() && status.st_mode & 0o022 == 0
  }

  /// Ends the celebration the file names, if it is still one that a run of this program left
  /// (a process number is reused: its executable and command line must say so) and this
  /// user's.
  static func endTheLast() {
    guard let file, let pid = named(in: file) else { return }
    // Held by a descriptor before it is checked: the signal reaches the process checked, or
    // none (if it ends meanwhile), never one that took its number since.
    let process = confetti_process_descriptor(pid)
    guard process >= 0 else { return }
    defer { close(process) }
    guard isCelebration(pid) else { return }
    _ = confetti_signal_process(process, SIGTERM)
    unlink(file)
  }

  /// The process `file` names: read only if it is a regular file of this user's, opened
  /// without following a link (nor waiting on a FIFO), of at most ``largest`` bytes.
  static func named(in file: String) -> pid_t? {
    guard let bytes = SmallFile.read(file, atMost: largest, ownedAndNoLink: true) else {
      return nil
    }
    let text = String(decoding: bytes, as: UTF8.self)
    guard let pid = pid_t(text.trimmed), pid > 1
    else { return nil }
    return pid
  }

  /// Whether process `pid` is a celebration this program left: this user's, running this
  /// program's own executable (the same file), with a celebration's command line
  /// (``OverlayHandoff``, with a descriptor to say it is shown down).
  static func isCelebration(_ pid: pid_t) -> Bool {
    var me = stat()
    var it = stat()
    var process = stat()
    guard stat("/proc/self/exe", &me) == 0, stat("/proc/\(pid)/exe", &it) == 0,
      me.st_dev == it.st_dev, me.st_ino == it.st_ino,
      stat("/proc/\(pid)", &process) == 0, process.st_uid == getuid()
    else { return false }
    // (/proc's files say they hold nothing: read up to the cap, whatever fstat says.)
    let descriptor = open("/proc/\(pid)/cmdline", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var command = [UInt8](repeating: 0, count: longestCommandLine)
    let count = read(descriptor, &command, command.count)
    guard count > 0 else { return false }
    let words = command[..<count].split(separator: 0).map {
      String(decoding: $0, as: UTF8.self)
    }
    // What a celebration is handed, and said it would show itself.
    return OverlayHandoff(arguments: Array(words.dropFirst()))?.shownDescriptor != nil
  }

  /// Names `pid` as the celebration left on the screen: written whole beside the file, then
  /// put in its place.
  static func note(_ pid: pid_t) {
    guard let file else { return }
    try? Data("\(pid)\n".utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
  }
}
