import ArgumentParser
import Confetti
import ConfettiCore
import ConfettiExport
import ConfettiGL
import ConfettiPlatform
import Glibc

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
      runs in steps of 1/60 s to --time. The default effect is \(Presets.defaultName).
      A clip starts at 0 (one picture at 0.6 s, with its pieces in flight) unless --time says \
      otherwise. --duration auto ends it when the effect is over, exactly: its last piece gone \
      (the default for an animation given neither --frames nor --duration).
      A sequence (more than one frame: --frames N > 1, or a --duration S longer than one) goes \
      to numbered PNGs (OUT with a frame number of at least 4 digits before the extension), or, \
      with --out NAME.gif, .webm, .mp4 or .mov, to one \
      animation made by ffmpeg (apt-get install ffmpeg). --background transparent keeps the \
      alpha: in PNGs (straight alpha), GIF, WebM (VP9) and .mov (ProRes 4444); MP4 (H.264) has \
      none. --frame-range A:B renders frames A to B-1 of the sequence only, exactly as in the \
      whole, so that a long sequence can be split across processes or machines.
      """
  )

  @OptionGroup var effect: EffectOptions

  @Option(
    help: ArgumentHelp(
      "Seconds after the effect starts of the (first) frame: default 0 for a clip, "
        + "\(format(RenderOptions.defaultTime)) for one picture.",
      valueName: "seconds"))
  var time: Double?

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

  @Option(
    help: ArgumentHelp(
      "Picture size in pixels: WIDTHxHEIGHT, or 720p, 1080p, 1440p, 4k (default 800x600 for "
        + "pictures, 1280x720 for an animation).",
      valueName: "size"),
    transform: PixelSize.parsing(argument:))
  var size: PixelSize?

  @Option(help: "Pixels per window point (2 renders a HiDPI picture of the same scene).")
  var scale: Int = 1

  @Option(help: "How many frames to render, from --time on.")
  var frames: Int?

  @Option(
    help: ArgumentHelp(
      "Seconds of animation to render, from --time on (instead of --frames), or auto: until "
        + "the effect is over (an animation's default).",
      valueName: "seconds|auto"))
  var duration: ClipLength?

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
    help: ArgumentHelp(
      "An animation's encoding: standard (measured to keep the quality at a fraction of the "
        + "time) or best (the encoders' slower settings, for a master copy).",
      valueName: "standard|best"))
  var quality: ExportQuality = .standard

  @Flag(
    help: ArgumentHelp(
      "Say where the time went, stage by stage, on standard error (the GL waited for after "
        + "each draw, to tell drawing from read-back)."))
  var timings = false

  @Flag(
    help: ArgumentHelp(
      "Also check the frames for flashes that can cause seizures in people with "
        + "photosensitive epilepsy (WCAG 2.3.1: at most 3 general or red flashes in any second "
        + "over a quarter of any region a quarter of the picture wide and a third of it tall). "
        + "Says the worst second; fails, with status 1, where they are more (the file is still "
        + "written). An animation over an opaque background: check over black and over white."))
  var checkFlashes = false

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

  /// The seconds --duration gives; nil for none, or auto.
  var seconds: Double? { duration?.seconds }

  /// How many frames --frames or --duration give (nil: the library's default, one picture or
  /// an animation until the effect is over).
  var frameCount: Int? {
    // (Counted in Double first: a huge --fps must be refused, not overflow.)
    frames ?? seconds.map { Int(min(max(1, ($0 * fps).rounded()), 1e9)) }
  }

  /// What the library renders for these options: what is not given takes the library's
  /// default, the one every language has.
  var settings: RenderOptions {
    var settings = RenderOptions(out: out)
    settings.size = size
    settings.scale = scale
    settings.time = time
    settings.frames = frameCount
    settings.untilOver = duration == .untilOver
    settings.fps = fps
    settings.frameRange = frameRange?.frames
    settings.background = background.color
    settings.triggers = trigger
    settings.seed = seed
    settings.reduceMotion = effect.wantsReducedMotion
    settings.primitive = effect.primitive
    settings.records = records
    settings.quality = quality
    settings.timesStages = timings
    settings.checksFlashes = checkFlashes
    return settings
  }

  /// An option's name as typed: `frame_range` is `--frame-range`.
  static func option(_ name: String) -> String {
    if name == "length" { return "--duration SECONDS or --frames N" }
    if name == "until_over" { return "--duration auto" }
    return "--" + name.replacing("_", with: "-")
  }

  func validate() throws {
    // What only the command line has: --duration, and --frame-range's A:B.
    if frames != nil, duration != nil {
      throw ValidationError("give --frames or --duration, not both")
    }
    if let seconds, !(seconds.isFinite && seconds > 0 && seconds <= 3600) {
      throw ValidationError(
        "--duration must be a number of seconds above 0, at most 3600, or auto")
    }
    guard fps.isFinite, fps > 0 else { throw ValidationError("--fps must be finite and > 0") }
    guard (1...RenderOptions.mostFrames).contains(frameCount ?? 1) else {
      throw ValidationError("--frames must be 1 to 100000 (--duration times --fps too)")
    }
    do {
      _ = try frameRange?.checked(naming: Self.option)
      if let count, !(1...1_000_000).contains(count) {
        throw ValidationError("--count must be 1 to 1000000")
      }
      try settings.check(naming: Self.option)
    } catch let error as RenderError {
      throw ValidationError(error.description)
    }
  }

  func run() throws {
    // From the start: a signal while the GL is set up is noted, and acted on at the first frame.
    Interruption.watch()
    try reportingFailures {
      var effect = try self.effect.load(fallback: Presets.defaultName)
      if let count { effect.setBurstCount(count) }
      var settings = self.settings
      settings.inputs = self.effect.files(of: effect)
      let started = monotonicSeconds()
      // A bar for a clip: its frames are told as they come (those of a clip that ends with
      // the effect are counted as it starts).
      let bar = ProgressBar(shown: settings.makesClip && settings.frames != 1, out: out)
      let result: RenderResult
      do {
        // The program's standard error is its own: the drivers' chatter is kept off it.
        result = try Export.render(
          effect, settings, named: self.effect.config ?? self.effect.preset ?? Presets.defaultName,
          naming: Self.option, silencingDrivers: true,
          progress: { bar.show($0) }, shouldStop: { Interruption.caught != nil })
      } catch let stopped as RenderStopped {
        bar.clear()
        throw InterruptedError(signal: Interruption.caught ?? SIGTERM, stopped: stopped)
      } catch {
        bar.clear()
        throw error
      }
      bar.clear()
      report(result)
      if let flashes = result.flashes {
        guard flashes.passes else { throw RenderError(description: flashes.summary) }
        if !StandardStreams.outputWasClosed { print(flashes.summary) }
      }
      if timings { say(result.timings.line(total: monotonicSeconds() - started)) }
    }
  }

  /// Says what was written (on standard output) and what the pictures could not show.
  private func report(_ result: RenderResult) {
    // The report is not the work: with standard output closed, or full, the pictures stand on
    // their own (they are written), and the render succeeds.
    if !StandardStreams.outputWasClosed {
      print(oneLine(result.description))
      if let reason = StandardStreams.flushOutputOrDrop() {
        say("note: standard output could not take the report (\(reason)): \(result)")
      }
    }
    // What the effect promised but the picture cannot show is said, never silently left out.
    for note in result.notes(out: out, video: video) { say(note) }
  }

  /// The animation format --out names; nil for PNG.
  var video: VideoFormat? { VideoFormat(path: out) }
}

/// `--trigger start|key|click[@X,Y][@T]`: emitters fired at a moment of a render, as the window
/// fires them at a key press or a click.
extension RenderTrigger: ExpressibleByArgument {
  public init?(argument: String) { self.init(text: argument) }
}

/// `--quality`: standard or best.
extension ExportQuality: ExpressibleByArgument {}

/// `--duration`: seconds of animation, or `auto`: until the effect is over.
extension ClipLength: ExpressibleByArgument {
  package init?(argument: String) { self.init(text: argument) }
}

/// `--frame-range A:B`: frames A to B-1, counted from 0.
extension FrameRange: ExpressibleByArgument {
  package init?(argument: String) { self.init(text: argument) }
}

/// `--background`: `transparent`, `#rrggbb` or `#rrggbbaa`.
struct Backdrop: ExpressibleByArgument {
  var color: RGBA8

  init(color: RGBA8) { self.color = color }

  init?(argument: String) {
    guard let color = RenderOptions.background(named: argument) else { return nil }
    self.color = color
  }

  var defaultValueDescription: String { "#12141c" }

  /// What the shells' completion offers: a transparent backdrop, black and white.
  static var defaultCompletionKind: CompletionKind { .list(["transparent", "#000000", "#ffffff"]) }
}
