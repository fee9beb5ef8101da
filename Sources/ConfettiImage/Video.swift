import Foundation

/// The animation formats `confetti render` writes through the `ffmpeg` program.
public enum VideoFormat: String, CaseIterable, Sendable {
  case gif, webm, mp4, mov

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

  /// ffmpeg's options for the output, after the raw RGBA input.
  func outputArguments(transparent: Bool) -> [String] {
    // yuv420 needs even sides: pad by a transparent row or column where they are odd.
    let even = ["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2:color=black@0"]
    switch self {
    case .gif:
      let palette = "palettegen=stats_mode=full" + (transparent ? ":reserve_transparent=1" : "")
      let use = "paletteuse=dither=sierra2_4a" + (transparent ? ":alpha_threshold=128" : "")
      return [
        "-filter_complex", "[0:v]split[a][b];[a]\(palette)[p];[b][p]\(use)", "-loop", "0",
        "-f", "gif",
      ]
    case .webm:
      return even + [
        "-c:v", "libvpx-vp9", "-pix_fmt", transparent ? "yuva420p" : "yuv420p", "-b:v", "0",
        "-crf", "30", "-deadline", "good", "-cpu-used", "4", "-row-mt", "1", "-f", "webm",
      ]
    case .mp4:
      return even + [
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
/// temporary pictures. ffmpeg writes to a hidden file beside the destination, renamed over it
/// only when the whole animation is done, so a failure or an interruption never leaves a
/// half-written file under the final name.
public final class VideoWriter {
  /// A failure, said in one line.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public let path: String
  public let format: VideoFormat
  private let process = Process()
  private let input: FileHandle
  private let errors = Pipe()
  private let temporary: String
  private var finished = false
  private var inputOpen = true

  /// The ffmpeg program on PATH, or nil.
  public static func findFFmpeg() -> URL? {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    return folders.map { URL(fileURLWithPath: String($0)).appending(path: "ffmpeg") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// Starts ffmpeg to write `path` from frames of `width` × `height` pixels at `fps`, with
  /// straight alpha; `transparent` keeps their alpha where the format can.
  public init(path: String, width: Int, height: Int, fps: Double, transparent: Bool) throws {
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
    let url = URL(fileURLWithPath: path)
    temporary =
      url.deletingLastPathComponent().appending(path: ".\(url.lastPathComponent).\(getpid()).part")
      .path
    let pipe = Pipe()
    input = pipe.fileHandleForWriting
    process.executableURL = ffmpeg
    process.arguments =
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba",
        "-s", "\(width)x\(height)", "-r", String(fps), "-i", "pipe:0",
      ] + format.outputArguments(transparent: transparent) + [temporary]
    process.standardInput = pipe
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    do {
      try process.run()
    } catch {
      throw Failure(
        description: "cannot start ffmpeg (\(ffmpeg.path)): \(error.localizedDescription)")
    }
    pipe.fileHandleForReading.closeFile()
  }

  deinit {
    if !finished { cancel() }
  }

  /// Sends one frame (straight alpha, `width` × `height` as given at the start).
  public func append(_ image: RGBAImage) throws {
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

  /// Ends the input, waits for ffmpeg, and puts the animation under its name.
  public func finish() throws {
    closeInput()
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw failure("ffmpeg failed")
    }
    finished = true
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw Failure(description: "cannot write \(path): \(reason)")
    }
  }

  /// Stops ffmpeg and removes what it wrote: nothing is left under either name.
  public func cancel() {
    finished = true
    closeInput()
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    unlink(temporary)
  }

  private func closeInput() {
    if inputOpen { input.closeFile() }
    inputOpen = false
  }

  /// A failure of ffmpeg's, with its last line of complaint or how it ended.
  private func failure(_ what: String) -> Failure {
    closeInput()
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    unlink(temporary)
    finished = true
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .split(separator: "\n").last.map(String.init)
    let how =
      process.terminationReason == .uncaughtSignal
      ? "killed by signal \(process.terminationStatus)"
      : "exit status \(process.terminationStatus)"
    return Failure(description: "cannot write \(path): \(what) (\(said ?? how))")
  }
}
