import Confetti
import ConfettiCore
import ConfettiGL
import ConfettiImage
import ConfettiPlatform
import Dispatch
import FoundationEssentials
import Glibc

/// What a render makes: one picture, a numbered sequence of pictures, or an animation (GIF,
/// WebM, MP4, MOV through ffmpeg), of an effect from a moment on. `confetti render` is a user
/// of it, and so are the C and Python renders (`confetti_render_options`, `render()`'s keyword
/// arguments): the same options, and the same defaults, give the same files.
public struct RenderOptions: Sendable {
  /// The file to write: `.png` (a picture, or numbered pictures `NAME-0000.png`…), `.gif`,
  /// `.webm`, `.mp4` or `.mov`.
  public var out: String
  /// The picture's size in pixels; nil: ``defaultPictureSize`` for one picture or a sequence,
  /// ``defaultVideoSize`` for an animation (``pixels``).
  public var size: PixelSize?
  /// Pixels per window point: 2 renders a HiDPI picture of the same scene.
  public var scale = 1
  /// The first frame's moment, in seconds after the effect starts; nil: 0 for a clip (from the
  /// effect's first moment), ``defaultTime`` for one picture (its pieces in flight). The same
  /// default in every language and the program: ``firstMoment``.
  public var time: Seconds?
  /// How many frames the whole sequence has, from ``time`` on, ``fps`` apart; nil: one picture
  /// for a `.png`, and for an animation as many as the effect lasts (``endsWithEffect``).
  public var frames: Int?
  /// The clip ends when the effect is over, its first frame with nothing left included (a
  /// numbered sequence of pictures, which would otherwise be one picture; an animation does so
  /// when given no ``frames``). Not with ``frames``.
  public var untilOver = false
  /// Frames per second of a sequence.
  public var fps: Double = 30
  /// Only these frames of the sequence, numbered as in the whole (nil: all of them), so that a
  /// long sequence can be split across processes or machines.
  public var frameRange: Range<Int>?
  /// The backdrop; an alpha below 255 is kept where the format has transparency.
  public var background = GLFrame.background
  /// Emitters fired at moments of the render, as a key press or a click in the window would.
  public var triggers: [RenderTrigger] = []
  /// Every random draw comes from it.
  public var seed: UInt64 = 1
  /// Each piece appears near where its motion would take it and fades in place.
  public var reduceMotion = false
  /// What the pieces are drawn as: by default the fastest on this GL.
  public var primitive = SpritePrimitive.auto
  /// Also write the picture's particle records here (`NAME.bin`), and how to draw them beside
  /// it (`NAME.json`): one picture only, drawn as points.
  public var records: String?
  /// Files the render must never write over: the effect's own file and pictures.
  public var inputs: [String] = []
  /// How an animation's encoder trades time for quality.
  public var quality = ExportQuality.standard
  /// Waits for the GL after each frame's draw, so that ``RenderTimings`` shows the drawing
  /// apart from the read-back (which otherwise waits for it). Slower: for measuring.
  public var timesStages = false
  /// Also checks the frames rendered for flashes that could harm a person with photosensitive
  /// epilepsy (WCAG 2.3.1, ``FlashCheck``), over the background: the result is
  /// ``RenderResult/flashes``. Needs more than one frame and an opaque background.
  public var checksFlashes = false

  /// A picture's size when none is given.
  public static let defaultPictureSize = PixelSize(width: 800, height: 600)
  /// An animation's size when none is given: a video size, 720p.
  public static let defaultVideoSize = PixelSize(width: 1280, height: 720)

  /// The picture's size: ``size``, or its default.
  public var pixels: PixelSize {
    size ?? (video != nil ? Self.defaultVideoSize : Self.defaultPictureSize)
  }

  /// The first frame's moment when none is given, in seconds.
  public static let defaultTime: Seconds = 0.6
  /// The most frames one render makes.
  public static let mostFrames = 100_000

  /// The frames a clip that ends with its effect is checked with before its length is known
  /// (``Export/framesUntilOver(of:_:name:naming:)`` counts them after): an animation's, and
  /// enough for a frame range ending at `end`, within ``mostFrames``.
  public static func framesBeforeTheLengthIsKnown(rangeEnd end: Int?) -> Int {
    max(2, min(end ?? 2, mostFrames))
  }
  /// The latest moment a frame may show, in seconds after the effect starts.
  public static let latestTime: Seconds = 3600
  /// The most pixels per point.
  public static let largestScale = 8

  /// Settings for writing `out`, every other one at its default.
  public init(out: String) { self.out = out }

