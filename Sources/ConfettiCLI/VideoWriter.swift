import ConfettiImage
import Foundation

/// The animation formats `confetti render` writes through the `ffmpeg` program.
enum VideoFormat: String, CaseIterable, Sendable {
  case gif, webm, mp4, mov

  /// The format a file name's extension asks for, if it is one of these.
  init?(path: String) {
    self.init(rawValue: URL(fileURLWithPath: path).pathExtension.lowercased())
  }

  /// Whether it keeps a transparent backdrop: GIF (one bit), VP9 WebM and ProRes 4444 do;
  /// H.264 MP4 does not.
  var keepsTransparency: Bool { self != .mp4 }

  /// What it is, for messages.
  var name: String {
    switch self {
    case .gif: "GIF"
    case .webm: "WebM (VP9)"
    case .mp4: "MP4 (H.264)"
    case .mov: "QuickTime (ProRes 4444)"
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

  /// Whether its pictures must have even sides (4:2:0 chroma: H.264's and VP9's).
  var needsEvenSides: Bool { self == .webm || self == .mp4 }

  /// Why frames of `width` × `height` at `fps` cannot be written as it, in one line; nil when
  /// they can.
  func refusal(width: Int, height: Int, fps: Double) -> String? {
    if fps > fastestFrameRate {
      let asked = fps < 1e9 && fps == fps.rounded() ? String(Int(fps)) : String(fps)
      return "\(name) plays at most \(Int(fastestFrameRate)) frames a second at its own speed, "
        + "not \(asked): give a lower --fps"
    }
    if needsEvenSides, !width.isMultiple(of: 2) || !height.isMultiple(of: 2) {
      let even = "\(width + width % 2)x\(height + height % 2)"
      return "\(name) needs even sides, not \(width)×\(height): give --size \(even)"
    }
    return nil
  }

  /// ffmpeg's options for the output, after the raw RGBA input.
  func outputArguments(transparent: Bool) -> [String] {
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
      return [
        "-c:v", "libvpx-vp9", "-pix_fmt", transparent ? "yuva420p" : "yuv420p", "-b:v", "0",
        "-crf", "30", "-deadline", "good", "-cpu-used", "4", "-row-mt", "1", "-f", "webm",
      ]
    case .mp4:
      return [
        "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18", "-preset", "medium",
        "-movflags", "+faststart", "-f", "mp4",
      ]
    case .mov:
      return [
        "-c:v", "prores_ks", "-profile:v", "4444",
        "-pix_fmt", transparent ? "yuva444p10le" : "yuv444p10le", "-f", "mov",
      ]
    }
  }
}

/// An animation written by an `ffmpeg` process fed raw RGBA frames through a pipe: no
/// temporary pictures.
///
/// ffmpeg writes into a hidden file this program creates itself, exclusively, beside the
/// destination; it is renamed over the destination only once ffmpeg has ended cleanly having
/// said nothing, the file is on disk (fsync) and is still the very file created. A failure, a
/// full disk or an interruption never leaves a file under either name, and nothing planted at
/// the hidden name (a symbolic link) is ever written through or moved into place.
final class VideoWriter {
  /// A failure, said in one line.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let path: String
  let format: VideoFormat
  private let process = Process()
  private let input: FileHandle
  private let complaints = TailReader()
  private let temporary: ExclusiveFile
  private var finished = false
  private var inputOpen = true

