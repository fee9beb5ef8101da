import CProcess
import Confetti
import ConfettiCore
import ConfettiImage
import ConfettiPlatform
import ConfettiProcess
import Dispatch
import FoundationEssentials
import Glibc

/// The animation formats `confetti render` writes through the `ffmpeg` program.
public enum VideoFormat: String, CaseIterable, Sendable {
  /// GIF: a palette of each frame's colours, one bit of transparency.
  case gif
  /// WebM with VP9: alpha kept.
  case webm
  /// MP4 with H.264: no alpha.
  case mp4
  /// QuickTime with ProRes 4444: alpha kept, for video editors.
  case mov

  /// The format a file name's extension asks for, if it is one of these.
  public init?(path: String) {
    self.init(rawValue: URL(fileURLWithPath: path).pathExtension.lowercased())
  }

  /// Whether it keeps a transparent backdrop: GIF (one bit), VP9 WebM and ProRes 4444 do;
  /// H.264 MP4 does not.
  public var keepsTransparency: Bool { self != .mp4 }

  /// What it is, for messages.
  public var name: String {
    switch self {
    case .gif: "GIF"
    case .webm: "WebM (VP9)"
    case .mp4: "MP4 (H.264)"
    case .mov: "QuickTime (ProRes 4444)"
    }
  }

  /// How it keeps a transparent background, after its ``name`` in the last line: the pixel
  /// format an editor reports.
  public var alpha: String {
    switch self {
    case .gif: "with one-bit transparency"
    case .webm: "with alpha (yuva420p, in a side stream: ffprobe lists the video as yuv420p)"
    case .mp4: "with no alpha"
    case .mov: "with alpha (yuva444p10le, which ffprobe lists as ProRes's own yuva444p12le)"
    }
  }

  /// The most frames a second it plays at its own speed: a GIF's delays are whole hundredths
  /// of a second and players stretch those under two; WebM's timestamps are milliseconds.
  var fastestFrameRate: Double {
    switch self {
    case .gif: 50
    case .webm, .mp4, .mov: 1000
    }
  }

  /// The fewest frames a second it keeps: a GIF's delay is at most 655.35 s (16 bits of
  /// hundredths); the others' timestamps have room for any.
  var slowestFrameRate: Double { self == .gif ? 100.0 / 65535 : 0 }

  /// Whether its pictures must have even sides (4:2:0 chroma: H.264's and VP9's).
  var needsEvenSides: Bool { self == .webm || self == .mp4 }
  /// Whether its pictures must be of an even width (ffmpeg's fast ProRes encoder, prores_aw).
  var needsEvenWidth: Bool { self == .mov }

  /// Why frames of `width` × `height` at `fps` cannot be written as it, in one line; nil when
  /// they can.
  package func refusal(
    width: Int, height: Int, fps: Double, naming option: (String) -> String
  ) -> String? {
    if fps < slowestFrameRate {
      return "\(name) shows a frame for at most 655.35 s, so at least 0.0016 frames a second, "
        + "not \(fps): give a higher \(option("fps"))"
    }
    if fps > fastestFrameRate {
      let asked = fps < 1e9 && fps == fps.rounded() ? String(Int(fps)) : String(fps)
      return "\(name) plays at most \(Int(fastestFrameRate)) frames a second at its own speed, "
        + "not \(asked): give a lower \(option("fps"))"
    }
    if needsEvenSides, !width.isMultiple(of: 2) || !height.isMultiple(of: 2) {
      let even = "\(width + width % 2)x\(height + height % 2)"
      return "\(name) needs even sides, not \(width)×\(height): give \(option("size")) \(even)"
    }
    if needsEvenWidth, !width.isMultiple(of: 2) {
      return "\(name) needs an even width, not \(width)×\(height): give \(option("size")) "
        + "\(width + 1)x\(height)"
    }
    return nil
  }

  /// ffmpeg's options for the output, after the raw RGBA input, at `quality`. The standard
  /// settings were chosen by measurement against the lossless frames (docs/export.md): within
  /// 0.0003 SSIM and 1.6 dB of the best over mid-grey, at a fifth to three quarters of its time.
  func outputArguments(transparent: Bool, quality: ExportQuality = .standard) -> [String] {
    let best = quality == .best
    switch self {
    case .gif:
      // A palette of each frame's own colours, made and used as the frames pass: a palette for
      // the whole animation would hold every frame in memory until the last.
      let palette = "palettegen=stats_mode=single" + (transparent ? ":reserve_transparent=1" : "")
      let use = "paletteuse=new=1:dither=sierra2_4a" + (transparent ? ":alpha_threshold=128" : "")
      return [
        "-filter_complex", "[0:v]split[a][b];[a]\(palette)[p];[b][p]\(use)", "-loop", "0",
        "-f", "gif",
      ]
    case .webm:
      // libvpx's real-time mode at speed 6 took a third of the CPU of its "good" mode at speed
      // 4, at the same luma PSNR (42.5 dB) and 12 % more bytes; 4:2:0 chroma bounds both.
      return [
        "-c:v", "libvpx-vp9", "-pix_fmt", transparent ? "yuva420p" : "yuv420p", "-b:v", "0",
        "-crf", best ? "20" : "30", "-deadline", best ? "good" : "realtime",
        "-cpu-used", best ? "2" : "6", "-row-mt", "1", "-f", "webm",
      ]
    case .mp4:
      return [
        "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18",
        "-preset", best ? "medium" : "veryfast", "-movflags", "+faststart", "-f", "mp4",
      ]
    case .mov:
      // prores_aw measured 4.6 times as fast as prores_ks, whose rate control searches each
      // block: 73.4 dB against 75.0 (luma PSNR), the same profile (ap4h) and size within 10 %.
      return [
        "-c:v", best ? "prores_ks" : "prores_aw", "-profile:v", best ? "4444" : "4",
        "-pix_fmt", transparent ? "yuva444p10le" : "yuv444p10le", "-f", "mov",
      ]
    }
  }
}

