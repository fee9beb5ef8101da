import ConfettiCore
import ConfettiGL
import ConfettiImage
import ConfettiPresets
import XCTest

/// Rendered frames read back: pieces are where the reference puts them, in their colour.
final class RenderTests: HeadlessGLTestCase {
  let background = RGBA8(red: 20, green: 22, blue: 28)

  /// A square, unrotated, flat piece: easy to find in pixels.
  func square(at origin: Point, color: RGBA8, size: Double = 10) -> ConfettiParticle {
    var p = ConfettiParticle()
    p.origin = origin
    p.velocityX = 40
    p.velocityY = -120
    p.size = Size(width: size, height: size)
    p.color = color
    p.flips = false
    p.lifetime = 2
    return p
  }

  /// Draws `ring` at `now` into a fresh `pixels` target showing a `window`-point window.
  func render(
    _ ring: inout ParticleRing, at now: Tick, pixels: (Int, Int), window: Size,
    renderer: ParticleRenderer? = nil
  ) throws -> (RGBAImage, ParticleRenderer) {
    let renderer = try renderer ?? ParticleRenderer(capacity: ring.capacity, info: context.info)
    let frame = try OffscreenTarget(width: pixels.0, height: pixels.1, info: context.info)
    frame.bind()
    GLFrame.clear(to: background)
    try renderer.draw(&ring, at: now, in: frame.rect, window: window)
    return (try frame.read(), renderer)
  }

