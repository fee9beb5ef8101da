import ArgumentParser
import CProcess
import Confetti
import ConfettiCore
import ConfettiGL
import ConfettiImage
import Foundation

/// `confetti render`: any moment of an effect to PNG, headless.
struct Render: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Render an effect to pictures or an animation, with no window and no display.",
    discussion: """
      At time 0 the effect opens as the window opens it: its start emitters, or its key \
      emitters where it has none (or its click ones, at their configured place). --trigger \
      fires more at chosen moments, as a press of space or a click in the window would: \
      key@1.5, click@400,300@2 (a place in window points, then seconds), start@3. The scene \
      runs in steps of 1/60 s to --time. The default effect is the classic cannon.
      A sequence (--frames N > 1 or --duration S) goes to numbered PNGs (OUT with a frame \
      number of at least 4 digits before the extension), or, with --out NAME.gif, .webm, .mp4 or .mov, to one \
      animation made by ffmpeg (apt-get install ffmpeg). --background transparent keeps the \
      alpha: in PNGs (straight alpha), GIF, WebM (VP9) and .mov (ProRes 4444); MP4 (H.264) has \
      none. --frame-range A:B renders frames A to B-1 of the sequence only, exactly as in the \
      whole, so that a long sequence can be split across processes or machines.
      """
  )

  @OptionGroup var effect: EffectOptions

  @Option(help: "Seconds after the effect starts.")
  var time: Double = 0.6

  @Option(help: "Seed for every random draw.")
  var seed: UInt64 = 1

  @Option(
    help: ArgumentHelp(
      "Also fire the effect's start, key or click emitters at a moment (seconds, default 0), "
        + "a click at a place (window points): start@3, key@1.5, click@400,300@2. Repeatable.",
      valueName: "trigger"))
  var trigger: [RenderTrigger] = []

  @Option(help: "Particles per burst, instead of each burst cell's count.")
  var count: Int?

  @Option(help: "Picture size in pixels, WIDTHxHEIGHT.")
  var size: PixelSize = PixelSize(width: 800, height: 600)

  @Option(help: "Pixels per window point (2 renders a HiDPI picture of the same scene).")
  var scale: Int = 1

  @Option(help: "How many frames to render, from --time on.")
  var frames: Int?

  @Option(help: "Seconds of animation to render, from --time on (instead of --frames).")
  var duration: Double?

  @Option(help: "Frames per second of a sequence.")
  var fps: Double = 30

  @Option(
    help: ArgumentHelp(
      "Only frames A to B-1 (from 0) of the sequence, numbered as in the whole.",
      valueName: "A:B"))
  var frameRange: FrameRange?

  @Option(
    help: ArgumentHelp(
      "The backdrop: transparent, or a colour #rrggbb or #rrggbbaa.",
      valueName: "colour"))
  var background: Backdrop = Backdrop(color: GLFrame.background)

  @Option(
    name: .shortAndLong,
    help: "The file to write: .png (a picture, or numbered pictures), .gif, .webm, .mp4, .mov.",
    completion: .file(extensions: ["png", "gif", "webm", "mp4", "mov"]))
  var out: String = "confetti.png"

  @Option(
    help: ArgumentHelp(
      "Also write the picture's particle records (NAME.bin, the 68-byte layout) and how to draw "
        + "them (NAME.json: uniforms, viewport, shaders), for a port of the shaders such as "
        + "Examples/webgl2. One picture; drawn as points.",
      valueName: "NAME.bin"))
  var records: String?

  /// How many frames the whole sequence has.
  var frameCount: Int {
    // (Counted in Double first: a huge --fps must be refused, not overflow.)
    frames ?? duration.map { Int(min(max(1, ($0 * fps).rounded()), 1e9)) } ?? 1
  }

  /// The frames this run renders.
  var renderedFrames: Range<Int> {
    guard let frameRange else { return 0..<frameCount }
    return (frameRange.first..<max(frameRange.first, frameRange.end)).clamped(to: 0..<frameCount)
  }

  /// The animation format --out names; nil for PNG.
  var video: VideoFormat? { VideoFormat(path: out) }

  /// The scene's steps between pictures: births are decided per step, as in the window.
  static let step: Seconds = oneFrame
  /// The clock reading at which the effect opens: a second in, so that the effect's "time 0"
  /// has room before it (a prewarm's births). The window opens its first effect there too.
  static let startTime: Seconds = 1

  func validate() throws {
    guard time.isFinite, time >= 0, time <= 3600 else {
      throw ValidationError("--time must be a number of seconds from 0 to 3600")
    }
    guard fps.isFinite, fps > 0 else { throw ValidationError("--fps must be finite and > 0") }
    if frames != nil, duration != nil {
      throw ValidationError("give --frames or --duration, not both")
    }
    if let duration, !(duration.isFinite && duration > 0 && duration <= 3600) {
      throw ValidationError("--duration must be a number of seconds above 0, at most 3600")
    }
    guard (1...100_000).contains(frameCount) else {
      throw ValidationError("--frames must be 1 to 100000 (--duration times --fps too)")
    }
    if let frameRange, try frameRange.checked().upperBound > frameCount {
      throw ValidationError(
        "--frame-range \(frameRange) reaches past the sequence's \(frameCount) frames "
          + "(0:\(frameCount) is all of it)")
    }
    guard (1...8).contains(scale) else { throw ValidationError("--scale must be 1 to 8") }
    guard size.width / scale >= 1, size.height / scale >= 1 else {
      throw ValidationError(
        "--size \(size) at --scale \(scale) leaves no window: the size must be at least the scale")
    }
    let last = time + Double(frameCount - 1) / fps
    guard last <= 3600 else {
      throw ValidationError(
        "the last frame would be at \(format(last)) s; --time plus (--frames - 1) / --fps must "
          + "stay within 3600 s")
    }
    let isPNG = URL(fileURLWithPath: out).pathExtension.lowercased() == "png"
    guard isPNG || video != nil else {
      throw ValidationError(
        "--out must name a .png, .gif, .webm, .mp4 or .mov file, not '\(oneLine(out))'")
    }
    if let video, let refusal = video.refusal(width: size.width, height: size.height, fps: fps) {
      throw ValidationError(refusal)
    }
    if let video, video == .mp4, background.color.alpha < 255 {
      throw ValidationError(
        "\(video.name) has no transparency: write .webm or .mov for a transparent background, "
          + "or give --background an opaque colour (#rrggbb)")
    }
    if let count, !(1...1_000_000).contains(count) {
      throw ValidationError("--count must be 1 to 1000000")
    }
    if let records {
      guard records.lowercased().hasSuffix(".bin") else {
        throw ValidationError("--records must name a .bin file, not '\(oneLine(records))'")
      }
      guard frameCount == 1, video == nil else {
        throw ValidationError(
          "--records writes one picture's records: give no --frames, --duration or animation")
      }
    }
  }

  func run() throws {
    // From the start: a signal while the GL is set up is noted, and acted on at the first frame.
    Interruption.watch()
    try reportingFailures {
      var effect = try self.effect.load(fallback: "cannon")
      if let count {
        for e in effect.config.emitters.indices
        where effect.config.emitters[e].emission == .burst {
          for c in effect.config.emitters[e].cells.indices {
            effect.config.emitters[e].cells[c].count = count
          }
        }
      }
      let context = try DriverMessages.silenced { try HeadlessContext() }
      // Every GL object below dies on this context: it must outlive them all.
      try withExtendedLifetime(context) { try render(effect, on: context) }
    }
  }

  private func render(_ effect: Effect, on context: HeadlessContext) throws {
    // Nothing written may be the effect it is made from: its file, or its pictures.
    let inputs = self.effect.files(of: effect)
    if video == nil {
      for frame in renderedFrames { try OutputFile.check(picture(frame), sparing: inputs) }
    } else {
      try OutputFile.check(out, sparing: inputs)
    }
    if let records {
      try OutputFile.check(records, sparing: inputs)
      try OutputFile.check(RecordExport.descriptionPath(of: records), sparing: inputs)
      let scene = try EffectScene(config: effect.config.validated(), capacity: 1, seed: seed)
      guard !scene.expectedFeatures.contains(.images) else {
        throw RenderError(
          description: "--records cannot carry this effect's picture shapes (emoji, text, "
            + "images): their texture atlas is not exported; choose an effect without them")
      }
    }
    let target = try OffscreenTarget(width: size.width, height: size.height, info: context.info)
    defer { target.release() }
    let system = try ConfettiSystem(
      effect: effect,
      size: Size(width: Double(size.width / scale), height: Double(size.height / scale)),
      seed: seed, reduceMotion: self.effect.wantsReducedMotion,
      primitive: records == nil ? self.effect.primitive : .points)
    defer { system.release() }
    // The picture's context is the system's own, and its rectangle never changes.
    system.glStatePolicy = .cache
    let writer = try video.map {
      _ in
      try VideoWriter(
        path: out, width: size.width, height: size.height, fps: fps,
        transparent: background.color.alpha < 255)
    }
    let start = Self.startTime
    system.fireOpening(time: start)
    // The others in the order of their moments, each fired as the clock reaches it.
    var pending = trigger.sorted { $0.time < $1.time }[...]
    func fireDue(by clock: Seconds) {
      while let next = pending.first, start + next.time <= clock {
        system.trigger(next.kind, at: next.point, time: start + next.time)
        pending.removeFirst()
      }
    }
    fireDue(by: start)
    var progress = ProgressBar(total: renderedFrames.count, shown: frameCount > 1)
    var clock = start
    target.bind()
    // Every frame from the first is stepped to, drawn or not: the emission is replayed the
    // same way whichever frames this run renders.
    for frame in 0..<renderedFrames.upperBound {
      let now = start + time + Double(frame) / fps
      while clock < now {
        // A step ends at the next trigger's moment, if it comes first.
        let due = pending.first.map { start + $0.time } ?? .infinity
        clock = min(now, clock + Self.step, max(clock, due))
        system.advance(to: clock)
        fireDue(by: clock)
      }
      guard renderedFrames.contains(frame) else { continue }
      // Before the frame's work and once more before anything of it is written: a big frame
      // takes seconds, and a signal meanwhile must not let it be written.
      func stopIfInterrupted() throws {
        guard let signal = Interruption.caught else { return }
        writer?.cancel()
        progress.clear()
        throw InterruptedError(signal: signal, out: out, whole: video != nil || frameCount == 1)
      }
      try stopIfInterrupted()
      GLFrame.clear(to: background.color)
      let exported =
        records == nil ? nil : try system.drawExported(in: target.rect, time: now)
      if exported == nil { try system.draw(in: target.rect, time: now) }
      if let exported, exported.records.isEmpty {
        throw RenderError(
          description: "no piece is in flight at \(format(time)) s, so there are no records to "
            + "write: give a --time when pieces are")
      }
      let image = try target.read().unpremultiplied()
      try stopIfInterrupted()
      if let writer {
        try writer.append(image)
      } else {
        do {
          // Encoding a big picture takes a while: a signal meanwhile stops it unwritten.
          let encoded = try PNG.encode(image)
          try stopIfInterrupted()
          try OutputFile.write(encoded, to: picture(frame))
        } catch  where frame > renderedFrames.lowerBound && frameCount > 1 {
          // The frames before it are whole: say so, and how to render the rest.
          let whole = renderedFrames.lowerBound..<frame
          throw RenderError(
            description: "\(error); \(pictures(whole)) \(whole.count == 1 ? "is" : "are") "
              + "written: --frame-range \(frame):\(renderedFrames.upperBound) renders the rest")
        }
      }
      if let exported, let records {
        do {
          try RecordExport.write(
            exported, to: records, size: size, background: background.color, time: time)
        } catch {
          // All three files or none.
          unlink(out)
          throw error
        }
      }
      // A single picture stopped while it was being written is not kept: no exit 0 after a
      // signal. (A sequence's pictures are each whole, and said so.)
      if frameCount == 1, writer == nil, let signal = Interruption.caught {
        unlink(out)
        if let records {
          unlink(records)
          unlink(RecordExport.descriptionPath(of: records))
        }
        throw InterruptedError(signal: signal, out: out, whole: true)
      }
      progress.advance()
    }
    try writer?.finish()
    progress.clear()
    // The report is not the work: with standard output closed, or full, the pictures stand on
    // their own (they are written), and the render succeeds.
    if !StandardStreams.outputWasClosed {
      print(oneLine(summary))
      if confetti_flush_standard_output() != 0 || confetti_standard_output_failed() != 0 {
        let reason = String(cString: strerror(errno))
        confetti_discard_standard_output()
        say("note: standard output could not take the report (\(reason)): \(summary)")
      }
    }
    if let writer, !writer.wasReadBack {
      say(
        "note: ffprobe is not installed beside ffmpeg or on PATH, so \(writer.path)'s frames "
          + "were not counted back: apt-get install ffmpeg")
    }
    // What the effect promised but the picture cannot show is said, never silently left out.
    if system.droppedCount > 0 {
      say(
        "note: \(system.droppedCount) pieces the effect makes are not drawn: more are born at "
          + "once than one scene holds")
    }
  }

  /// The last line: what was written where.
  private var summary: String {
    let rendered = renderedFrames
    let pixels = "\(size.width)×\(size.height)"
    if video == nil, frameCount == 1 {
      let described = records.map {
        ", its records \($0) and \(RecordExport.descriptionPath(of: $0))"
      }
      return "wrote \(out) (\(pixels))\(described ?? "")"
    }
    let seconds = format(Double(rendered.count) / fps)
    let frames = rendered.count == 1 ? "1 frame" : "\(rendered.count) frames"
    let what = "\(frames) (\(seconds) s at \(format(fps)) fps, \(pixels))"
    if let video { return "wrote \(what) to \(out), \(video.name)" }
    return "wrote \(what) to \(pictures(rendered))"
  }

  /// The PNG files of `frames`, for a message: the first … the last, or the one.
  private func pictures(_ frames: Range<Int>) -> String {
    frames.count == 1
      ? picture(frames.lowerBound)
      : "\(picture(frames.lowerBound)) … \(picture(frames.upperBound - 1))"
  }

  /// The PNG file of `frame`: OUT itself for a single picture, numbered in a sequence.
  private func picture(_ frame: Int) -> String {
    frameCount == 1 ? out : numbered(out, frame)
  }

  private func numbered(_ path: String, _ frame: Int) -> String {
    let url = URL(fileURLWithPath: path)
    let ext = url.pathExtension.isEmpty ? "png" : url.pathExtension
    let stem = url.deletingPathExtension().path
    // At least four digits, and as many as the last frame's: names sort as frames do.
    let digits = max(4, String(frameCount - 1).count)
    let number = String(frame)
    return stem + "-" + String(repeating: "0", count: max(0, digits - number.count)) + number
      + "." + ext
  }
}

