import CProcess
import ConfettiCore
import ConfettiPlatform
import ConfettiPresets
import ConfettiProcess
import FoundationEssentials
import Glibc

/// What a celebration throws, and how long.
public struct CelebrationOptions: Sendable, Equatable {
  /// The effect: at most one of the three. None: the celebrate preset (two corner cannons,
  /// over in about 4 s).
  public var preset: String?
  /// A configuration file; its images are found beside it.
  public var path: String?
  /// A configuration as JSON text. It has no folder: an image it names must be named in full
  /// (as with `Effect(json:)` and the C and Python `json`); give ``path`` for images beside it.
  public var json: String?
  /// Every random draw comes from it.
  public var seed: UInt64 = 1
  /// The monitor to cover, from 1; nil: the primary.
  public var monitor: Int?
  /// How long a continuous effect (snow, rain) is on the screen, in seconds: it fades out over
  /// its last second, and is gone by then; nil: ``Celebration/defaultDuration``. One-off effects
  /// end by themselves.
  public var duration: Seconds?
  /// Keep going until cancelled: a continuous effect emits on, a one-off effect is thrown again
  /// each time it is over.
  public var loop = false
  /// true: each piece appears near where its motion would take it and fades in place; nil: as
  /// the desktop's own setting for fewer animations says (GNOME's, GTK's, KDE's).
  public var reduceMotion: Bool?

  /// The default celebration: the celebrate preset, seed 1, the primary monitor.
  public init() {}

  /// Throws ``CelebrationError`` unless these options can be celebrated, saying why in one line;
  /// `option` spells a setting's name as the caller does (`--monitor`, `monitor`).
  public func check(naming option: (String) -> String = { $0 }) throws {
    let given = [("preset", preset), ("path", path), ("json", json)].filter { $0.1 != nil }
    if given.count > 1 {
      throw CelebrationError(
        "give one effect: \(given.map { option($0.0) }.joined(separator: " or ")), not both")
    }
    try Celebration.check(monitor: monitor, duration: duration, loop: loop, naming: option)
  }
}

/// Confetti thrown over the desktop, as `confetti overlay` throws it — transparent, on top,
/// every click and key passing through to the windows below — until its last piece is gone.
///
/// It runs as a process of its own (the confetti program, found as ``program()`` says): a
/// window system's library is one per process, and one started inside a host that has its own
/// windows (GLFW, pygame, pyglet) would take them over, and end them with it. So a host keeps
/// its windows, its GL contexts and its signals, and no failure of the overlay's (no desktop,
/// no compositor, a crash in the window system) can end the host: each is a ``CelebrationError``
/// with the overlay's own one-line reason. The overlay ends with the host, should the host end
/// first (even killed).
///
/// Start it, then ``wait(timeout:)`` or ``cancel()``, from any thread.
public final class Celebration: @unchecked Sendable {
  private let child: pid_t
  private let errors: Int32
  private let lock = Lock()
  /// How it ended: its exit code, or 128 + the signal that ended it; nil while it runs.
  private var status: Int32?
  private var said: [UInt8] = []
  private var cancelled = false
  /// The file a JSON effect was written to for the program, removed once it has ended.
  private var effectFile: String?
  /// A standby's: where what to show is written, once (``begin(_:temporaryFolder:)``); -1 for
  /// any other celebration, and once written.
  private var requestSocket: Int32 = -1
  /// Where the program says its first frame is on screen (one byte).
  private let shownPipe: Int32
  /// Left to go on by itself (``leave()``): no longer ended with this object.
  private var isLeft = false
  /// The process that started it: only that one can wait for it or end it (a child forked
  /// since would take another's end for its own, or end its parent's celebration).
  private let startedBy = getpid()
  /// Whether its first frame was said to be on screen (down ``shownPipe``).
  private var wasShown = false
  /// The program it runs, as named.
  private let program: String

  /// The effect thrown over the desktop when none is named: a celebration over in about 4 s
  /// (``Presets/celebrationName``).
  public static let defaultPreset = Presets.celebrationName

  /// How long a continuous effect falls when no duration is given, in seconds.
  public static let defaultDuration: Seconds = 10

  /// The most monitors an overlay counts: more than any desktop has.
  public static let mostMonitors = 1024

  /// The longest a continuous effect may be asked to fall, in seconds: a day.
  public static let longestDuration: Seconds = 86_400