  /// The backdrop `text` names: `transparent`, or a colour `#rrggbb` or `#rrggbbaa` (the `#`
  /// may be left out); nil for anything else.
  public static func background(named text: String) -> RGBA8? {
    if text.lowercased() == "transparent" { return .transparent }
    let hex = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
    // Hex digits only: UInt32(_:radix:) would also take a sign ("+fffff").
    guard hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit),
      let value = UInt32(hex, radix: 16)
    else { return nil }
    let full = hex.count == 6 ? value << 8 | 0xff : value
    return RGBA8(
      red: UInt8(full >> 24), green: UInt8(full >> 16 & 0xff), blue: UInt8(full >> 8 & 0xff),
      alpha: UInt8(full & 0xff))
  }

  /// The animation format ``out`` names; nil for PNG.
  public var video: VideoFormat? { VideoFormat(path: out) }

  /// The window the scene is laid out in, in points: the picture's size over its scale.
  var points: Size {
    Size(width: Double(pixels.width / scale), height: Double(pixels.height / scale))
  }

  /// Whether this makes a clip (a sequence or an animation), not one picture.
  public var makesClip: Bool { video != nil || untilOver || (frames ?? 1) > 1 }

  /// The first frame's moment: ``time``, or its default.
  public var firstMoment: Seconds { time ?? (makesClip ? 0 : Self.defaultTime) }

  /// Whether the clip lasts as long as the effect: ``untilOver``, or an animation given no
  /// ``frames``. ``Export/render(_:_:named:naming:progress:shouldStop:)`` counts its frames first.
  public var endsWithEffect: Bool { untilOver || (frames == nil && video != nil) }

  /// How many frames the sequence has, as far as is known before the render: ``frames``, or
  /// one (an effect's length is counted as the render starts).
  var frameCount: Int { frames ?? 1 }

  /// The frames this render makes: exact once the options are ``resolved(for:named:naming:)``
  /// (before, a clip that ends with the effect counts one).
  public var renderedFrames: Range<Int> {
    guard let frameRange else { return 0..<frameCount }
    return frameRange.clamped(to: 0..<frameCount)
  }

  /// Throws ``RenderError`` unless these settings can be rendered, saying why in one line.
  /// `option` turns a setting's name (`fps`, `frame_range`) into the caller's spelling of it:
  /// the program's `--fps`, or a keyword argument's `fps`.
  public func check(naming option: (String) -> String = { $0 }) throws {
    func refuse(_ why: String) -> RenderError { RenderError(description: why) }
    guard firstMoment.isFinite, (0...Self.latestTime).contains(firstMoment) else {
      throw refuse("\(option("time")) must be a number of seconds from 0 to 3600")
    }
    guard fps.isFinite, fps > 0 else { throw refuse("\(option("fps")) must be finite and > 0") }
    if let frames {
      guard !untilOver else {
        throw refuse(
          "give \(option("frames")) or \(option("until_over")), not both (\(option("frames")) "
            + "\(frames))")
      }
      guard (1...Self.mostFrames).contains(frames) else {
        throw refuse("\(option("frames")) must be 1 to \(Self.mostFrames)")
      }
    }
    // A clip that ends with the effect is checked with the frames it has at least.
    let frames =
      endsWithEffect
      ? Self.framesBeforeTheLengthIsKnown(rangeEnd: frameRange?.upperBound) : frameCount
    if let frameRange {
      guard frameRange.lowerBound >= 0, !frameRange.isEmpty else {
        throw refuse(
          "\(option("frame_range")) \(frameRange.lowerBound):\(frameRange.upperBound) holds no "
            + "frame: it runs from a first frame (0 or more) to one past the last")
      }
      guard frameRange.upperBound <= frames else {
        throw refuse(
          "\(option("frame_range")) \(frameRange.lowerBound):\(frameRange.upperBound) reaches "
            + "past the sequence's \(frames) frames (0:\(frames) is all of it)")
      }
    }
    guard (1...Self.largestScale).contains(scale) else {
      throw refuse("\(option("scale")) must be 1 to \(Self.largestScale)")
    }
    // (How large a picture this GL draws is the GL's to say, as the render starts.)
    let size = pixels
    guard size.width >= 1, size.height >= 1 else {
      throw refuse("\(option("size")) \(size) holds no pixel: each side must be 1 or more")
    }
    guard size.width / scale >= 1, size.height / scale >= 1 else {
      throw refuse(
        "\(option("size")) \(size) at \(option("scale")) \(scale) leaves no window: the size "
          + "must be at least the scale")
    }
    let last = firstMoment + Double(frames - 1) / fps
    guard last <= Self.latestTime else {
      throw refuse(
        "the last frame would be at \(format(last)) s; \(option("time")) plus "
          + "(\(option("frames")) - 1) / \(option("fps")) must stay within 3600 s")
    }
    let isPNG = URL(fileURLWithPath: out).pathExtension.lowercased() == "png"
    guard isPNG || video != nil else {
      throw refuse(
        "\(option("out")) must name a .png, .gif, .webm, .mp4 or .mov file, not "
          + "'\(oneLine(out))'")
    }
    if let video,
      let refusal = video.refusal(
        width: size.width, height: size.height, fps: fps, naming: option)
    {
      throw refuse(refusal)
    }
    if let video, !video.keepsTransparency, background.alpha < 255 {
      throw refuse(
        "\(video.name) has no transparency: write .webm or .mov for a transparent background, "
          + "or give \(option("background")) an opaque colour (#rrggbb)")
    }
    if checksFlashes {
      guard frames > 1 else {
        throw refuse(
          "a flash check needs an animation: give \(option("duration")) or \(option("frames"))")
      }
      guard background.alpha == 255 else {
        throw refuse(
          "flashes are checked over a colour: give \(option("background")) an opaque one "
            + "(#000000 and #ffffff are the extremes)")
      }
    }
    if let records {
      guard records.lowercased().hasSuffix(".bin") else {
        throw refuse("\(option("records")) must name a .bin file, not '\(oneLine(records))'")
      }
      guard frames == 1, video == nil else {
        throw refuse(
          "\(option("records")) writes one picture's records: render one picture, not a "
            + "sequence or an animation")
      }
    }
  }

  /// The PNG file of `frame`: ``out`` itself for a single picture, numbered in a sequence (at
  /// least four digits, and as many as the last frame's: names sort as frames do). On
  /// ``resolved(for:named:naming:)`` options.
  public func picture(_ frame: Int) -> String {
    guard frameCount > 1 else { return out }
    let url = URL(fileURLWithPath: out)
    let ext = url.pathExtension.isEmpty ? "png" : url.pathExtension
    let stem = url.deletingPathExtension().path
    let digits = max(4, String(frameCount - 1).count)
    let number = String(frame)
    return stem + "-" + String(repeating: "0", count: max(0, digits - number.count)) + number
      + "." + ext
  }

  /// The PNG files of `frames`, for a message: the first … the last, or the one.
  func pictures(_ frames: Range<Int>) -> String {
    frames.count == 1
      ? picture(frames.lowerBound)
      : "\(picture(frames.lowerBound)) … \(picture(frames.upperBound - 1))"
  }
}