/// `--trigger start|key|click[@X,Y][@T]`: emitters fired at a moment of a render, as the window
/// fires them at a key press or a click.
struct RenderTrigger: ExpressibleByArgument, CustomStringConvertible {
  var kind: EmitterTrigger
  /// Where a click is, in window points; nil: the emitters' configured places.
  var point: Point?
  /// Seconds after the effect starts.
  var time: Seconds

  init?(argument: String) {
    var parts = argument.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
    guard let kind = EmitterTrigger(rawValue: parts.removeFirst()), parts.count <= 2 else {
      return nil
    }
    (self.kind, point, time) = (kind, nil, 0)
    if kind == .click, let place = parts.first, place.contains(",") {
      let xy = place.split(separator: ",", omittingEmptySubsequences: false)
      guard xy.count == 2, let x = Double(xy[0]), let y = Double(xy[1]), x.isFinite,
        y.isFinite, abs(x) <= 1_000_000, abs(y) <= 1_000_000
      else { return nil }
      point = Point(x: x, y: y)
      parts.removeFirst()
    }
    if let moment = parts.first {
      guard parts.count == 1, let seconds = Double(moment), seconds.isFinite,
        (0...3600).contains(seconds)
      else { return nil }
      time = seconds
    }
  }

  var description: String {
    let place = point.map { "@\(format($0.x)),\(format($0.y))" } ?? ""
    return "\(kind.rawValue)\(place)@\(format(time))"
  }