/// How an animation's encoder trades time for quality.
public enum ExportQuality: String, CaseIterable, Sendable {
  /// The settings measured to keep the quality at a fraction of the time: the default.
  case standard
  /// The encoders' slower settings, for a master copy: VP9's "good" mode at speed 2 and CRF 20,
  /// x264's medium preset, prores_ks.
  case best
}

/// An animation that cannot be written, said in one line.
public struct VideoError: Error, CustomStringConvertible {
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
/// included). Every wait on it, a frame it does not take or its end, notes the signals
/// asks its `shouldStop` whether to stop, and gives up after ``stallLimit`` without progress.
///
/// A write to an ffmpeg that has ended raises SIGPIPE in the writing thread: write from a
/// thread that blocks it (``Export`` renders on one).
package final class VideoWriter {
  package let path: String
  package let format: VideoFormat
  private let width: Int
  private let height: Int
  private let ffmpeg: URL
  private var framesSent = 0
  /// Whether ffprobe read back what was written (false where it is not installed).
  package private(set) var wasReadBack = false
  private let shouldStop: () -> Bool
  private let child: pid_t
  private var status: Int32?
  private var input: Int32
  private let complaints: TailReader
  private let temporary: ExclusiveFile
  private var finished = false
  /// The frame being sent, the same memory from frame to frame.
  private var frameMemory: [UInt8] = []

  /// How long ffmpeg may take no frame, or take to end once fed, before the export fails.
  static let stallLimit: Seconds = 20

  /// The ffmpeg program on PATH, or nil.
  package static func findFFmpeg() -> URL? { findProgram("ffmpeg") }

  /// The program `name` in `first` or else on PATH, or nil.
  package static func findProgram(_ name: String, first: URL? = nil) -> URL? {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
      .map { URL(fileURLWithPath: String($0)) }
    return ([first].compactMap { $0 } + folders).map { $0.appending(path: name) }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// Starts ffmpeg to write `path` from frames of `width` × `height` pixels at `fps` (that
  /// the format does not refuse, ``VideoFormat/refusal(width:height:fps:)``), with straight
  /// alpha; `transparent` keeps their alpha where the format can.
  package init(
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

  deinit {
    if !finished { cancel() }
  }

  /// Sends one frame (straight alpha, `width` × `height` as given at the start), which `fill`
  /// puts into the memory it is given as GL reads it back, bottom row first (sized by `fill`
  /// the first time; the same memory each frame). The rows go to ffmpeg top row first, straight
  /// from that memory, with no copy to turn them.
  package func append(filling fill: (inout [UInt8]) throws -> Void) throws {
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
  package func finish() throws {
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
  package func cancel() {
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

  /// How a program ended, in words, from its ``status(_:)``.
  private static func describe(_ status: Int32) -> String {
    status > 128 ? "killed by signal \(status - 128)" : "exit status \(status)"
  }

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

extension VideoFormat {
  /// How its files begin: a GIF's header, WebM's EBML magic, an ISO media file's first box type
  /// (at byte 4) for MP4 and QuickTime.
  var signatures: [(offset: Int, bytes: [UInt8])] {
    switch self {
    case .gif: [(0, Array("GIF89a".utf8)), (0, Array("GIF87a".utf8))]
    case .webm: [(0, [0x1A, 0x45, 0xDF, 0xA3])]
    case .mp4, .mov: [(4, Array("ftyp".utf8))]
    }
  }
}

/// Reads a child's standard error as it comes, on a thread of its own, keeping its last few
/// kilobytes: a child with much to say never blocks on a full pipe.
final class TailReader: @unchecked Sendable {
  private let lock = Lock()
  private var tail: [UInt8] = []
  private let ended = DispatchSemaphore(value: 0)
  private static let kept = 4096

  /// Reads `descriptor` (the read end of the child's standard error) until its end, then
  /// closes it.
  init(reading descriptor: Int32) {
    let started = detachThread { [self] in
      var buffer = [UInt8](repeating: 0, count: 16_384)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        lock.withLock {
          tail.append(contentsOf: buffer[..<count])
          if tail.count > Self.kept { tail.removeFirst(tail.count - Self.kept) }
        }
      }
      close(descriptor)
      ended.signal()
    }
    // No thread to read with: the pipe is closed, so a child that writes gets EPIPE rather
    // than blocking on a full pipe, and there is nothing to tell.
    if !started {
      close(descriptor)
      ended.signal()
    }
  }

  /// The last line said, once the child has closed its end (within a second), if any.
  func lastLine() -> String? {
    _ = ended.wait(timeout: .now() + 1)
    ended.signal()
    // Its control characters (terminal escapes among them) are not passed on.
    let text = lock.withLock { String(decoding: tail, as: UTF8.self) }
    guard let last = text.split(whereSeparator: \.isNewline).last else { return nil }
    let shown = last.unicodeScalars.map {
      $0.properties.generalCategory == .control ? "?" : Character($0)
    }
    let line = String(shown).trimmed
    return line.isEmpty ? nil : line
  }
}
