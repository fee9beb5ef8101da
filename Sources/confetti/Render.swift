import ArgumentParser
import ConfettiCore
import ConfettiGL
import ConfettiImage
import Foundation

/// `confetti render`: any moment of a scene to PNG, headless.
struct Render: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "confetti render",
    abstract: "Render moments of a scene to PNG files, with no window and no display.",
    discussion: """
      The scene is one shot of the seed's cannon from the bottom edge, fired at time 0.
      With --frames N > 1, frames are written to OUT with a 4-digit number before the extension.
      """
  )

  @Option(help: "Seconds after the scene starts.")
  var time: Double = 0.6

  @Option(help: "Seed for every random draw.")
  var seed: UInt64 = 1

  @Option(help: "Pieces in the cannon's shot (the seed fires 30).")
  var count: Int = 30

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

  func validate() throws {
    guard time.isFinite, time >= 0 else { throw ValidationError("--time must be finite and ≥ 0") }
    guard fps.isFinite, fps > 0 else { throw ValidationError("--fps must be finite and > 0") }
    guard (1...100_000).contains(frames) else {
      throw ValidationError("--frames must be 1 to 100000")
    }
    guard (1...8).contains(scale) else { throw ValidationError("--scale must be 1 to 8") }
    guard (1...1_000_000).contains(count) else {
      throw ValidationError("--count must be 1 to 1000000")
    }
  }

  func run() throws {
    try reportingFailures {
      let context = try HeadlessContext()
      // Every GL object below dies on this context: it must outlive them all.
      try withExtendedLifetime(context) { try render(on: context) }
    }
  }

  private func render(on context: HeadlessContext) throws {
    let target = try OffscreenTarget(width: size.width, height: size.height, info: context.info)
    let window = Size(width: Double(size.width / scale), height: Double(size.height / scale))
    var scene = ConfettiScene.cannonShot(count: count, seed: seed, window: window)
    let renderer = try ParticleRenderer(capacity: scene.ring.capacity, info: context.info)
    for frame in 0..<frames {
      let now = ConfettiScene.shotTime + time + Double(frame) / fps
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
