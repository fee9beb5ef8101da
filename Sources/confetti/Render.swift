import ArgumentParser
import ConfettiCore
import ConfettiGL
import ConfettiImage
import Foundation

/// `confetti render`: any moment of an effect to PNG, headless.
struct Render: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "confetti render",
    abstract: "Render moments of an effect to PNG files, with no window and no display.",
    discussion: """
      Every emitter of the effect starts at time 0 (a click's at its configured position), and \
      the scene runs in steps of 1/60 s to --time. The default effect is the seed's cannon.
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

  @Option(name: .shortAndLong, help: "The PNG file to write.")
  var out: String = "confetti.png"

  /// The scene's steps between pictures: births are decided per step, as in the window.
  static let step: Seconds = 1.0 / 60

  func validate() throws {
    guard time.isFinite, time >= 0, time <= 3600 else {
      throw ValidationError("--time must be a number of seconds from 0 to 3600")
    }
    guard fps.isFinite, fps > 0 else { throw ValidationError("--fps must be finite and > 0") }
    guard (1...100_000).contains(frames) else {
      throw ValidationError("--frames must be 1 to 100000")
    }
    guard (1...8).contains(scale) else { throw ValidationError("--scale must be 1 to 8") }
    if let count, !(1...1_000_000).contains(count) {
      throw ValidationError("--count must be 1 to 1000000")
    }
  }

  func run() throws {
    try reportingFailures {
      let loaded = try effect.load(fallback: "cannon")
      let context = try HeadlessContext()
      // Every GL object below dies on this context: it must outlive them all.
      try withExtendedLifetime(context) { try render(loaded, on: context) }
    }
  }

  private func render(_ loaded: LoadedEffect, on context: HeadlessContext) throws {
    var config = loaded.config
    if let count {
      for e in config.emitters.indices where config.emitters[e].emission == .burst {
        for c in config.emitters[e].cells.indices { config.emitters[e].cells[c].count = count }
      }
    }
    let target = try OffscreenTarget(width: size.width, height: size.height, info: context.info)
    let window = Size(width: Double(size.width / scale), height: Double(size.height / scale))
    let effect = LoadedEffect(config: config, directory: loaded.directory)
    var scene = try effect.scene(
      capacity: EffectScene.suggestedCapacity(for: config), seed: seed,
      reduceMotion: self.effect.wantsReducedMotion)
    let renderer = try ParticleRenderer(capacity: scene.ring.capacity, info: context.info)
    try effect.prepare(renderer, for: scene)
    let start = ConfettiScene.shotTime
    for trigger in EmitterTrigger.allCases {
      scene.trigger(trigger, window: window, time: start)
    }
    var clock = start
    for frame in 0..<frames {
      let now = start + time + Double(frame) / fps
      while clock < now {
        clock = min(now, clock + Self.step)
        scene.advance(to: clock, window: window)
      }
      let image = try target.snapshot(
        of: &scene.ring, at: Tick(now), window: window, renderer: renderer)
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