/// Emitters fired at a moment of a render, as the window fires them at a key press or a click.
public struct RenderTrigger: Sendable, Equatable {
  /// Which emitters: the effect's start, key or click ones.
  public var kind: EmitterTrigger
  /// Where a click is, in window points; nil: the emitters' configured places.
  public var point: Point?
  /// Seconds after the effect starts.
  public var time: Seconds

  /// The emitters `kind` starts, at `point` (nil: their own places), `time` seconds in.
  public init(_ kind: EmitterTrigger, at point: Point? = nil, time: Seconds) {
    (self.kind, self.point, self.time) = (kind, point, time)
  }
}

/// How far a render has come: `done` of `total` frames written, and then, for an animation,
/// ffmpeg finishing the file.
public struct RenderProgress: Sendable, Equatable {
  /// Frames written so far.
  public var done: Int
  /// Frames this render writes.
  public var total: Int
  /// Whether every frame is sent and ffmpeg is finishing the file (its last frames' encoding,
  /// the container, the count read back): told once, after the last frame's progress.
  public var finishing: Bool

  /// `done` of `total` frames, or, `finishing`, all of them and the file being finished.
  public init(done: Int, total: Int, finishing: Bool = false) {
    (self.done, self.total, self.finishing) = (done, total, finishing)
  }
}

/// What a render wrote.
public struct RenderResult: Sendable, CustomStringConvertible {
  /// The files written, in order: the picture or pictures, the animation, the records.
  public var files: [String]
  /// Whether an animation's frames were counted back with ffprobe (false where ffprobe is not
  /// installed; a picture is always whole).
  public var wasReadBack: Bool
  /// Pieces the effect makes that were not drawn: more are born at once than a scene holds.
  public var droppedCount: Int
  /// One line: what was written where.
  public var description: String
  /// Where the render's time went.
  public var timings = RenderTimings()
  /// The flash check of the frames rendered, where ``RenderOptions/checksFlashes`` asked.
  public var flashes: FlashCheck?
}

/// Where a render's time went, in seconds, stage by stage: what ``RenderOptions/timesStages``
/// shows apart. A PNG sequence's pictures are made straight, encoded and written on other
/// threads while the next frames are drawn: those three are summed over the threads.
public struct RenderTimings: Sendable, Equatable {
  /// Stepping the emission from frame to frame (births, and the records written).
  public var emission: Seconds = 0
  /// Clearing and drawing each frame; with ``RenderOptions/timesStages``, the GL's work
  /// waited for too (else it is the read-back's).
  public var drawing: Seconds = 0
  /// Reading each frame's pixels back from the GL.
  public var readBack: Seconds = 0
  /// Making the premultiplied pixels straight.
  public var converting: Seconds = 0
  /// Encoding PNG pictures.
  public var encoding: Seconds = 0
  /// Writing PNG pictures to their files.
  public var writing: Seconds = 0
  /// Sending an animation's frames down ffmpeg's pipe: waiting for the encoder, where it is
  /// the slower.
  public var piping: Seconds = 0
  /// Waiting for ffmpeg to finish the file once every frame is sent (and reading it back).
  public var finishing: Seconds = 0