  /// The ffmpeg program on PATH, or nil.
  static func findFFmpeg() -> URL? {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    return folders.map { URL(fileURLWithPath: String($0)).appending(path: "ffmpeg") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// Starts ffmpeg to write `path` from frames of `width` × `height` pixels at `fps` (that
  /// the format does not refuse, ``VideoFormat/refusal(width:height:fps:)``), with straight
  /// alpha; `transparent` keeps their alpha where the format can.
  init(path: String, width: Int, height: Int, fps: Double, transparent: Bool) throws {
    guard let format = VideoFormat(path: path) else {
      throw Failure(description: "cannot tell the animation format of \(path)")
    }
    guard let ffmpeg = Self.findFFmpeg() else {
      throw Failure(
        description: "cannot write \(path): \(format.name) is made by ffmpeg, which is not "
          + "installed — apt-get install ffmpeg")
    }
    try OutputFile.check(path)
    // SIGPIPE would kill the program when ffmpeg dies; a failed write says so instead.
    signal(SIGPIPE, SIG_IGN)
    self.path = path
    self.format = format
    do {
      temporary = try ExclusiveFile(beside: path)
    } catch let error as OutputFile.Failure {
      throw Failure(description: error.description)
    }
    let pipe = Pipe()
    input = pipe.fileHandleForWriting
    process.executableURL = ffmpeg
    process.arguments =
      [
        "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "rawvideo",
        "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-r", String(fps), "-i", "pipe:0",
      ] + format.outputArguments(transparent: transparent) + [temporary.path]
    process.standardInput = pipe
    process.standardOutput = FileHandle.nullDevice
    process.standardError = complaints.pipe
    do {
      try process.run()
    } catch {
      temporary.remove()
      throw Failure(
        description: "cannot start ffmpeg (\(ffmpeg.path)): \(error.localizedDescription)")
    }
    pipe.fileHandleForReading.closeFile()
    complaints.start()
  }

  deinit {
    if !finished { cancel() }
  }

  /// Sends one frame (straight alpha, `width` × `height` as given at the start).
  func append(_ image: RGBAImage) throws {
    try image.bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Foundation.write(
          input.fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          let reason = errno == EPIPE ? "ffmpeg stopped" : String(cString: strerror(errno))
          throw failure(reason)
        }
        offset += written
      }
    }
  }

  /// Ends the input, waits for ffmpeg (a signal noted by ``Interruption`` meanwhile cancels the
  /// animation), checks what it wrote and puts the animation under its name.
  func finish() throws {
    closeInput()
    while process.isRunning {
      if let signal = Interruption.caught {
        cancel()
        throw RenderInterrupted(signal: signal, out: path, video: true)
      }
      usleep(10_000)
    }
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw failure("ffmpeg failed")
    }
    // ffmpeg says nothing at this log level unless something went wrong (it ends with status 0
    // after some failed writes, a full disk's among them).
    if let said = complaints.lastLine() { throw failure("ffmpeg reported an error", said: said) }
    do {
      try temporary.commit(to: path)
    } catch let error as OutputFile.Failure {
      finished = true
      throw Failure(description: error.description)
    }
    finished = true
  }

  /// Stops ffmpeg and removes what it wrote: nothing is left under either name.
  func cancel() {
    finished = true
    closeInput()
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    temporary.remove()
  }

  private func closeInput() {
    if inputOpen { input.closeFile() }
    inputOpen = false
  }

  /// A failure of ffmpeg's, with its last line of complaint or how it ended.
  private func failure(_ what: String, said: String? = nil) -> Failure {
    cancel()
    let how =
      process.terminationReason == .uncaughtSignal
      ? "killed by signal \(process.terminationStatus)"
      : "exit status \(process.terminationStatus)"
    // ffmpeg names the hidden file it wrote; the user knows the destination.
    let line = (said ?? complaints.lastLine())?.replacingOccurrences(of: temporary.path, with: path)
    return Failure(description: "cannot write \(path): \(what) (\(line ?? how))")
  }
}

/// Reads a child's standard error as it comes, on a thread of its own, keeping its last few
/// kilobytes: a child with much to say never blocks on a full pipe.
final class TailReader: @unchecked Sendable {
  let pipe = Pipe()
  private let lock = NSLock()
  private var tail: [UInt8] = []
  private let ended = DispatchSemaphore(value: 0)
  private static let kept = 4096

  func start() {
    pipe.fileHandleForWriting.closeFile()
    let descriptor = pipe.fileHandleForReading.fileDescriptor
    Thread.detachNewThread { [self] in
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
    let line = String(shown).trimmingCharacters(in: .whitespaces)
    return line.isEmpty ? nil : line
  }
}