  static var defaultValueDescription: String { "start|key|click[@X,Y][@seconds]" }
}

/// `--frame-range A:B`: frames A to B-1, counted from 0.
struct FrameRange: ExpressibleByArgument, CustomStringConvertible {
  init?(argument: String) {
    let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]) else { return nil }
    (first, end) = (a, b)
  }

  /// A, and B (one past the last frame), as given.
  var first: Int
  var end: Int

  /// Frames A to B-1: A from 0, B above A (an empty or reversed range says why).
  func checked() throws -> Range<Int> {
    guard first >= 0 else {
      throw ValidationError("--frame-range \(self) starts before frame 0: frames count from 0")
    }
    guard end > first else {
      throw ValidationError(
        "--frame-range \(self) holds no frame: A:B renders frames A to B-1, so B must be above A")
    }
    return first..<end
  }

  var description: String { "\(first):\(end)" }
}

/// `--background`: `transparent`, `#rrggbb` or `#rrggbbaa`.
struct Backdrop: ExpressibleByArgument {
  var color: RGBA8

  init(color: RGBA8) { self.color = color }

  init?(argument: String) {
    if argument.lowercased() == "transparent" {
      color = .transparent
      return
    }
    let hex = argument.hasPrefix("#") ? argument.dropFirst() : Substring(argument)
    guard hex.count == 6 || hex.count == 8, let value = UInt32(hex, radix: 16) else { return nil }
    let full = hex.count == 6 ? value << 8 | 0xff : value
    color = RGBA8(
      red: UInt8(full >> 24), green: UInt8(full >> 16 & 0xff), blue: UInt8(full >> 8 & 0xff),
      alpha: UInt8(full & 0xff))
  }