  /// The stages, named, in order.
  public var stages: [(name: String, seconds: Seconds)] {
    [
      ("emission", emission), ("drawing", drawing), ("read-back", readBack),
      ("conversion", converting), ("PNG encoding", encoding), ("writing", writing),
      ("the pipe to ffmpeg", piping), ("ffmpeg finishing", finishing),
    ]
  }
}

/// A render that cannot be done as asked, said in one line: settings that are refused, a
/// picture of a sequence that could not be written after others were, records that cannot
/// carry the effect.
public struct RenderError: Error, CustomStringConvertible {
  public var description: String
  /// A render refused, saying why.
  public init(description: String) { self.description = description }
}

/// A render stopped part-way because it was asked to: what was being written is removed.
public struct RenderStopped: Error, CustomStringConvertible {
  /// The file that was being written.
  public var out: String
  /// Whether `out` is one file (an animation, a picture), not a numbered sequence, whose
  /// finished pictures are kept.
  public var whole: Bool
  public var description: String {
    whole ? "\(out) was not written" : "the frames written so far are whole"
  }
}

/// ``RenderOptions``, by its name before 0.6.
@available(*, deprecated, renamed: "RenderOptions")
public typealias RenderSettings = RenderOptions

extension RenderOptions {
  /// These settings with every default made exact, as a render makes them: the first moment
  /// (``firstMoment``), then the frames of a clip that ends with the effect, counted from it
  /// (``Export/framesUntilOver(of:_:name:naming:)``). Throws ``RenderError``, as
  /// ``check(naming:)`` does, when they cannot be rendered; `name` is the effect as the caller
  /// knows it, for the messages (by default its own name).
  public func resolved(
    for effect: Effect, named name: String? = nil, naming option: (String) -> String = { $0 }
  ) throws -> RenderOptions {
    try check(naming: option)
    var settings = self
    settings.time = firstMoment
    settings.size = pixels
    if endsWithEffect {
      settings.frames = try Export.framesUntilOver(
        of: effect, settings, name: name ?? effect.config.name, naming: option)
      settings.untilOver = false
      try settings.check(naming: option)
    }
    return settings
  }
}

/// Renders effects to files, headless, on a GL context of its own.
public enum Export {
  /// The scene's steps between pictures: births are decided per step, as in the window.
  static let step: Seconds = oneFrame

  /// Renders `effect` as `settings` say; returns what was written.
  ///
  /// The frames are made on a thread of the render's own, with a headless GL context of its
  /// own current there, so that the calling thread's GL context (a host's window) is never
  /// touched. This call waits for it, and calls `progress` after each frame (the next frame
  /// waits for it), and once more for an animation as ffmpeg finishes it
  /// (``RenderProgress/finishing``), and `shouldStop` after each and every few hundredths of a second meanwhile,
  /// both on the calling thread. Once `shouldStop` says true the render stops before its next
  /// frame, removes what it was writing (an animation, a single picture; a sequence keeps its
  /// whole pictures) and throws ``RenderStopped``; a stop asked after the last frame still
  /// stops it, so a caller that asked to stop is never told the render succeeded. Nothing is
  /// written over the effect's own files (`settings.inputs`), nothing is left half-written, and
  /// the library prints nothing. Messages name settings as `option` spells them (see
  /// ``RenderOptions/check(naming:)``).
  ///
  /// A clip that ends with the effect (``RenderOptions/endsWithEffect``) has its frames
  /// counted first; `name` is the effect as the caller knows it (a preset's name, a file's
  /// path) for the messages, by default the effect's own name.
  public static func render(
    _ effect: Effect, _ settings: RenderOptions, named name: String? = nil,
    naming option: @escaping @Sendable (String) -> String = { $0 },
    progress: ((RenderProgress) -> Void)? = nil,
    shouldStop: () -> Bool = { false }
  ) throws -> RenderResult {
    try render(
      effect, settings, named: name, naming: option, silencingDrivers: false,
      progress: progress, shouldStop: shouldStop)
  }