  /// Throws ``CelebrationError`` unless an overlay can cover monitor `monitor` (from 1) and
  /// fall for `duration` seconds, or `loop`; `option` spells each setting's name as the caller
  /// does.
  public static func check(
    monitor: Int?, duration: Seconds?, loop: Bool, naming option: (String) -> String
  ) throws {
    if let monitor, monitor < 1 {
      throw CelebrationError("\(option("monitor")) counts from 1, not \(monitor)")
    }
    if let monitor, monitor > mostMonitors {
      throw CelebrationError(
        "there is no monitor \(monitor): \(option("monitor")) counts the desktop's monitors "
          + "from 1")
    }
    if let duration {
      guard duration.isFinite, (0.1...longestDuration).contains(duration) else {
        throw CelebrationError(
          "\(option("duration")) must be 0.1 to 86400 seconds, not \(duration)")
      }
      if loop {
        throw CelebrationError("give \(option("duration")) or \(option("loop")), not both")
      }
    }
  }

  /// The variable that names the confetti program to run, before any other place is looked at.
  public static let programVariable = "CONFETTI_PROGRAM"

  /// The confetti program a celebration runs: the one ``programVariable`` names, else the one
  /// beside this library (`confetti` in the library's own folder, as a Python wheel has it, or
  /// in `../bin` or `../../bin`, as a system package has it), else the running program itself
  /// if it is confetti, else the first on PATH; nil when there is none.
  public static func program() -> URL? {
    let environment = ProcessInfo.processInfo.environment
    var candidates: [String] = []
    if let named = environment[programVariable], !named.isEmpty {
      return URL(fileURLWithPath: named)
    }
    // (A library's file is named in full; a program's may be as typed, relative to a folder
    // that is not this one: that is read from /proc instead, below.)
    if let file = confetti_file_holding(#dsohandle), file.pointee == 0x2F {
      let folder = URL(fileURLWithPath: String(cString: file)).resolvingSymlinksInPath()
        .deletingLastPathComponent()
      candidates += ["confetti", "../bin/confetti", "../../bin/confetti"].map {
        folder.appendingPathComponent($0).standardized.path
      }
    }
    if let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
      URL(fileURLWithPath: me).lastPathComponent == "confetti"
    {
      candidates.append(me)
    }
    candidates += (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/confetti" }
    return candidates.first(where: isProgramFile(atPath:)).map { URL(fileURLWithPath: $0) }
  }

  /// Starts the celebration; throws ``CelebrationError`` when the options are refused or the
  /// program cannot be found or started.
  ///
  /// - Parameters:
  ///   - program: the confetti program to run; by default ``program()``.
  ///   - environment: the program's environment (`DISPLAY`, `WAYLAND_DISPLAY` name the
  ///     desktop); by default this process's.
  ///   - temporaryFolder: where a JSON effect is written for the program, until it has ended;
  ///     by default `$TMPDIR`, else /tmp.
  public convenience init(
    _ options: CelebrationOptions = CelebrationOptions(), program: URL? = nil,
    environment: [String: String]? = nil, temporaryFolder: String? = nil
  ) throws {
    try self.init(
      options, program: program, environment: environment, temporaryFolder: temporaryFolder,
      handing: { _ in })
  }

  /// As the public initialiser, with `handing` adding to what is handed to `confetti overlay`
  /// (`confetti run` adds its drawing options this way). `goesOnAlone`: the overlay does not end
  /// with this process, so that it can be left (``leave()``).
  package init(
    _ options: CelebrationOptions, program: URL?, environment: [String: String]?,
    temporaryFolder: String?, handing: (inout OverlayHandoff) -> Void,
    goesOnAlone: Bool = false, standby: Bool = false
  ) throws {
    try options.check()
    if let why = confetti_children_unwaitable() {
      throw CelebrationError("cannot follow a celebration: \(String(cString: why))")
    }
    guard let program = program ?? Self.program() else {
      throw CelebrationError(
        "cannot find the confetti program that shows a celebration: install the confetti "
          + "package, or name it in \(Self.programVariable)")
    }
    var (handoff, effectFile) = try Self.handoff(options, temporaryFolder: temporaryFolder)
    handoff.parent = goesOnAlone ? nil : getpid()
    // It says when its first frame is on screen: a program that ends without saying so never
    // showed a celebration, whatever its status.
    handoff.shownDescriptor = Self.shownDescriptor
    handoff.monitor = options.monitor
    handoff.standby = standby
    handing(&handoff)
    var environment = environment ?? ProcessInfo.processInfo.environment
    if options.reduceMotion == false { environment["CONFETTI_REDUCE_MOTION"] = "0" }
    var shown: [Int32] = [-1, -1]
    // A standby's request travels over a socket, written with MSG_NOSIGNAL: an overlay that
    // has ended by then is an error, not a SIGPIPE for the writer.
    var request: [Int32] = [-1, -1]
    if confetti_private_pipe(&shown) != 0
      || (standby && socketpair(AF_UNIX, Self.streamSocket, 0, &request) != 0)
    {
      let why = String(cString: strerror(errno))
      if let effectFile { unlink(effectFile) }
      for descriptor in shown where descriptor >= 0 { Glibc.close(descriptor) }
      throw CelebrationError("cannot start the celebration: \(why)")
    }
    defer {
      if shown[1] >= 0 { Glibc.close(shown[1]) }
      if request[0] >= 0 { Glibc.close(request[0]) }
    }
    do {
      (child, errors) = try Self.spawn(
        [program.path] + handoff.arguments, environment: environment, shown: shown[1],
        input: request[0] >= 0 ? request[0] : nil)
    } catch {
      if let effectFile { unlink(effectFile) }
      if shown[0] >= 0 { Glibc.close(shown[0]) }
      if request[1] >= 0 { Glibc.close(request[1]) }
      throw error
    }
    self.effectFile = effectFile
    requestSocket = request[1]
    self.program = program.path
    shownPipe = shown[0]
    // Read as it comes, never waited on, as standard error is.
    _ = fcntl(shownPipe, F_SETFL, fcntl(shownPipe, F_GETFL) | O_NONBLOCK)
  }

  /// What the overlay is handed for `options`' effect and how it runs (not where: the
  /// monitor, the parent): with a JSON effect, the file it was written to for the program.
  private static func handoff(
    _ options: CelebrationOptions, temporaryFolder: String?
  ) throws -> (OverlayHandoff, effectFile: String?) {
    var handoff = OverlayHandoff()
    var effectFile: String?
    if let preset = options.preset { handoff.effect = .preset(preset) }
    if let path = options.path { handoff.effect = .config(path) }
    if let json = options.json {
      let file = try Self.temporaryFile(holding: json, in: temporaryFolder)
      handoff.effect = .jsonFile(file)
      effectFile = file
    }
    handoff.seed = options.seed
    handoff.duration = options.duration
    handoff.loop = options.loop
    handoff.reduceMotion = options.reduceMotion == true
    return (handoff, effectFile)
  }

  /// A stream socket closed across exec, for a standby's request.
  private static let streamSocket = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)

