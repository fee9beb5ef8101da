import Confetti
import ConfettiCore
import ConfettiGL
import FoundationEssentials

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
  /// for a `.png`, and for an animation as many as the effect lasts (as with ``untilOver``).
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
  /// Makes the drawing's figure in ``RenderResult/timings`` exact (every render measures where
  /// its time went): waits for the GL after each frame's draw, work that the read-back
  /// otherwise waits for and is timed with. Slower: for measuring, as `confetti render
  /// --timings` does.
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
  static func framesBeforeTheLengthIsKnown(rangeEnd end: Int?) -> Int {
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
  var video: VideoFormat? { VideoFormat(path: out) }

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
  var endsWithEffect: Bool { untilOver || (frames == nil && video != nil) }

  /// How many frames the sequence has, as far as is known before the render: ``frames``, or
  /// one (an effect's length is counted as the render starts).
  var frameCount: Int { frames ?? 1 }

  /// The frames this render makes: exact once the options are ``resolved(for:named:naming:)``
  /// (before, a clip that ends with the effect counts one).
  var renderedFrames: Range<Int> {
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
  /// Renders `effect` as `settings` say; returns what was written.
  ///
  /// The frames are made on a thread of the render's own, with a headless GL context of its
  /// own current there, so that the calling thread's GL context (a host's window) is never
  /// touched. This call waits for it, and calls `progress` after each frame (the next frame
  /// waits for it), and once more for an animation as ffmpeg finishes it
  /// (``RenderProgress/finishing``), and `shouldStop` after each and every few hundredths of a
  /// second meanwhile, both on the calling thread. Once `shouldStop` says true the render stops
  /// before its next frame, removes what it was writing (an animation, a single picture; a
  /// sequence keeps its whole pictures) and throws ``RenderStopped``; a stop asked after the
  /// last frame still stops it, so a caller that asked to stop is never told the render
  /// succeeded. Nothing is written over the effect's own files (`settings.inputs`), nothing is
  /// left half-written, and the library prints nothing. Messages name settings as `option`
  /// spells them (see ``RenderOptions/check(naming:)``).
  ///
  /// A clip that ends with the effect (``RenderOptions/untilOver``, or an animation given no
  /// ``RenderOptions/frames``) has its frames counted first; `name` is the effect as the caller
  /// knows it (a preset's name, a file's path) for the messages, by default the effect's own
  /// name.
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

  /// ``render(_:_:named:naming:progress:shouldStop:)``, with the graphics drivers' own messages
  /// kept off standard error while the context is made (``DriverMessages``): the program's
  /// choice, whose standard error is its own. A library never redirects its host's.
  package static func render(
    _ effect: Effect, _ settings: RenderOptions, named name: String? = nil,
    naming option: @escaping @Sendable (String) -> String, silencingDrivers: Bool,
    progress: ((RenderProgress) -> Void)?, shouldStop: () -> Bool
  ) throws -> RenderResult {
    let settings = try settings.resolved(for: effect, named: name, naming: option)
    return try RenderThread.run(progress: progress, shouldStop: shouldStop) { tell, isStopping in
      VideoWriter.keepBrokenPipesFromEndingTheProcess()
      let context =
        silencingDrivers
        ? try DriverMessages.silenced { try HeadlessContext() } : try HeadlessContext()
      // Every GL object of the render dies on this context: it must outlive them all.
      return try withExtendedLifetime(context) {
        try renderFrames(
          effect, settings, on: context, naming: option, progress: tell, shouldStop: isStopping)
      }
    }
  }
}
