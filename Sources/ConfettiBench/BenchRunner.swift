import ConfettiCore
import ConfettiGL
import ConfettiImage
import Foundation

/// What `--bench` runs: the product's path or one of its baselines.
public enum BenchMode: String, CaseIterable, Codable, Sendable {
  /// The product: records written once, the vertex shader evaluates the closed form.
  case gpu
  /// The usual CPU way: Swift evaluates the closed form per particle per frame and uploads the
  /// results; the shader only places the sprites.
  case cpu
  /// The same sprites placed once, drawn with no physics at all: the cost of drawing alone.
  case floor
}

/// One mode's scene, renderer and measurements, advanced a frame at a time.
public final class BenchRun {
  public let mode: BenchMode
  private var scene: BenchScene
  private let product: ParticleRenderer?
  private let placed: PlacedRenderer?
  private var placements: [Float] = []
  private let timer = GPUTimer()
  private var frame = 0
  public private(set) var frameMilliseconds: [Double] = []
  public private(set) var gpuMilliseconds: [Double] = []
  public private(set) var appMilliseconds: [Double] = []
  public private(set) var uploadBytes: [Int] = []

  public init(
    mode: BenchMode, scene: BenchScene, churn: Bool, images: [RGBAImage],
    primitive: SpritePrimitive = .auto, info: GLInfo
  ) throws {
    self.mode = mode
    self.scene = scene
    let count = scene.count
    switch mode {
    case .gpu:
      product = try ParticleRenderer(capacity: count, info: info, primitive: primitive)
      product!.setEmitterTable(scene.table)
      try product!.setShapeTable(scene.shapes, images: images)
      product!.resetMeter()
      placed = nil
    case .cpu:
      product = nil
      placed = try PlacedRenderer(capacity: count, primitive: primitive, info: info)
      try placed!.setShapeTable(scene.shapes, images: images)
      placements = [Float](repeating: 0, count: count * PlacementEvaluator.floatsPerParticle)
    case .floor:
      precondition(!churn, "the floor has no births to place")
      product = nil
      placed = try PlacedRenderer(
        capacity: count, phases: Self.floorPhases, primitive: primitive, info: info)
      try placed!.setShapeTable(scene.shapes, images: images)
      placements = [Float](repeating: 0, count: count * PlacementEvaluator.floatsPerParticle)
      try placeFloorPhases()
    }
  }

  /// The moments of the steady loop the floor keeps placements for: every sixth frame.
  public static let floorPhases = 15

  /// Evaluates and uploads, once, where every particle is at each floor phase.
  private func placeFloorPhases() throws {
    for phase in 0..<Self.floorPhases {
      let time =
        BenchScene.start + BenchScene.birthSpread * Double(phase) / Double(Self.floorPhases)
      try place(scene.ring.drawnSlotRanges, at: Tick(time), phase: phase)
    }
    placed!.resetMeter()
  }

  /// The floor phase nearest clock reading `time`.
  private func floorPhase(at time: Seconds) -> Int {
    let share = (time - BenchScene.start) / BenchScene.birthSpread
    return Int((share * Double(Self.floorPhases)).rounded()) % Self.floorPhases
  }

  /// Renders one frame into the bound framebuffer; measures it when `measured`.
  public func renderFrame(width: Int, height: Int, measured: Bool) throws {
    let window = scene.window
    let wallStart = ContinuousClock.now
    _ = ContinuousClock.now  // warms the clock's own code, so its first read is not timed
    let appStart = ContinuousClock.now
    let time = scene.advance(toFrame: frame)
    if mode == .cpu { evaluatePlacements(scene.ring.drawnSlotRanges, at: Tick(time)) }
    let appTime = ContinuousClock.now - appStart
    let finished = timer.begin()

    GLFrame.clear(to: GLFrame.background)
    if let product {
      product.resetMeter()
      try product.draw(
        &scene.ring, at: Tick(time), in: PixelRect(width: width, height: height), window: window)
    } else if let placed {
      placed.resetMeter()
      try placed.upload(from: &scene.ring)
      if mode == .cpu { try uploadPlacements(scene.ring.drawnSlotRanges, phase: 0) }
      try placed.draw(
        scene.ring, phase: mode == .floor ? floorPhase(at: time) : 0,
        in: PixelRect(width: width, height: height), window: window)
    }
    timer.end()
    GLFrame.finish()
    let wall = ContinuousClock.now - wallStart
    let results = finished + timer.collect()

    frame += 1
    guard measured else { return }
    frameMilliseconds.append(wall.milliseconds)
    gpuMilliseconds += results
    appMilliseconds.append(appTime.milliseconds)
    uploadBytes.append((product?.meter ?? placed!.meter).totalBytes)
  }

  /// Drops what the warm-up measured, its GPU timings still in flight included.
  public func startMeasuring() {
    _ = timer.drain()
    (frameMilliseconds, gpuMilliseconds, appMilliseconds, uploadBytes) = ([], [], [], [])
  }

  /// Collects the last GPU timings.
  public func finish() {
    gpuMilliseconds += timer.drain()
  }

  /// Evaluates where the particles in `ranges` are at `now` (the `cpu` mode's per-frame work).
  private func evaluatePlacements(_ ranges: [Range<Int>], at now: Tick) {
    let floats = PlacementEvaluator.floatsPerParticle
    placements.withUnsafeMutableBufferPointer { all in
      for range in ranges {
        PlacementEvaluator.evaluate(
          scene.ring, slots: range, at: now, table: scene.table,
          into: UnsafeMutableBufferPointer(rebasing: all[(range.lowerBound * floats)...]))
      }
    }
  }

  /// Sends the evaluated placements of `ranges` into `phase`.
  private func uploadPlacements(_ ranges: [Range<Int>], phase: Int) throws {
    let floats = PlacementEvaluator.floatsPerParticle
    try placements.withUnsafeBufferPointer { all in
      for range in ranges {
        try placed!.uploadPlacements(
          UnsafeBufferPointer(rebasing: all[(range.lowerBound * floats)...]), slots: range,
          phase: phase)
      }
    }
  }

  private func place(_ ranges: [Range<Int>], at now: Tick, phase: Int) throws {
    evaluatePlacements(ranges, at: now)
    try uploadPlacements(ranges, phase: phase)
  }

  /// This mode's figures.
  public func result(particles: Int) -> ModeResult {
    let frame = Summary(frameMilliseconds)
    return ModeResult(
      frames: frameMilliseconds.count, frame_ms: frame, gpu_ms: Summary(gpuMilliseconds),
      app_cpu_ms: Summary(appMilliseconds),
      upload_bytes_per_frame: Summary(uploadBytes.map(Double.init)).median,
      particles_per_second: frame.median > 0 ? Double(particles) / (frame.median / 1000) : 0)
  }
}

/// One mode's figures, as `--json` writes them.
public struct ModeResult: Codable, Sendable {
  public var frames: Int
  public var frame_ms: Summary
  public var gpu_ms: Summary
  public var app_cpu_ms: Summary
  /// The median bytes sent per measured frame: buffers and uniforms.
  public var upload_bytes_per_frame: Double
  /// Particles drawn per second of median frame time.
  public var particles_per_second: Double
}

extension Duration {
  public var milliseconds: Double {
    Double(components.seconds) * 1000 + Double(components.attoseconds) * 1e-15
  }
}