  /// A celebration started ahead of time on `monitor` (nil: the primary), as `confetti
  /// service` keeps one: its overlay makes its window and GL context and waits, unshown, for
  /// ``begin(_:temporaryFolder:)``, so that what it is then told shows without the program's
  /// start. Never begun, it ends when this object does.
  package static func standby(
    monitor: Int?, program: URL? = nil, environment: [String: String]? = nil
  ) throws -> Celebration {
    var options = CelebrationOptions()
    options.monitor = monitor
    return try Celebration(
      options, program: program, environment: environment, temporaryFolder: nil,
      handing: { $0.effect = nil }, standby: true)
  }

  /// Tells a ``standby(monitor:program:environment:)`` celebration what to show: `options`'
  /// effect, seed, duration, loop and reduced motion (its monitor and environment are the
  /// standby's). Once only; throws ``CelebrationError`` when the options are refused, it was
  /// begun already, or its overlay has ended.
  package func begin(_ options: CelebrationOptions, temporaryFolder: String? = nil) throws {
    try options.check()
    lock.lock()
    defer { lock.unlock() }
    guard requestSocket >= 0 else {
      throw CelebrationError("this celebration is not waiting to be told what to show")
    }
    let (handoff, effectFile) = try Self.handoff(options, temporaryFolder: temporaryFolder)
    let bytes = handoff.request
    let written = bytes.withUnsafeBytes {
      send(requestSocket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
    Glibc.close(requestSocket)
    requestSocket = -1
    guard written == bytes.count else {
      if let effectFile { unlink(effectFile) }
      throw CelebrationError("the celebration's overlay had ended before it was told what to show")
    }
    self.effectFile = effectFile
  }

  deinit {
    if requestSocket >= 0 { Glibc.close(requestSocket) }
    if !isLeft, !isForked { close() }
    Glibc.close(errors)
    Glibc.close(shownPipe)
  }

  /// The descriptor the program says its first frame is on screen down.
  private static let shownDescriptor: Int32 = 3

  /// Whether this is a child forked since it was started: not its process to wait for or end.
  private var isForked: Bool { getpid() != startedBy }

  /// The program's process.
  package var processIdentifier: pid_t { child }

  /// Waits until its first frame is on screen (true), it has ended (false; a failure throws
  /// ``CelebrationError`` with its reason, as ``wait(timeout:)``), or `timeout` seconds have
  /// passed (false): what `confetti run` waits for before it gives the shell back.
  /// `confetti_celebration_wait_shown` in C, `Celebration.wait_shown()` in Python.
  public func waitUntilShown(timeout: Seconds) throws -> Bool {
    let deadline = Date().addingTimeInterval(max(0, timeout))
    while true {
      lock.lock()
      let said = wasShown
      lock.unlock()
      if said { return true }
      guard Date() < deadline else { return false }
      var ready = pollfd(fd: shownPipe, events: Int16(POLLIN), revents: 0)
      if poll(&ready, 1, 50) > 0 {
        lock.lock()
        readShown()
        let shown = wasShown
        lock.unlock()
        if shown { return true }
        // Closed without a word: it has ended, or is ending; its end says how.
        try wait(timeout: Self.gracePeriod)
        return false
      }
      if try wait(timeout: 0) { return false }
    }
  }

  /// Leaves the celebration to go on by itself, and end by itself: this object no longer
  /// ends it, waits for it, or reads what it says. (Its process is left for the system to
  /// reap once this one has ended.)
  package func leave() {
    lock.lock()
    defer { lock.unlock() }
    isLeft = true
  }

  /// How long a cancelled program may take to end before it is killed: an overlay stuck in
  /// the window system (or any program that ignores SIGTERM) must not hold its host.
  public static let gracePeriod: Seconds = 2

  /// Ends it and waits for that: cancelled, then killed if it has not ended within
  /// ``gracePeriod``. What ``deinit`` does, and `confetti_celebration_close` in C and
  /// `close()` in Python.
  public func close() {
    guard !isForked else { return }
    cancel()
    if (try? wait(timeout: Self.gracePeriod)) == false {
      lock.lock()
      if !reaped() { kill(child, SIGKILL) }
      lock.unlock()
    }
    _ = try? wait()
  }

  /// Whether it is still on the desktop.
  public var isRunning: Bool {
    guard !isForked else { return false }
    lock.lock()
    defer { lock.unlock() }
    drain()
    return !reaped()
  }

  /// Ends it now, if it still runs: its pieces vanish, and ``wait(timeout:)`` then returns
  /// without an error (a celebration that had already failed still says why).
  public func cancel() {
    guard !isForked else { return }
    lock.lock()
    defer { lock.unlock() }
    guard !reaped() else { return }
    cancelled = true
    kill(child, SIGTERM)
  }

  /// Waits until it is over, or `timeout` seconds have passed (nil: as long as it takes);
  /// returns whether it is over. Throws ``CelebrationError`` with the overlay's own reason when it
  /// could not be shown or failed (no desktop, no compositor), once it is over.
  @discardableResult
  public func wait(timeout: Seconds? = nil) throws -> Bool {
    if isForked {
      throw CelebrationError(
        "this celebration was started before this process was forked (by process "
          + "\(startedBy)), and only that process can wait for it: start a new one in the child")
    }
    let deadline = timeout.map { Date().addingTimeInterval(max(0, $0)) }
    while true {
      lock.lock()
      // What it says, read as it comes (never waited for): a full pipe would stall it.
      drain()
      let over = reaped()
      lock.unlock()
      if over { break }
      if let deadline, Date() >= deadline { return false }
      var ready = pollfd(fd: errors, events: Int16(POLLIN), revents: 0)
      if poll(&ready, 1, 50) > 0, ready.revents & Int16(POLLHUP) != 0,
        ready.revents & Int16(POLLIN) == 0
      {
        usleep(10_000)  // it closed standard error: it is ending
      }
    }
    lock.lock()
    defer { lock.unlock() }
    drain()  // the rest of what it said, now that it has ended
    if let effectFile { unlink(effectFile) }
    // Ended as asked: by the cancel's SIGTERM (cleanly, or by the signal), or killed after its
    // grace period.
    let endedAsAsked = cancelled && [0, 128 + SIGTERM, 128 + SIGKILL].contains(status ?? 0)
    guard !endedAsAsked else { return true }
    // A clean end counts only once it was shown: a program that exits 0 without a frame on
    // the screen (not the overlay, or one that could not draw) celebrated nothing.
    guard let status, status != 0 else {
      if wasShown { return true }
      throw CelebrationError(
        "the celebration was never shown: \(program) ended without a frame on the screen; "
          + "check that it is the confetti program (\(Self.programVariable))")
    }
    let lines = String(decoding: said, as: UTF8.self).split(whereSeparator: \.isNewline)
    let line = lines.last.map { String($0) }.map {
      oneLine($0.hasPrefix("confetti: ") ? String($0.dropFirst("confetti: ".count)) : $0)
    }
    if status > 128 {
      throw CelebrationError("the celebration stopped (signal \(status - 128))")
    }
    throw CelebrationError(line ?? "the celebration failed (exit status \(status))")
  }

  /// Reads what the program has written to its standard error so far, keeping the last 64 KiB
  /// (its last line is its reason). Call holding the lock.
  private func drain() {
    readShown()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
      guard count > 0 else { return }
      said += buffer[..<count]
      if said.count > 65536 { said.removeFirst(said.count - 65536) }
    }
  }

  /// Notes whether the program has said its first frame is on screen. Call holding the lock.
  private func readShown() {
    var byte: UInt8 = 0
    if !wasShown, read(shownPipe, &byte, 1) == 1 { wasShown = true }
  }

  /// Whether the program has ended, reaping it if it just has. Call holding the lock.
  private func reaped() -> Bool {
    guard status == nil else { return true }
    var ending: Int32 = 0
    let result = waitpid(child, &ending, WNOHANG)
    guard result == child else { return result < 0 && errno == ECHILD ? markLost() : false }
    status = confetti_exit_status(ending)
    return true
  }

  /// The program was reaped by someone else (a host that waits for every child): its status
  /// is unknown, and taken as a success.
  private func markLost() -> Bool {
    status = 0
    return true
  }

  /// Starts `arguments` with standard input and output on /dev/null and standard error on a
  /// pipe; returns its process and the pipe's reading end.
  private static func spawn(
    _ arguments: [String], environment: [String: String], shown: Int32?, input: Int32? = nil
  ) throws -> (pid_t, Int32) {
    var pipe: [Int32] = [-1, -1]
    guard confetti_private_pipe(&pipe) == 0 else {
      throw CelebrationError("cannot start the celebration: \(String(cString: strerror(errno)))")
    }
    // Nothing else of the host's: a pipe it leaks (its own standard output's, make's job
    // server's) held open by a celebration left on the screen would hold whoever reads it.
    let started = spawnProgram(
      arguments, environment: environment, input: input, errors: pipe[1],
      passing: shown.map { ($0, as: shownDescriptor) }, closingTheRest: true)
    Glibc.close(pipe[1])
    // Read as it comes, never waited on: a copy of the writing end that outlives the program
    // (a host thread that forked meanwhile) must not hold a wait or a cancel for ever.
    _ = fcntl(pipe[0], F_SETFL, fcntl(pipe[0], F_GETFL) | O_NONBLOCK)
    switch started {
    case .success(let pid): return (pid, pipe[0])
    case .failure(let error):
      Glibc.close(pipe[0])
      throw CelebrationError("cannot start the celebration (\(arguments[0])): \(error.reason)")
    }
  }

  /// A new file of this user's alone in `folder` (nil: `$TMPDIR`, else /tmp) holding `text`,
  /// for the program to read.
  private static func temporaryFile(holding text: String, in folder: String?) throws -> String {
    let folder =
      folder ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
    var template = Array("\(folder ?? "/tmp")/confetti-effect-XXXXXX.json".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 5) }
    guard descriptor >= 0 else {
      throw CelebrationError(
        "cannot write the effect for the celebration: \(String(cString: strerror(errno)))")
    }
    defer { Glibc.close(descriptor) }
    let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else {
      unlink(path)
      throw CelebrationError(
        "cannot write the effect for the celebration: \(String(cString: strerror(errno)))")
    }
    return path
  }
}

/// Why a celebration cannot be shown, or failed, in one line: options refused, no confetti
/// program, no desktop, no compositing window manager (the overlay's own reason).
public struct CelebrationError: Error, CustomStringConvertible {
  public var description: String
  /// A celebration's failure, saying why in one line.
  public init(_ description: String) { self.description = description }
}

extension Celebration {
  /// ``close()``, by its name before 0.6.
  @available(*, deprecated, renamed: "close()")
  public func end() { close() }
}