  /// The bounding box of pixels that differ from the background.
  func paintedBox(_ image: RGBAImage) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
    var xs: [Int] = []
    var ys: [Int] = []
    for y in 0..<image.height {
      for x in 0..<image.width where image[x, y] != pixel(background) {
        xs.append(x)
        ys.append(y)
      }
    }
    guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else {
      return nil
    }
    return (minX...maxX, minY...maxY)
  }

  func pixel(_ c: RGBA8) -> RGBAImage.Pixel {
    RGBAImage.Pixel(red: c.red, green: c.green, blue: c.blue)
  }

  func testAPieceIsDrawnWhereTheReferencePutsItInItsColour() throws {
    for pixelsPerPoint in [1, 2] {  // a plain and a HiDPI framebuffer
      var ring = ParticleRing(capacity: 4)
      ring.append([square(at: Point(x: 100, y: 150), color: .green)], bornAt: 10)
      let now = Tick(10.5)
      let state = try XCTUnwrap(ConfettiPhysics.state(of: ring.records[0], at: now))
      let (image, _) = try render(
        &ring, at: now, pixels: (320 * pixelsPerPoint, 240 * pixelsPerPoint),
        window: Size(width: 320, height: 240))

      let centre = (
        Int(state.position.x * Double(pixelsPerPoint)),
        Int(state.position.y * Double(pixelsPerPoint))
      )
      XCTAssertEqual(image[centre.0, centre.1], pixel(.green), "the centre is the piece's colour")
      let box = try XCTUnwrap(paintedBox(image), "nothing was drawn")
      // The 10-point square spans 10 × pixelsPerPoint pixels around the centre (±1 for smoothing).
      let side = 10 * pixelsPerPoint
      XCTAssert(
        abs(box.x.count - side) <= 2 && abs(box.y.count - side) <= 2, "box \(box), expected \(side)"
      )
      let boxCentre = (
        Double(box.x.lowerBound + box.x.upperBound + 1) / 2,
        Double(box.y.lowerBound + box.y.upperBound + 1) / 2
      )
      XCTAssertEqual(boxCentre.0, state.position.x * Double(pixelsPerPoint), accuracy: 1)
      XCTAssertEqual(boxCentre.1, state.position.y * Double(pixelsPerPoint), accuracy: 1)
    }
  }

  func testRotationAndTheFlipChangeTheFootprint() throws {
    var ring = ParticleRing(capacity: 4)
    var wide = square(at: Point(x: 60, y: 60), color: .orange)
    wide.size = Size(width: 40, height: 8)
    wide.rotation = 90  // standing upright
    ring.append([wide], bornAt: 0)
    let (image, _) = try render(
      &ring, at: Tick(0.25), pixels: (200, 200), window: Size(width: 200, height: 200))
    let box = try XCTUnwrap(paintedBox(image))
    XCTAssert(box.y.count > 3 * box.x.count, "a 40×8 piece turned 90° is tall: \(box)")
  }

  func testAPieceJustOffTheEdgeStillShowsItsVisibleHalf() throws {
    // GL drops a point sprite whose centre leaves the viewport; the renderer's margin prevents it.
    var p = square(at: Point(x: -2, y: 50), color: .blue, size: 12)
    p.velocityX = 0
    p.velocityY = 0
    p.gravity = 0.001
    var ring = ParticleRing(capacity: 1)
    ring.append([p], bornAt: 0)
    let (image, _) = try render(
      &ring, at: Tick(0.1), pixels: (100, 100), window: Size(width: 100, height: 100))
    XCTAssertEqual(image[1, 50], pixel(.blue), "the part inside the window is drawn")
  }

  func testASteadyFrameSendsOnlyTheTimeUniformAndABurstOnlyItsRecords() throws {
    var scene = try EffectScene(config: Presets.named("cannon"), capacity: 1000, seed: 5)
    let window = Size(width: 320, height: 240)
    let renderer = try ParticleRenderer(capacity: 1000, info: context.info)
    let rect = PixelRect(width: 320, height: 240)

    scene.trigger(.key, window: window, time: 1.0)
    renderer.resetMeter()
    try renderer.draw(&scene.ring, at: Tick(1.0), in: rect, window: window)
    XCTAssertEqual(renderer.meter.bufferBytes, 30 * 64, "a burst uploads its 30 records")
    XCTAssertEqual(renderer.meter.bufferWrites, 1)
    XCTAssertEqual(
      renderer.meter.uniformBytes, 20 + 4, "the first frame: the projection and the clock")

    for frame in 1...5 {
      renderer.resetMeter()
      scene.ring.reclaim(at: 1.0 + Double(frame) / 60)
      try renderer.draw(&scene.ring, at: Tick(1.0 + Double(frame) / 60), in: rect, window: window)
      XCTAssertEqual(renderer.meter.bufferBytes, 0, "frame \(frame) uploaded records")
      XCTAssertEqual(renderer.meter.uniformBytes, 4, "frame \(frame): only the 4-byte clock")
      XCTAssertEqual(renderer.meter.uniformWrites, 1)
      XCTAssertEqual(renderer.meter.drawCalls, 1)
    }
  }

  func testNothingIsDrawnOnceEverythingHasDied() throws {
    var ring = ParticleRing(capacity: 100)
    ring.append(
      (0..<20).map { i in square(at: Point(x: Double(i) * 10, y: 50), color: .red) }, bornAt: 0)
    let (alive, renderer) = try render(
      &ring, at: Tick(1), pixels: (200, 100), window: Size(width: 200, height: 100))
    XCTAssertNotNil(paintedBox(alive))
    ring.reclaim(at: 2.5)
    renderer.resetMeter()
    let (idle, _) = try render(
      &ring, at: Tick(2.5), pixels: (200, 100), window: Size(width: 200, height: 100),
      renderer: renderer)
    XCTAssertEqual(renderer.meter.drawCalls, 0)
    XCTAssertEqual(renderer.meter.totalBytes, 0, "an idle frame sends nothing, not even the clock")
    XCTAssertNil(paintedBox(idle), "an idle frame is background only")
  }

  func testALiveSpanAcrossTheWrapIsDrawnWithTwoCalls() throws {
    var ring = ParticleRing(capacity: 10)
    ring.append((0..<8).map { _ in square(at: Point(x: 10, y: 10), color: .red) }, bornAt: 0)
    ring.reclaim(at: 3)
    ring.append((0..<4).map { _ in square(at: Point(x: 40, y: 80), color: .yellow) }, bornAt: 3)
    ring.append((0..<2).map { _ in square(at: Point(x: 160, y: 80), color: .purple) }, bornAt: 3)
    XCTAssertEqual(ring.drawnSlotRanges, [8..<10, 0..<4])
    let renderer = try ParticleRenderer(capacity: 10, info: context.info)
    renderer.resetMeter()
    let (image, _) = try render(
      &ring, at: Tick(3.2), pixels: (200, 150), window: Size(width: 200, height: 150),
      renderer: renderer)
    XCTAssertEqual(renderer.meter.drawCalls, 2)
    XCTAssertEqual(renderer.meter.bufferWrites, 2, "the new records straddle the wrap")
    let colours = Set(
      (0..<image.height).flatMap { y in (0..<image.width).map { x in image[x, y] } })
    XCTAssert(
      colours.contains(pixel(.yellow)) && colours.contains(pixel(.purple)), "both spans drawn")
    XCTAssertFalse(colours.contains(pixel(.red)), "dead records are not drawn")
  }
}
