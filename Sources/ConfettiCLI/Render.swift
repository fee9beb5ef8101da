import ArgumentParser
import Confetti
import Foundation

/// `confetti render`: any moment of an effect to PNG, headless.
struct Render: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Render moments of an effect to PNG files, with no window and no display.",
    discussion: """
      Every emitter of the effect starts at time 0 (a click's at its configured position), and \
      the scene runs in steps of 1/60 s to --time. The default effect is the classic cannon.
      With --frames N > 1, frames are written to OUT with a 4-digit number before the extension.
      """
  )

  @OptionGroup var effect: EffectOptions

  @Option(help: "Seconds after the effect starts.")
  var time: Double = 0.6

  @Option(help: "Seed for every random draw.")
  var seed: UInt64 = 1

  @Option(help: "Particles per burst, instead of each burst cell's count.")
  var count: Int?

  @Option(help: "Picture size in pixels, WIDTHxHEIGHT.")
  var size: PixelSize = PixelSize(width: 800, height: 600)

  @Option(help: "Pixels per window point (2 renders a HiDPI picture of the same scene).")
  var scale: Int = 1

  @Option(help: "How many frames to render, from --time on.")
  var frames: Int = 1

  @Option(help: "Frames per second of a sequence.")
  var fps: Double = 30

  @Option(
    name: .shortAndLong, help: "The PNG file to write.", completion: .file(extensions: ["png"]))
  var out: String = "confetti.png"

  /// The scene's steps between pictures: births are decided per step, as in the window.
  static let step: Seconds = 1.0 / 60
  /// The clock reading at which every emitter starts: a second in, so that the effect's
  /// "time 0" has room before it.
  static let startTime: Seconds = 1

  func validate() throws {
    guard time.isFinite, time >= 0, time <= 3600 else {
      throw ValidationError("--time must be a number of seconds from 0 to 3600")
    }
    guard fps.isFinite, fps > 0 else { throw ValidationError("--fps must be finite and > 0") }
    guard (1...100_000).contains(frames) else {
      throw ValidationError("--frames must be 1 to 100000")
    }
    guard (1...8).contains(scale) else { throw ValidationError("--scale must be 1 to 8") }
    guard size.width / scale >= 1, size.height / scale >= 1 else {
      throw ValidationError(
        "--size \(size) at --scale \(scale) leaves no window: the size must be at least the scale")
    }
    let last = time + Double(frames - 1) / fps
    guard last <= 3600 else {
      throw ValidationError(
        "the last frame would be at \(format(last)) s; --time plus (--frames - 1) / --fps must "
          + "stay within 3600 s")
    }
    guard URL(fileURLWithPath: out).pathExtension.lowercased() == "png" else {
      throw ValidationError("--out must name a .png file (render writes PNG), not \(out)")
    }
    if let count, !(1...1_000_000).contains(count) {
      throw ValidationError("--count must be 1 to 1000000")
    }
  }

  func run() throws {
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
    let target = try OffscreenTarget(width: size.width, height: size.height, info: context.info)
    defer { target.release() }
    let system = try ConfettiSystem(
      effect: effect,
      size: Size(width: Double(size.width / scale), height: Double(size.height / scale)),
      seed: seed, reduceMotion: self.effect.wantsReducedMotion, primitive: self.effect.primitive)
    defer { system.release() }
    let start = Self.startTime
    for trigger in EmitterTrigger.allCases { system.trigger(trigger, time: start) }
    var clock = start
    target.bind()
    for frame in 0..<frames {
      let now = start + time + Double(frame) / fps
      while clock < now {
        clock = min(now, clock + Self.step)
        system.advance(to: clock)
      }
      GLFrame.clear(to: GLFrame.background)
      try system.draw(in: target.rect, at: now)
      let image = try target.read()
      try PNG.write(image, to: URL(fileURLWithPath: frames == 1 ? out : numbered(out, frame)))
    }
  }

  private func numbered(_ path: String, _ frame: Int) -> String {
    let url = URL(fileURLWithPath: path)
    let ext = url.pathExtension.isEmpty ? "png" : url.pathExtension
    let stem = url.deletingPathExtension().path
    return stem + "-" + String(format: "%04d", frame) + "." + ext
  }
}

/// Seconds in messages: at most three decimals, no trailing zeros.
private func format(_ seconds: Double) -> String {
  seconds < 1e9
    ? String(format: "%.3f", seconds).replacingOccurrences(
      of: #"\.?0+$"#, with: "", options: .regularExpression) : String(seconds)
}