  /// ``render(_:_:named:naming:progress:shouldStop:)``, with the graphics drivers' own messages kept
  /// off standard error while the context is made (``DriverMessages``): the program's choice,
  /// whose standard error is its own. A library never redirects its host's.
  package static func render(
    _ effect: Effect, _ settings: RenderOptions, named name: String? = nil,
    naming option: @escaping @Sendable (String) -> String, silencingDrivers: Bool,
    progress: ((RenderProgress) -> Void)?, shouldStop: () -> Bool
  ) throws -> RenderResult {
    let settings = try settings.resolved(for: effect, named: name, naming: option)
    let shared = SharedState()
    // Big pictures and ffmpeg's pipes want more than a secondary thread's default stack. The
    // thread is joined before this returns, whatever it returns: a host may exit at once, and a
    // thread still ending then (its drivers' thread-local state freed) raced exit's own frees.
    let thread = try JoinedThread(stackSize: 8 << 20) {
      // A write to an ffmpeg that has died raises SIGPIPE in the writing thread: kept pending
      // on this one, it ends neither the program nor a host, and the write says EPIPE.
      var pipe = sigset_t()
      sigemptyset(&pipe)
      sigaddset(&pipe, SIGPIPE)
      pthread_sigmask(SIG_BLOCK, &pipe, nil)
      let result = Result {
        let context =
          silencingDrivers
          ? try DriverMessages.silenced { try HeadlessContext() } : try HeadlessContext()
        // Every GL object below dies on this context: it must outlive them all.
        return try withExtendedLifetime(context) {
          try renderFrames(
            effect, settings, on: context, naming: option,
            progress: { shared.tell($0) }, shouldStop: { shared.isStopping })
        }
      }
      shared.finish(with: result)
    }
    defer { thread.join() }
    while true {
      let (reached, result) = shared.next(within: 0.05)
      if let reached {
        progress?(reached)
        if shouldStop() { shared.stop() }
        shared.acknowledge()
      } else if result == nil, !shared.isStopping, shouldStop() {
        shared.stop()
      }
      if let result { return try result.get() }
    }
  }

  /// What the render's thread and the calling thread share. The render tells each frame and
  /// waits until the calling thread has told its caller (and asked whether to stop): frames
  /// are told one by one, in order, and none is made after a stop was asked.
  private final class SharedState: @unchecked Sendable {
    private let condition = Condition()
    private var progress: RenderProgress?
    private var result: Result<RenderResult, Error>?
    private var stopping = false

    /// From the render's thread: `reached`, then wait until it is acknowledged.
    func tell(_ reached: RenderProgress) {
      condition.withLock {
        progress = reached
        condition.broadcast()
        while progress != nil { condition.wait() }
      }
    }

    func finish(with result: Result<RenderResult, Error>) {
      condition.withLock {
        self.result = result
        condition.broadcast()
      }
    }

    var isStopping: Bool { condition.withLock { stopping } }

    func stop() { condition.withLock { stopping = true } }

    /// From the calling thread: the frame told has been told on.
    func acknowledge() {
      condition.withLock {
        progress = nil
        condition.broadcast()
      }
    }

    /// Waits up to `seconds` for news; returns the frame told and not yet acknowledged, and
    /// the outcome once there is one.
    func next(within seconds: Double) -> (RenderProgress?, Result<RenderResult, Error>?) {
      condition.withLock {
        if progress == nil, result == nil {
          condition.wait(seconds: seconds)
        }
        return (progress, progress == nil ? result : nil)
      }
    }
  }

