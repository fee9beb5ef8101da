import ConfettiCore
import ConfettiGL
import ConfettiImage
import ConfettiPresets
import ConfettiTestSupport
import Foundation
import XCTest

/// A test case that runs on a fresh headless GL context (EGL; Mesa's llvmpipe on CI): the base
/// of every test room that draws (the GL layer, the facade, the bench).
///
/// Without a context the test is skipped with the reason, except under CI=true: CI installs Mesa,
/// so there a missing context is a failure, never a silent skip.
open class HeadlessGLTestCase: XCTestCase {
  package var context: HeadlessContext!
  /// A small framebuffer, bound: a surfaceless context has no default one, and GL refuses to
  /// draw (transform feedback included) without a complete framebuffer.
  package var target: OffscreenTarget!

  override open func setUpWithError() throws {
    do {
      context = try HeadlessContext()
      target = try OffscreenTarget(width: 64, height: 64, info: context.info)
      target.bind()
    } catch {
      throw unavailable("needs a headless OpenGL 3.3 context: \(error)")
    }
  }

  override open func tearDown() {
    target = nil
    context = nil
  }

  /// `count` particles of the `confetti` preset (its click bursts, thrown at random points, and
  /// the classic cannon) in windows of several sizes: a wide spread of every parameter.
  package func variedParticles(count: Int, seed: UInt64) -> [ConfettiParticle] {
    var random = SplitMix64(seed: seed)
    let windows = [
      Size(width: 640, height: 480), Size(width: 1920, height: 1080), Size(width: 300, height: 900),
    ]
    var scene = try! EffectScene(config: Presets.named("confetti"), capacity: 1, seed: seed)
    var particles: [ConfettiParticle] = []
    while particles.count < count {
      let window = windows.randomElement(using: &random)!
      // `sample` takes the click cell and the cannon's cell in turn.
      let point = Point(
        x: .random(in: 0...window.width, using: &random),
        y: .random(in: 0...window.height, using: &random))
      var batch = scene.sample(count: 60, window: window)
      for i in batch.indices { batch[i].emitter = 0 }  // the motion models below pick styles
      for i in batch.indices where i % 2 == 0 {
        batch[i].origin = point
        if i % 3 == 0 { batch[i].flips = false }
      }
      particles += batch
    }
    // Every motion model, in turn: the classic confetti (some pieces with their own drag or
    // gravity), the tap burst's ballistic pieces that
    // shrink with life, the fire emitter's horizontal-only drag, CAEmitterCell growth with a
    // sideways acceleration, emitters with wind, gusts and colour ramps (``motionTable``), and
    // an emitter that fades out with pieces that darken their back and draw trails; glowing,
    // additive pieces that fade in, twinkle and land; tumbling paper in gusts that lands.
    for i in particles.indices {
      switch i % 8 {
      case 1:
        particles[i].drag = 0
        particles[i].gravity = 120
        particles[i].shrinksWithLife = true
        particles[i].shape = .circle
      case 2:
        particles[i].dragX = 5
        particles[i].dragY = 0
        particles[i].gravity = 80
        particles[i].emitter = 1
      case 3:
        particles[i].drag = 0
        particles[i].accelerationX = -40
        particles[i].scaleSpeed = -0.3
        particles[i].emitter = 2
      case 4:
        particles[i].drag = 0.05  // small drag: the series side of E and F
        particles[i].emitter = 3
      case 5:
        // An emitter that fades out, pieces that darken their back and draw trails.
        particles[i].darkensBack = true
        particles[i].trail = UInt8(1 + i % 4)
        particles[i].emitterFadeAt = 0.3 + 0.1 * Double(i % 7)
        particles[i].emitter = 4
      case 6:
        particles[i].shape = .glow
        particles[i].flips = false
        particles[i].flipFrequency = 9
        particles[i].emitter = 5
        particles[i].landing = particles[i].landingTime(onto: particles[i].origin.y + 60)
      case 7:
        particles[i].flips = true
        particles[i].darkensBack = true
        particles[i].emitter = 3
        particles[i].landing = particles[i].landingTime(onto: particles[i].origin.y + 120)
      default:
        // The classic confetti, each piece with its own descent (a cell's dragRange and
        // gravityRange): every fourth with its own drag, every other fourth its own gravity.
        if i % 32 == 0 { particles[i].drag *= .random(in: 0.65...1.35, using: &random) }
        if i % 32 == 16 { particles[i].gravity *= .random(in: 0.65...1.35, using: &random) }
      }
    }
    return Array(particles.prefix(count))
  }

  /// Cell styles for ``variedParticles(count:seed:)``: wind and gusts, colour ramps.
  package var motionTable: CellTable {
    var table = CellTable()
    var fire = CellStyle()
    fire.colorSpeed = [0, -0.6, -0.4, -0.3]
    table.set(fire, at: 1)
    var breezy = CellStyle()
    breezy.wind = 60
    breezy.gustAmplitude = 25
    breezy.gustPeriod = 1.7
    breezy.gustPhase = 0.4
    breezy.colorSpeed = [0.3, 0.2, -0.5, 0]
    table.set(breezy, at: 2)
    var stormy = CellStyle()
    stormy.wind = -150
    stormy.gustAmplitude = 40
    stormy.gustPeriod = 0.9
    table.set(stormy, at: 3)
    var fading = CellStyle()
    fading.fadeOut = 0.5
    fading.trailSpacing = 0.04
    fading.gustAmplitude = 10
    fading.gustPeriod = 1.3
    fading.wind = 20
    table.set(fading, at: 4)
    var glowing = CellStyle()
    glowing.fadeIn = 0.3
    glowing.twinkle = 0.8
    glowing.additive = true
    glowing.stretch = 0.08
    table.set(glowing, at: 5)
    return table
  }
}

extension RGBAImage.Pixel {
  /// The opaque pixel of colour `c`.
  package init(_ c: RGBA8) {
    self.init(red: c.red, green: c.green, blue: c.blue)
  }
}

extension OffscreenTarget {
  /// Draws `ring` as `renderer` sees it at clock `now`, over `background`, in a window of
  /// `window` points spread over this target, and reads the picture back.
  package func snapshot(
    of ring: inout ParticleRing, at now: Tick, window: Size, renderer: ParticleRenderer,
    background: RGBA8 = GLFrame.background
  ) throws -> RGBAImage {
    bind()
    GLFrame.clear(to: background)
    try renderer.draw(&ring, at: now, in: rect, window: window)
    return try read()
  }
}