  var defaultValueDescription: String { "#12141c" }
}

/// A render that cannot be done as asked, said in one line: a picture of a sequence that could
/// not be written after others were, records that cannot carry the effect.
struct RenderError: Error, CustomStringConvertible {
  var description: String
}

/// A signal that asks to stop (``Interruption/stopping``) during a render: what was being
/// written is removed.
struct InterruptedError: Error, CustomStringConvertible {
  var signal: Int32
  var out: String
  /// Whether `out` is one file (an animation, a picture), not a numbered sequence.
  var whole: Bool
  var description: String {
    let name = signal == SIGINT ? "interrupted" : "stopped by signal \(signal)"
    return whole
      ? "\(name): \(out) was not written" : "\(name): the frames written so far are whole"
  }
}

/// The signals that ask the program to stop (``stopping``), noted instead of ending it at once,
/// so that a render can remove its half-made file first and the window and overlay can close
/// their windows.
enum Interruption {
  nonisolated(unsafe) private static var received: Int32 = 0
  /// Posted by the signal handler (sem_post is safe there) to wake the watchdog.
  nonisolated(unsafe) private static let arrived: UnsafeMutablePointer<sem_t> = {
    let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    sem_init(semaphore, 0, 0)
    return semaphore
  }()

  /// How long the overlay may take to end by itself after a signal: past it, the program exits
  /// (status 0, as a clean end) whatever it is waiting for (a window manager, the driver).
  static let promptEnd: Seconds = 0.5