  private static func renderFrames(
    _ effect: Effect, _ settings: RenderOptions, on context: HeadlessContext,
    naming option: (String) -> String, progress: ((RenderProgress) -> Void)?,
    shouldStop: @escaping @Sendable () -> Bool
  ) throws -> RenderResult {
    let video = settings.video
    let rendered = settings.renderedFrames
    let (size, out) = (settings.pixels, settings.out)
    // Nothing written may be the effect it is made from: its file, or its pictures.
    let inputs = settings.inputs
    if video == nil {
      for frame in rendered { try OutputFile.check(settings.picture(frame), sparing: inputs) }
    } else {
      try OutputFile.check(out, sparing: inputs)
    }
    if let records = settings.records {
      try OutputFile.check(records, sparing: inputs)
      try RecordExport.checkDescription(of: records, sparing: inputs)
      let scene = try EffectScene(
        config: effect.config.validated(), capacity: 1, seed: settings.seed)
      guard !scene.expectedFeatures.contains(.images) else {
        throw RenderError(
          description:
            "\(option("records")) cannot carry this effect's picture shapes (emoji, text, "
            + "images): their texture atlas is not exported; choose an effect without them")
      }
    }
    let target = try OffscreenTarget(width: size.width, height: size.height, info: context.info)
    defer { target.release() }
    let system = try ConfettiSystem(
      effect: effect, size: settings.points,
      seed: settings.seed, reduceMotion: settings.reduceMotion,
      primitive: settings.records == nil ? settings.primitive : .points)
    defer { system.close() }
    // The picture's context is the system's own, and its rectangle never changes.
    system.glStatePolicy = .cache
    // Light covers a backdrop as much as it shines: what an editor shows when it lays the
    // transparent render over that colour. (Over a transparent one the straight alpha the
    // picture is given does the same, and no layer is needed.) Records describe the one draw
    // their port makes, and are drawn so.
    system.laysLightOverTheBackdrop = settings.background.alpha > 0 && settings.records == nil
    // Over a light colour, light covers some of it, deepened, where added it would not show.
    if settings.background.alpha == 255 { system.backdrop = settings.background }
    // A frame of millions of pieces takes seconds to draw: a stop is seen between its batches.
    system.shouldStop = shouldStop
    let transparent = settings.background.alpha < 255
    let writer = try video.map { _ in
      try VideoWriter(
        path: out, width: size.width, height: size.height, fps: settings.fps,
        transparent: transparent, quality: settings.quality, shouldStop: shouldStop)
    }
    var timeline = RenderTimeline(settings.triggers)
    let start = timeline.start
    func fire(_ trigger: RenderTrigger?, at moment: Seconds) {
      guard let trigger else { return system.fireOpening(time: moment) }
      system.trigger(trigger.kind, at: trigger.point, time: moment)
    }
    timeline.open(fire: fire)
    var written: [String] = []
    var timings = RenderTimings()
    var flashes =
      settings.checksFlashes
      ? FlashCheck(width: size.width, height: size.height, fps: settings.fps) : nil
    // A sequence's pictures are encoded and written on the other cores as frames are drawn.
    let sequence =
      video == nil && settings.frameCount > 1
      ? PictureSequence(
        first: rendered.lowerBound, straightening: transparent, shouldStop: shouldStop) : nil
    // However the render ends, nothing is left in flight, and what is kept is what was told.
    defer { sequence?.stop() }
    /// Tells the sequence's frames written since, in order; throws the earliest that failed.
    func tellWritten() throws {
      guard let sequence else { return }
      do {
        // Until none is left to tell: a failed frame comes after those before it are told.
        while case let frames = try sequence.finished(), !frames.isEmpty {
          for frame in frames {
            // A stop asked as an earlier frame was told: this one is not told, nor kept.
            guard !shouldStop() else { return }
            try sequence.told(frame)
            written.append(settings.picture(frame))
            progress?(
              RenderProgress(done: frame - rendered.lowerBound + 1, total: rendered.count))
          }
        }
      } catch let failure as PictureSequence.FrameFailure {
        if failure.error is PictureSequence.Stopped {
          throw RenderStopped(out: out, whole: false)
        }
        let frame = failure.frame
        guard frame > rendered.lowerBound else { throw failure.error }
        // The frames before it are whole: say so, and how to render the rest.
        let whole = rendered.lowerBound..<frame
        throw RenderError(
          description: "\(failure.error); \(settings.pictures(whole)) "
            + "\(whole.count == 1 ? "is" : "are") written: \(option("frame_range")) "
            + "\(frame):\(rendered.upperBound) renders the rest")
      }
    }
    target.bind()
    // Every frame from the first is stepped to, drawn or not: the emission is replayed the
    // same way whichever frames this run renders.
    for frame in 0..<rendered.upperBound {
      let now = start + settings.firstMoment + Double(frame) / settings.fps
      var mark = monotonicSeconds()
      /// Adds the seconds since the last mark to `stage`.
      func spent(_ stage: WritableKeyPath<RenderTimings, Seconds>) {
        let time = monotonicSeconds()
        timings[keyPath: stage] += time - mark
        mark = time
      }
      timeline.run(to: now, advance: system.advance(to:), fire: fire)
      spent(\.emission)
      guard rendered.contains(frame) else { continue }
      // Before the frame's work and once more before anything of it is written: a big frame
      // takes seconds, and a stop meanwhile must not let it be written.
      func stopIfAsked() throws {
        guard shouldStop() else { return }
        writer?.cancel()
        throw RenderStopped(out: out, whole: video != nil || settings.frameCount == 1)
      }
      try stopIfAsked()
      GLFrame.clear(to: settings.background)
      let exported: (records: [UInt8], uniforms: [UniformValue], viewport: PixelRect, copies: Int)?
      do {
        exported =
          settings.records == nil ? nil : try system.drawExported(in: target.rect, time: now)
        if exported == nil { try system.draw(in: target.rect, time: now) }
        // Timed apart, the GL's work is waited for here; else the read-back waits for it.
        if settings.timesStages { GLFrame.finish() }
        spent(\.drawing)
      } catch is DrawStopped {
        try stopIfAsked()
        throw RenderError(description: "the frame's draw stopped without being asked to")
      }
      if let exported, exported.records.isEmpty {
        throw RenderError(
          description:
            "no piece is in flight at \(format(settings.firstMoment)) s, so there are no "
            + "records to write: give a \(option("time")) when pieces are")
      }
      if let writer {
        // Read as GL stores it, into memory ffmpeg reads from.
        try writer.append { rows in
          try target.read(bottomRowFirst: &rows)
          spent(\.readBack)
          try stopIfAsked()
          // Over an opaque backdrop every pixel is opaque: premultiplied is straight.
          if transparent { RGBAImage.unpremultiply(&rows) }
          rows.withUnsafeBytes { flashes?.add(rgba: $0) }
          spent(\.converting)
        }
        spent(\.piping)
        progress?(RenderProgress(done: frame - rendered.lowerBound + 1, total: rendered.count))
        continue
      }
      var read = try target.read()
      spent(\.readBack)
      try stopIfAsked()
      if let sequence {
        read.bytes.withUnsafeBytes { flashes?.add(rgba: $0) }
        sequence.add(read, frame: frame, to: settings.picture(frame))
        try tellWritten()
        continue
      }
      // Over an opaque backdrop every pixel is opaque: premultiplied is straight.
      if transparent { read.unpremultiply() }
      let image = read
      spent(\.converting)
      // Encoding a big picture takes a while: a stop meanwhile leaves it unwritten.
      let encoded = try PNG.encode(image)
      spent(\.encoding)
      try stopIfAsked()
      // The picture (and its records) are written whole beside their names, told, and only
      // then put in place, all or none: a stop asked when told leaves what the names held.
      let picture = settings.picture(frame)
      var files = [(file: try OutputFile.prepare(encoded, for: picture), path: picture)]
      if let exported, let records = settings.records {
        files += try RecordExport.prepare(
          exported, for: records, size: size, background: settings.background,
          time: settings.firstMoment)
      }
      spent(\.writing)
      progress?(RenderProgress(done: frame - rendered.lowerBound + 1, total: rendered.count))
      try stopIfAsked()
      try OutputFile.commit(files)
      written = files.map(\.path)
      spent(\.writing)
      return RenderResult(
        files: written, wasReadBack: false, droppedCount: system.droppedCount,
        description: summary(of: settings), timings: timings)
    }
    sequence?.waitForAll()
    try tellWritten()
    // Asked to stop while the last frame was made or told: not a success. An animation is
    // removed; a sequence's pictures are whole, and kept. (A single picture was put in place
    // only once told: it returned above.)
    if shouldStop() {
      writer?.cancel()
      throw RenderStopped(out: out, whole: video != nil)
    }
    if let writer {
      progress?(RenderProgress(done: rendered.count, total: rendered.count, finishing: true))
      let finishing = monotonicSeconds()
      try writer.finish()
      timings.finishing = monotonicSeconds() - finishing
      written = [out]
    }
    if let sequence {
      (timings.converting, timings.encoding, timings.writing) = sequence.time
    }
    return RenderResult(
      files: written, wasReadBack: writer?.wasReadBack ?? false,
      droppedCount: system.droppedCount, description: summary(of: settings), timings: timings,
      flashes: flashes)
  }

