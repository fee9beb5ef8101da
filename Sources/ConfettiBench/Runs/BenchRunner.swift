import ConfettiCore
import ConfettiGL
import ConfettiImage
import FoundationEssentials
import Glibc

/// What `--bench` runs: the product's path or one of its baselines.
package enum BenchMode: String, CaseIterable, Sendable {
  /// The product: records written once, the vertex shader evaluates the closed form.
  case gpu
  /// The usual CPU way: Swift evaluates the closed form per particle per frame on one core and
  /// uploads the sprites to draw; the shader only places them.
  case cpu
  /// The strong CPU baseline: the shader's formulas in Swift, eight particles at a time in SIMD
  /// lanes, on every core, uploading the same sprites (what a careful engineer would write
  /// instead of a shader).
  case cpuSIMD = "cpu-simd"
  /// The same sprites placed once, drawn with no physics at all: the cost of drawing alone.
  case floor
}

/// One mode's scene, renderer and measurements, advanced a frame at a time.
package final class BenchRun {
  package let mode: BenchMode
  private var scene: BenchScene
  private let product: ParticleRenderer?
  private let placed: PlacedRenderer?
  private var sprites: [PlacedSprite] = []
  /// The records as the strong CPU baseline keeps them (cpu-simd, and the floor's placing).
  private let laneRecords: LaneRecords?
  private let timer = GPUTimer()
  private var frame = 0
  package private(set) var frameMilliseconds: [Double] = []
  package private(set) var gpuMilliseconds: [Double] = []
  package private(set) var appMilliseconds: [Double] = []
  package private(set) var uploadBytes: [Int] = []
  /// What the particles are drawn as.
  package var primitive: SpritePrimitive { product?.primitive ?? placed!.primitive }

  package init(
    mode: BenchMode, scene: BenchScene, churn: Bool, images: [RGBAImage],
    primitive: SpritePrimitive = .auto, info: GLInfo
  ) throws {
    self.mode = mode
    self.scene = scene
    let count = scene.count
    let spriteCapacity = PlacementEvaluator.capacity(for: scene.ring, slots: count)
    laneRecords = mode == .cpuSIMD || mode == .floor ? LaneRecords(capacity: count) : nil
    switch mode {
    case .gpu:
      product = try ParticleRenderer(capacity: count, info: info, primitive: primitive)
      // As the program's window draws: its state kept between frames (set again after another
      // run's product drew; the baselines' draws restore what they find).
      product!.statePolicy = .cache
      product!.setCellTable(scene.table)
      try product!.setShapeTable(scene.shapes, images: images)
      placed = nil
    case .cpu, .cpuSIMD:
      product = nil
      placed = try PlacedRenderer(capacity: spriteCapacity, primitive: primitive, info: info)
      try placed!.setShapeTable(scene.shapes, images: images)
      sprites = Array(repeating: PlacedSprite(), count: spriteCapacity)
    case .floor:
      precondition(!churn, "the floor has no births to place")
      product = nil
      placed = try PlacedRenderer(
        capacity: spriteCapacity, phases: Self.floorPhases, primitive: primitive, info: info)
      try placed!.setShapeTable(scene.shapes, images: images)
      sprites = Array(repeating: PlacedSprite(), count: spriteCapacity)
      try placeFloorPhases()
    }
  }

  /// The moments of the steady loop the floor keeps sprites for: every sixth frame.
  package static let floorPhases = 15

  /// Evaluates and uploads, once, the sprites of every floor phase.
  private func placeFloorPhases() throws {
    for phase in 0..<Self.floorPhases {
      let time =
        BenchScene.start + BenchScene.birthSpread * Double(phase) / Double(Self.floorPhases)
      let count = evaluateSprites(at: Tick(time))
      try sprites.withUnsafeBufferPointer {
        try placed!.upload(UnsafeBufferPointer(rebasing: $0[0..<count]), phase: phase)
      }
    }
    sprites = []  // on the GPU now; the floor evaluates nothing per frame
  }

  /// The floor phase nearest clock reading `time`.
  private func floorPhase(at time: Seconds) -> Int {
    let share = (time - BenchScene.start) / BenchScene.birthSpread
    return Int((share * Double(Self.floorPhases)).rounded()) % Self.floorPhases
  }

  /// Renders one frame into the bound framebuffer; measures it when `measured`.
  package func renderFrame(width: Int, height: Int, measured: Bool) throws {
    let window = scene.window
    let wallStart = ContinuousClock.now
    _ = ContinuousClock.now  // warms the clock's own code, so its first read is not timed
    let appStart = ContinuousClock.now
    let time = scene.advance(toFrame: frame)
    let spriteCount =
      mode == .cpu || mode == .cpuSIMD
      ? evaluateSprites(at: Tick(time)) : 0
    let appTime = ContinuousClock.now - appStart
    let finished = timer.begin()

    let metered = product?.meter ?? placed!.meter
    GLFrame.clear(to: GLFrame.background)
    if let product {
      try product.draw(
        &scene.ring, at: Tick(time), in: PixelRect(width: width, height: height), window: window)
    } else if let placed {
      if mode != .floor {
        try sprites.withUnsafeBufferPointer {
          try placed.upload(UnsafeBufferPointer(rebasing: $0[0..<spriteCount]))
        }
      }
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
    uploadBytes.append(((product?.meter ?? placed!.meter) - metered).totalBytes)
  }

  /// Drops what the warm-up measured, its GPU timings still in flight included.
  package func startMeasuring() {
    _ = timer.drain()
    (frameMilliseconds, gpuMilliseconds, appMilliseconds, uploadBytes) = ([], [], [], [])
  }

  /// Collects the last GPU timings.
  package func finish() {
    gpuMilliseconds += timer.drain()
  }

  /// Evaluates the sprites of every drawn particle at `now` (the `cpu` modes' per-frame work)
  /// into ``sprites``, and returns how many there are.
  /// Evaluates the sprites of `now`: in SIMD lanes where this mode keeps the records for them,
  /// with the reference elsewhere.
  private func evaluateSprites(at now: Tick) -> Int {
    var evaluation = PlacementEvaluator.Evaluation.reference
    if let laneRecords {
      laneRecords.update(from: &scene.ring)
      evaluation = .lanesOnAllCores(laneRecords)
    }
    let ring = scene.ring
    let table = scene.table
    return sprites.withUnsafeMutableBufferPointer { all in
      var written = 0
      for range in ring.drawnSlotRanges {
        let output = UnsafeMutableBufferPointer(rebasing: all[written...])
        written += PlacementEvaluator.evaluate(
          ring, slots: range, at: now, table: table, as: primitive, by: evaluation,
          into: output)
      }
      return written
    }
  }

  /// This mode's figures; the pixels shaded are those of the last frame drawn, of `size`
  /// pixels, on the GL `info` describes.
  package func result(particles: Int, size: PixelRect, info: GLInfo) -> ModeResult {
    let frame = Summary(frameMilliseconds)
    let pixels = SpriteCoverage.pixelsPerParticle(
      scene.ring, table: scene.table, at: Tick(scene.time(ofFrame: max(0, self.frame - 1))),
      primitive: primitive,
      pixelsPerPoint: SpriteProjection.pixelsPerPoint(size, window: scene.window) ?? 0,
      info: info)
    return ModeResult(
      primitive: primitive.rawValue, frames: frameMilliseconds.count, frame_ms: frame,
      gpu_ms: Summary(gpuMilliseconds), app_cpu_ms: Summary(appMilliseconds),
      upload_bytes_per_frame: Summary(uploadBytes.map(Double.init)).median,
      particles_per_second: frame.median > 0 ? Double(particles) / (frame.median / 1000) : 0,
      pixels_per_particle: pixels)
  }
}

/// One mode's figures, as `--json` writes them (times in ms, to the microsecond).
package struct ModeResult: Sendable {
  /// What the particles were drawn as.
  package var primitive: String
  package var frames: Int
  package var frame_ms: Summary
  package var gpu_ms: Summary
  package var app_cpu_ms: Summary
  /// The median bytes sent per measured frame: buffers and uniforms.
  package var upload_bytes_per_frame: Double
  /// Particles drawn per second of median frame time.
  package var particles_per_second: Double
  /// Pixels the fragment shader ran for, per particle (``SpriteCoverage``).
  package var pixels_per_particle: Double

  /// The same figures rounded as reports give them: times to the microsecond, rates and
  /// pixels to whole numbers and tenths.
  package var rounded: ModeResult {
    var r = self
    for path in [\ModeResult.frame_ms, \.gpu_ms, \.app_cpu_ms] {
      r[keyPath: path] = r[keyPath: path].rounded(toPlaces: 3)
    }
    r.upload_bytes_per_frame = r.upload_bytes_per_frame.rounded()
    r.particles_per_second = r.particles_per_second.rounded()
    r.pixels_per_particle = (r.pixels_per_particle * 10).rounded() / 10
    return r
  }
}

extension Summary {
  /// Every figure rounded to `places` decimals.
  func rounded(toPlaces places: Int) -> Summary {
    let scale = pow(10, Double(places))
    var s = self
    for path in [\Summary.min, \.median, \.p95, \.p99, \.max] {
      s[keyPath: path] = (s[keyPath: path] * scale).rounded() / scale
    }
    return s
  }
}

extension Duration {
  package var milliseconds: Double {
    Double(components.seconds) * 1000 + Double(components.attoseconds) * 1e-15
  }
}
