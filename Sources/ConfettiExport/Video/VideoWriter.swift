import CProcess
import ConfettiCore
import ConfettiImage
import ConfettiPlatform
import ConfettiProcess
import FoundationEssentials
import Glibc

/// An animation that cannot be written, said in one line.
public struct VideoError: Error, CustomStringConvertible {
  /// Why, in one line.
  public var description: String
}

/// An animation written by an `ffmpeg` process fed raw RGBA frames through a pipe: no
/// temporary pictures.
///
/// ffmpeg writes into a hidden file this program creates itself, exclusively, beside the
/// destination; it is renamed over the destination only once ffmpeg has ended cleanly having
/// said nothing, the file is on disk (fsync), begins as the format's files do, is still the
/// very file created, and (read back by ffprobe, where it is installed) holds every frame sent
/// at the size sent. A failure, a full disk or an interruption never leaves a file under either
/// name, and nothing planted at the hidden name (a symbolic link) is ever written through or
/// moved into place.
///
/// ffmpeg runs in a process group of its own, which a cancel ends whole (helpers it started
/// included). Every wait on it, for room for a frame or for its end, asks `shouldStop`
/// whether to stop (a program's signal handler says so through it), and gives up after
/// ``stallLimit`` without progress.
///
/// A write to an ffmpeg that has ended raises SIGPIPE in the writing thread: write from a
/// thread that blocks it (``keepBrokenPipesFromEndingTheProcess()``).
final class VideoWriter {
  /// The animation's file.
  let path: String
  /// Its format, from its name.
  let format: VideoFormat
  /// Each frame's width in pixels.
  private let width: Int
  /// Each frame's height in pixels.
  private let height: Int
  /// The ffmpeg program; its ffprobe is looked for beside it first.
  private let ffmpeg: URL
  /// Frames sent whole so far.
  private var framesSent = 0
  /// Whether ffprobe read back what was written (false where it is not installed).
  private(set) var wasReadBack = false
  /// Whether to stop, asked at every wait on ffmpeg.
  private let shouldStop: () -> Bool
  /// ffmpeg's process, the leader of its own group.
  private let child: pid_t
  /// How ffmpeg ended, once it is reaped (``describe(_:)``).
  private var status: Int32?
  /// The pipe's end that frames are written to; -1 once closed.
  private var input: Int32
  /// What ffmpeg says on its standard error.
  private let complaints: TailReader
  /// The hidden file ffmpeg writes, beside ``path``.
  private let temporary: ExclusiveFile
  /// Whether the animation is in place or cancelled: nothing is left to clean up.
  private var finished = false
  /// The frame being sent, the same memory from frame to frame.
  private var frameMemory: [UInt8] = []

  /// How long ffmpeg may take no frame, or take to end once fed, before the export fails.
  static let stallLimit: Seconds = 20

  /// Keeps SIGPIPE pending on the calling thread, so that a write to an ffmpeg that has died
  /// says EPIPE there rather than ending the program (or a host). For the thread that feeds
  /// ffmpeg, before it starts.
  static func keepBrokenPipesFromEndingTheProcess() {
    var pipe = sigset_t()
    sigemptyset(&pipe)
    sigaddset(&pipe, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &pipe, nil)
  }

  /// The ffmpeg program on PATH, or nil.
  private static func findFFmpeg() -> URL? { findProgram("ffmpeg") }