  /// Starts noting the signals. With a `deadline`, a watchdog thread exits the program that
  /// long after the first one, if it has not ended by then.
  static func watch(endingWithin deadline: Seconds? = nil) {
    // Everything the handler touches is set up now, before it can run: a global's first use
    // allocates, and a handler that interrupts malloc (the GL driver's, setting up) and then
    // allocates waits for ever on malloc's lock.
    _ = (Interruption.arrived, Interruption.received)
    if let deadline {
      Thread.detachNewThread {
        while sem_wait(Interruption.arrived) != 0 {}
        Thread.sleep(forTimeInterval: deadline)
        _exit(0)
      }
    }
    for number in stopping {
      signal(number) {
        Interruption.received = $0
        sem_post(Interruption.arrived)
      }
    }
  }

  /// The signals that ask the program to stop, noted rather than ending it at once: Ctrl-C,
  /// Ctrl-\\, SIGTERM, a closed terminal (SIGHUP), and those whose default would end it
  /// as abruptly (SIGUSR1, SIGUSR2, SIGALRM).
  static let stopping = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM]

  /// The signal received, if any.
  static var caught: Int32? { received == 0 ? nil : received }
}

/// A progress bar on standard error, for a terminal only: `rendering ━━━━━━──── 45/120`.
struct ProgressBar {
  let total: Int
  let shown: Bool
  private var done = 0
  private static let width = 30

  init(total: Int, shown: Bool) {
    self.total = total
    self.shown = shown && isatty(STDERR_FILENO) != 0
  }

  mutating func advance() {
    done += 1
    guard shown else { return }
    let filled = Self.width * done / max(1, total)
    let bar =
      String(repeating: "━", count: filled) + String(repeating: "─", count: Self.width - filled)
    StandardStreams.writeError("\rrendering \(bar) \(done)/\(total)")
  }

  func clear() {
    if shown { StandardStreams.writeError("\r\u{1B}[K") }
  }
}

/// Seconds in messages: at most three decimals, no trailing zeros.
private func format(_ seconds: Double) -> String {
  seconds < 1e9
    ? String(format: "%.3f", seconds).replacingOccurrences(
      of: #"\.?0+$"#, with: "", options: .regularExpression) : String(seconds)
}