  /// How long `effect` lasts as `settings` render it, in seconds from `settings.firstMoment` (its
  /// first frame): until the closed form draws none of its pieces any more, the settings'
  /// triggers fired. Exact to the clock's tick, and needs no GL: the emission is replayed as a
  /// render replays it. nil when an emitter emits until it is stopped (snow, rain, a fire's
  /// flames): such an effect never ends by itself. 0 when it is over by `settings.firstMoment`.
  public static func length(of effect: Effect, _ settings: RenderOptions) throws -> Seconds? {
    let config: EffectConfig
    do {
      config = try effect.config.validated()
    } catch {
      throw EffectError("the effect's configuration: \(error)")
    }
    var scene = try EffectScene(
      config: config, capacity: EffectScene.suggestedCapacity(for: config), seed: settings.seed,
      reduceMotion: settings.reduceMotion)
    let window = settings.points
    var timeline = RenderTimeline(settings.triggers)
    func fire(_ trigger: RenderTrigger?, at moment: Seconds) {
      guard let trigger else { return scene.fireOpening(window: window, time: moment) }
      scene.trigger(trigger.kind, at: trigger.point, window: window, time: moment)
    }
    timeline.open(fire: fire)
    var end = scene.ring.lastDeath
    // Replayed until nothing is left to be born; a second past the latest moment a render can
    // show, it never ends within any render.
    while scene.isEmitting || !timeline.isDone {
      if scene.emitsUntilStopped { return nil }
      guard timeline.clock <= timeline.start + RenderOptions.latestTime + 1 else { return nil }
      timeline.run(
        to: timeline.clock + step, advance: { scene.advance(to: $0, window: window) },
        fire: fire)
      end = max(end, scene.ring.lastDeath)
    }
    return max(0, end - (timeline.start + settings.firstMoment))
  }

  /// How many frames a clip of `effect` has that ends when the effect is over, as `settings`
  /// render it (their ``RenderOptions/frames`` aside): from the first frame to the first with
  /// nothing left, that one included (``length(of:_:)`` at ``RenderOptions/fps``). What
  /// `confetti render --duration auto` renders, and an animation's default there.
  ///
  /// - Parameters:
  ///   - name: the effect as the caller knows it (a preset's name, a file's path), for the
  ///     messages.
  ///   - option: the caller's spelling of a setting (as in ``RenderOptions/check(naming:)``);
  ///     `length` is what it sets a clip's length with instead (the program's `--duration
  ///     SECONDS or --frames N`).
  /// - Throws: ``RenderError`` when the effect never ends by itself (it emits until stopped),
  ///   or lasts more than ``RenderOptions/mostFrames`` frames.
  public static func framesUntilOver(
    of effect: Effect, _ settings: RenderOptions, name: String,
    naming option: (String) -> String = { $0 }
  ) throws -> Int {
    guard let length = try length(of: effect, settings) else {
      throw RenderError(
        description: "\(oneLine(name)) never ends by itself (it emits until stopped): give "
          + option("length"))
    }
    let frames = (length * settings.fps).rounded(.up) + 1
    guard frames <= Double(RenderOptions.mostFrames) else {
      throw RenderError(
        description: "\(oneLine(name)) lasts \(format(length)) s: more than "
          + "\(RenderOptions.mostFrames) frames at \(format(settings.fps)) fps; give "
          + "\(option("length")) or a lower \(option("fps"))")
    }
    return Int(frames)
  }