  /// The program `name` in `first` or else on PATH, or nil.
  private static func findProgram(_ name: String, first: URL? = nil) -> URL? {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
      .map { URL(fileURLWithPath: String($0)) }
    return ([first].compactMap { $0 } + folders).map { $0.appending(path: name) }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// Starts ffmpeg to write `path` from frames of `width` × `height` pixels at `fps` (that
  /// the format does not refuse, ``VideoFormat/refusal(width:height:fps:)``), with straight
  /// alpha; `transparent` keeps their alpha where the format can.
  init(
    path: String, width: Int, height: Int, fps: Double, transparent: Bool,
    quality: ExportQuality = .standard, shouldStop: @escaping () -> Bool = { false }
  ) throws {
    guard let format = VideoFormat(path: path) else {
      throw VideoError(description: "cannot tell the animation format of \(path)")
    }
    guard let ffmpeg = Self.findFFmpeg() else {
      throw VideoError(
        description: "cannot write \(path): \(format.name) is made by ffmpeg, which is not "
          + "installed — apt-get install ffmpeg")
    }
    if let why = confetti_children_unwaitable() {
      throw VideoError(
        description: "cannot write \(path) with ffmpeg: \(String(cString: why))")
    }
    try OutputFile.check(path)
    self.shouldStop = shouldStop
    self.path = path
    self.format = format
    self.width = width
    self.height = height
    self.ffmpeg = ffmpeg
    do {
      temporary = try ExclusiveFile(beside: path)
    } catch let error as OutputFileError {
      throw VideoError(description: error.description)
    }
    let arguments =
      [
        ffmpeg.path, "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "rawvideo",
        "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-r", String(fps), "-i", "pipe:0",
      ] + format.outputArguments(transparent: transparent, quality: quality) + [temporary.path]
    var frames: [Int32] = [-1, -1]
    var said: [Int32] = [-1, -1]
    guard confetti_private_pipe(&frames) == 0, confetti_private_pipe(&said) == 0 else {
      temporary.remove()
      throw VideoError(description: "cannot start ffmpeg: \(String(cString: strerror(errno)))")
    }
    let started = spawnProgram(arguments, input: frames[0], errors: said[1], ownGroup: true)
    close(frames[0])
    close(said[1])
    switch started {
    case .success(let pid): child = pid
    case .failure(let error):
      close(frames[1])
      close(said[0])
      temporary.remove()
      throw VideoError(description: "cannot start ffmpeg (\(ffmpeg.path)): \(error.reason)")
    }
    input = frames[1]
    // Writes that would block return at once, so a stalled ffmpeg cannot stall the program.
    _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
    complaints = TailReader(reading: said[0])
  }

  /// Cancels an animation neither finished nor cancelled: nothing is left under either name.
  deinit {
    if !finished { cancel() }
  }

  /// Sends one frame (straight alpha, `width` × `height` as given at the start), which `fill`
  /// puts into the memory it is given as GL reads it back, bottom row first (sized by `fill`
  /// the first time; the same memory each frame). The rows go to ffmpeg top row first, straight
  /// from that memory, with no copy to turn them.
  func append(filling fill: (inout [UInt8]) throws -> Void) throws {
    let row = width * 4
    try fill(&frameMemory)
    precondition(frameMemory.count == row * height, "a frame of the size given at the start")
    try frameMemory.withUnsafeBytes { buffer in
      var sent = 0  // bytes of the frame sent, from its top row
      var progress = Date()
      var vectors = [iovec](repeating: iovec(), count: Self.rowsAWrite)
      while sent < buffer.count {
        // The next rows, as much as a pipe takes at once: the first may be partly sent.
        let (top, within) = sent.quotientAndRemainder(dividingBy: row)
        let count = min(Self.rowsAWrite, height - top)
        for index in 0..<count {
          let skipped = index == 0 ? within : 0
          vectors[index] = iovec(
            iov_base: UnsafeMutableRawPointer(
              mutating: buffer.baseAddress! + (height - 1 - top - index) * row + skipped),
            iov_len: row - skipped)
        }
        let written = writev(input, vectors, Int32(count))
        if written > 0 {
          sent += written
          progress = Date()
          continue
        }
        switch errno {
        case EINTR: continue
        case EAGAIN:
          // ffmpeg is busy (or stalled): wait a little for room, noting signals.
          try stopIfInterrupted()
          if Date().timeIntervalSince(progress) > Self.stallLimit {
            throw failure("ffmpeg took no frame for \(Int(Self.stallLimit)) s")
          }
          var ready = pollfd(fd: input, events: Int16(POLLOUT), revents: 0)
          _ = poll(&ready, 1, 100)
        case EPIPE: throw failure("ffmpeg stopped")
        default: throw failure(String(cString: strerror(errno)))
        }
      }
    }
    framesSent += 1
  }

  /// Rows offered to one write: more than a pipe takes at once (64 KB, 8 rows of 1920 pixels,
  /// though a small frame's rows are shorter), few enough to set up cheaply.
  private static let rowsAWrite = 32

  /// Ends the input, waits for ffmpeg (`shouldStop` saying so meanwhile cancels the
  /// animation), checks what it wrote and puts the animation under its name.
  func finish() throws {
    closeInput()
    let started = Date()
    while !hasEnded() {
      try stopIfInterrupted()
      if lost {
        throw failure(
          "ffmpeg's end was lost: this process reaps its children itself (a SIGCHLD handler "
            + "that waits for any child); let confetti wait for its own")
      }
      if Date().timeIntervalSince(started) > Self.stallLimit {
        throw failure("ffmpeg did not finish within \(Int(Self.stallLimit)) s of the last frame")
      }
      usleep(10_000)
    }
    guard let status, status == 0 else { throw failure("ffmpeg failed") }
    // ffmpeg says nothing at this log level unless something went wrong (it ends with status 0
    // after some failed writes, a full disk's among them).
    if let said = complaints.lastLine() { throw failure("ffmpeg reported an error", said: said) }
    do {
      // A stop asked up to the rename, ffmpeg's end and the read-back included, is honoured.
      try temporary.commit(
        to: path, signatures: format.signatures,
        kind: "a \(format.name) file, though ffmpeg said all went well",
        check: {
          try readBack()
          try stopIfInterrupted()
        })
    } catch let error as OutputFileError {
      finished = true
      throw VideoError(description: error.description)
    }
    finished = true
  }

  /// Reads back what ffmpeg wrote with ffprobe (beside ffmpeg, or on PATH): it must hold every
  /// frame sent, at the size sent. Without ffprobe the check of how the file begins stands alone.
  private func readBack() throws {
    guard let ffprobe = Self.findProgram("ffprobe", first: ffmpeg.deletingLastPathComponent())
    else { return }
    let probed = "ffprobe, \(ffprobe.path)"
    var said: [Int32] = [-1, -1]
    guard confetti_private_pipe(&said) == 0 else {
      throw failure("cannot read it back: \(String(cString: strerror(errno)))")
    }
    let arguments = [
      ffprobe.path, "-v", "error", "-count_packets", "-select_streams", "v:0", "-show_entries",
      "stream=width,height,nb_read_packets", "-of", "csv=p=0", temporary.path,
    ]
    let started = spawnProgram(arguments, output: said[1], ownGroup: true)
    close(said[1])
    defer { close(said[0]) }
    guard case .success(let reader) = started else {
      throw failure("cannot start ffprobe to read it back", said: probed)
    }
    var text: [UInt8] = []
    var ending: Int32 = 0
    let began = Date()
    var buffer = [UInt8](repeating: 0, count: 256)
    while true {
      var ready = pollfd(fd: said[0], events: Int16(POLLIN), revents: 0)
      if poll(&ready, 1, 100) > 0 {
        let count = buffer.withUnsafeMutableBytes { read(said[0], $0.baseAddress, $0.count) }
        if count > 0, text.count < 4096 { text += buffer[..<count] }
        if count > 0 || (count < 0 && errno == EINTR) { continue }
        break
      }
      let stalled = Date().timeIntervalSince(began) > Self.stallLimit
      if shouldStop() || stalled {
        kill(-reader, SIGKILL)
        while waitpid(reader, &ending, 0) < 0 && errno == EINTR {}
        try stopIfInterrupted()
        throw failure(
          "ffprobe did not read it back within \(Int(Self.stallLimit)) s",
          said: "\(probed): it was still running, and was stopped")
      }
    }
    while waitpid(reader, &ending, 0) < 0 && errno == EINTR {}
    let fields =
      String(decoding: text, as: UTF8.self)
      .split(whereSeparator: \.isNewline).first?.split(separator: ",").map { Int($0) } ?? []
    let found = fields.count == 3 ? fields.compactMap { $0 } : []
    guard found.count == 3 else {
      throw failure(
        "ffprobe cannot read back what ffmpeg wrote, though ffmpeg said all went well",
        said: "\(probed): \(Self.describe(confetti_exit_status(ending)))")
    }
    guard found == [width, height, framesSent] else {
      throw failure(
        "ffmpeg wrote \(found[2]) frame\(found[2] == 1 ? "" : "s") of \(found[0])×\(found[1]), "
          + "not \(framesSent) of \(width)×\(height)")
    }
    wasReadBack = true
  }

  /// Stops ffmpeg and what it started, and removes what it wrote: nothing is left under either
  /// name.
  func cancel() {
    finished = true
    closeInput()
    if !hasEnded() {
      kill(-child, SIGTERM)
      for _ in 0..<100 where !hasEnded() { usleep(10_000) }
      if !hasEnded() {
        kill(-child, SIGKILL)
        var ending: Int32 = 0
        while waitpid(child, &ending, 0) < 0 && errno == EINTR {}
        status = confetti_exit_status(ending)
      }
    }
    kill(-child, SIGKILL)  // any helper it left behind
    temporary.remove()
  }

  /// Throws ``RenderStopped`` when `shouldStop` says so, cancelling first.
  private func stopIfInterrupted() throws {
    guard shouldStop() else { return }
    cancel()
    throw RenderStopped(out: path, whole: true)
  }

  /// Whether ffmpeg has ended (reaped, its status kept).
  private func hasEnded() -> Bool {
    guard status == nil else { return true }
    var ending: Int32 = 0
    let result = waitpid(child, &ending, WNOHANG)
    guard result == child else {
      lost = result < 0 && errno == ECHILD  // reaped by someone else: its status is gone
      return false
    }
    status = confetti_exit_status(ending)
    return true
  }

  /// Whether ffmpeg was reaped by someone else (a host's SIGCHLD handler): its end and status
  /// cannot be known.
  private var lost = false

  /// How a program ended, in words, from its status as `confetti_exit_status` gives it (above
  /// 128: killed by a signal).
  private static func describe(_ status: Int32) -> String {
    status > 128 ? "killed by signal \(status - 128)" : "exit status \(status)"
  }

  /// Closes the pipe's end that frames are written to: ffmpeg sees the input end.
  private func closeInput() {
    if input >= 0 { close(input) }
    input = -1
  }

  /// A failure of ffmpeg's, with its last line of complaint or how it ended.
  private func failure(_ what: String, said: String? = nil) -> VideoError {
    // How it ended, if it has, before it is stopped here.
    let ended = hasEnded()
    cancel()
    let how =
      ended
      ? status.map(Self.describe) ?? ""
      : "it was still running, and was stopped"
    // ffmpeg names the hidden file it wrote; the user knows the destination.
    let line = (said ?? complaints.lastLine())?.replacing(temporary.path, with: path)
    return VideoError(description: "cannot write \(path): \(what) (\(line ?? how))")
  }
}