  /// The render's last line: what was written where, its size and length, and, for a sequence
  /// or an animation, whether and how it keeps a transparent background.
  static func summary(of settings: RenderOptions) -> String {
    let rendered = settings.renderedFrames
    let pixels = "\(settings.pixels.width)×\(settings.pixels.height)"
    if settings.video == nil, settings.frameCount == 1 {
      let described = settings.records.map {
        ", its records \($0) and \(RecordExport.descriptionPath(of: $0))"
      }
      return "wrote \(settings.out) (\(pixels))\(described ?? "")"
    }
    let seconds = format(Double(rendered.count) / settings.fps)
    let frames = rendered.count == 1 ? "1 frame" : "\(rendered.count) frames"
    let what = "\(frames) (\(seconds) s at \(format(settings.fps)) fps, \(pixels))"
    let transparent = settings.background.alpha < 255
    if let video = settings.video {
      return "wrote \(what) to \(settings.out), \(video.name) "
        + (transparent ? video.alpha : "with an opaque background")
    }
    return "wrote \(what) to \(settings.pictures(rendered))"
      + (transparent ? ", RGBA with straight alpha" : "")
  }
}

/// A render's clock: the effect opened at ``start``, the triggers fired in the order of their
/// moments as the clock reaches each, the emission advanced in steps of at most
/// ``Export/step`` (a step ends at a trigger's moment when that comes first). A render replays
/// it from the opening whichever frames it draws, and ``Export/length(of:_:)`` replays it with
/// no GL: the same births at the same moments.
struct RenderTimeline {
  /// The clock reading of the effect's time 0 (``ConfettiSystem/openingReading``).
  let start = ConfettiSystem.openingReading
  /// The reading the emission has been advanced to.
  private(set) var clock: Seconds
  /// The triggers not yet fired, in the order of their moments.
  private var pending: ArraySlice<RenderTrigger>

  init(_ triggers: [RenderTrigger]) {
    clock = start
    pending = triggers.sorted { $0.time < $1.time }[...]
  }

  /// Whether every trigger has been fired.
  var isDone: Bool { pending.isEmpty }

  /// Opens the effect (`fire(nil, start)`), then fires the triggers due at time 0.
  mutating func open(fire: (RenderTrigger?, Seconds) -> Void) {
    fire(nil, start)
    fireDue(fire)
  }

  /// Moves the clock on to `now`: `advance` at each step's end, `fire` for each trigger due.
  mutating func run(
    to now: Seconds, advance: (Seconds) -> Void, fire: (RenderTrigger?, Seconds) -> Void
  ) {
    while clock < now {
      let due = pending.first.map { start + $0.time } ?? .infinity
      clock = min(now, clock + Export.step, max(clock, due))
      advance(clock)
      fireDue(fire)
    }
  }

  private mutating func fireDue(_ fire: (RenderTrigger?, Seconds) -> Void) {
    while let next = pending.first, start + next.time <= clock {
      fire(next, start + next.time)
      pending.removeFirst()
    }
  }
}

/// Seconds (or a rate) in messages: at most three decimals, no trailing zeros; three
/// significant digits where three decimals would read 0.
package func format(_ seconds: Double) -> String {
  if seconds > 0, seconds < 0.0005 { return String(formatting: "%.3g", seconds) }
  guard seconds < 1e9 else { return String(seconds) }
  var text = String(formatting: "%.3f", seconds)
  while text.hasSuffix("0") { text.removeLast() }
  if text.hasSuffix(".") { text.removeLast() }
  return text
}

/// A thread of its own stack size, running `body` from the start, that its maker joins
/// (Foundation's Thread cannot be joined).
final class JoinedThread {
  private var thread = pthread_t()
  private var joined = false

  /// Starts `body` on a new thread with a stack of `stackSize` bytes; throws if the system
  /// has no thread to give.
  init(stackSize: Int, _ body: @escaping () -> Void) throws {
    switch startThread(stackSize: stackSize, body) {
    case .success(let started): thread = started
    case .failure(let error):
      throw RenderError(description: "cannot start the render's thread: \(error)")
    }
  }

  /// Waits until the thread has ended, its own clean-up included. Once only.
  func join() {
    guard !joined else { return }
    joined = true
    pthread_join(thread, nil)
  }
}
