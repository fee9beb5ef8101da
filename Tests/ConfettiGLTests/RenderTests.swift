import ConfettiCore
import ConfettiGL
import ConfettiGLTestSupport
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
    var scene = try EffectScene(config: Presets.named("classic-cannon"), capacity: 1000, seed: 5)
    let window = Size(width: 320, height: 240)
    let renderer = try ParticleRenderer(capacity: 1000, info: context.info)
    let rect = PixelRect(width: 320, height: 240)

    scene.trigger(.key, window: window, time: 1.0)
    var before = renderer.meter
    try renderer.draw(&scene.ring, at: Tick(1.0), in: rect, window: window)
    let first = renderer.meter - before
    XCTAssertEqual(
      first.bufferBytes, 30 * MemoryLayout<ParticleRecord>.stride, "a burst uploads its 30 records")
    XCTAssertEqual(first.bufferWrites, 1)
    XCTAssertEqual(first.uniformBytes, 44 + 4, "the first frame: the projection and the clock")

    for frame in 1...5 {
      before = renderer.meter
      scene.ring.reclaim(at: 1.0 + Double(frame) / 60)
      try renderer.draw(&scene.ring, at: Tick(1.0 + Double(frame) / 60), in: rect, window: window)
      let sent = renderer.meter - before
      XCTAssertEqual(sent.bufferBytes, 0, "frame \(frame) uploaded records")
      XCTAssertEqual(sent.uniformBytes, 4, "frame \(frame): only the 4-byte clock")
      XCTAssertEqual(sent.uniformWrites, 1)
      XCTAssertEqual(sent.drawCalls, 1)
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
    let before = renderer.meter
    let (idle, _) = try render(
      &ring, at: Tick(2.5), pixels: (200, 100), window: Size(width: 200, height: 100),
      renderer: renderer)
    XCTAssertEqual((renderer.meter - before).drawCalls, 0)
    XCTAssertEqual(
      (renderer.meter - before).totalBytes, 0, "an idle frame sends nothing, not even the clock")
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
    let before = renderer.meter
    let (image, _) = try render(
      &ring, at: Tick(3.2), pixels: (200, 150), window: Size(width: 200, height: 150),
      renderer: renderer)
    XCTAssertEqual((renderer.meter - before).drawCalls, 2)
    XCTAssertEqual(
      (renderer.meter - before).bufferWrites, 2, "the new records straddle the wrap")
    let colours = Set(
      (0..<image.height).flatMap { y in (0..<image.width).map { x in image[x, y] } })
    XCTAssert(
      colours.contains(pixel(.yellow)) && colours.contains(pixel(.purple)), "both spans drawn")
    XCTAssertFalse(colours.contains(pixel(.red)), "dead records are not drawn")
  }
}

/// Both primitives draw every piece whole, where the reference puts its corners: big ones
/// (beyond the GL's largest point sprite), rotated, tumbled, and on a HiDPI framebuffer.
final class PrimitiveTests: HeadlessGLTestCase {
  let background = RGBA8(red: 20, green: 22, blue: 28)

  /// A still piece: no motion, so its place and shape at any age are its initial ones.
  func piece(_ width: Double, _ height: Double, rotation: Degrees, tumble: Radians? = nil)
    -> ConfettiParticle
  {
    var p = ConfettiParticle()
    p.origin = Point(x: 300, y: 250)
    p.gravity = 0
    p.size = Size(width: width, height: height)
    p.rotation = rotation
    p.color = .green
    p.lifetime = 2
    p.flips = tumble != nil
    p.flipPhase = tumble ?? 0
    return p
  }

  /// `piece` alone, drawn at 0.5 s as `primitive`s into a 600 × 500 point window at
  /// `pixelsPerPoint`; the picture, the reference's state and the primitive actually used.
  func draw(_ piece: ConfettiParticle, as primitive: SpritePrimitive, pixelsPerPoint: Int)
    throws -> (RGBAImage, ParticleState, SpritePrimitive)
  {
    var ring = ParticleRing(capacity: 1)
    ring.append([piece], bornAt: 0)
    let now = Tick(0.5)
    let state = try XCTUnwrap(ConfettiPhysics.state(of: ring.records[0], at: now))
    let renderer = try ParticleRenderer(capacity: 1, info: context.info, primitive: primitive)
    let frame = try OffscreenTarget(
      width: 600 * pixelsPerPoint, height: 500 * pixelsPerPoint, info: context.info)
    frame.bind()
    GLFrame.clear(to: background)
    try renderer.draw(&ring, at: now, in: frame.rect, window: Size(width: 600, height: 500))
    return (try frame.read(), state, renderer.primitive)
  }

  /// Where the reference puts a point `(along, across)` of the piece's own frame (in points
  /// from its centre, y down, before rotation), in framebuffer pixels.
  func place(_ local: (Double, Double), _ state: ParticleState, _ scale: Double)
    -> (Double, Double)
  {
    let angle = state.rotation * .pi / 180
    let (c, s) = (cos(angle), sin(angle))
    return (
      (state.position.x + c * local.0 - s * local.1) * scale,
      (state.position.y + s * local.0 + c * local.1) * scale
    )
  }

  func testEveryCornerIsWhereTheReferencePutsItOnBothPrimitives() throws {
    let pieces = [
      ("a 300 × 300 square turned 30°", piece(300, 300, rotation: 30)),
      ("a 400 × 40 bar", piece(400, 40, rotation: 0)),
      ("a 400 × 40 bar turned 105°", piece(400, 40, rotation: 105)),
      (
        "a 120 × 60 piece tumbled to half its width", piece(120, 60, rotation: -20, tumble: .pi / 3)
      ),
      ("a 12 × 7 piece turned 60°", piece(12, 7, rotation: 60)),
    ]
    let (green, empty) = (RGBAImage.Pixel(.green), RGBAImage.Pixel(background))
    for primitive in SpritePrimitive.concrete {
      for scale in [1, 2] {
        for (name, p) in pieces {
          let (image, state, used) = try draw(p, as: primitive, pixelsPerPoint: scale)
          let what = "\(name) as \(primitive) at \(scale) px/pt"
          // The renderer's own test: the piece's largest diagonal, and a pixel each side (and
          // a whole-pixel square's margin).
          let margin = context.info.drawsWholePixelPoints ? ShaderConstants.wholePixelMargin : 0
          let pixels =
            ParticleRecord(p, birth: Tick(0)).largestDiagonal * Double(scale) + 2 + margin
          if primitive != .quads, pixels > Double(context.info.maxPointSize) {
            XCTAssertEqual(used, .quads, "\(what): too big for a point sprite")
          } else {
            XCTAssertEqual(used, primitive, what)
          }
          let half = (state.size.width / 2, state.size.height / 2)
          // One point (at least one pixel) inside each corner, and as far outside it.
          let inset = min(1, half.0 / 3, half.1 / 3)
          for (sx, sy) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)] {
            let inside = place((sx * (half.0 - inset), sy * (half.1 - inset)), state, Double(scale))
            let outside = place((sx * (half.0 + 1.5), sy * (half.1 + 1.5)), state, Double(scale))
            XCTAssertEqual(
              image[Int(inside.0), Int(inside.1)], green, "\(what): corner \(sx), \(sy) is missing")
            XCTAssertEqual(
              image[Int(outside.0), Int(outside.1)], empty,
              "\(what): drawn beyond corner \(sx), \(sy)")
          }
        }
      }
    }
  }

  func testAGLThatRasterisesOnItsOwnThreadsGetsPointsInFlushedBatchesOfTheSamePicture() throws {
    // 40,000 small pieces over a 600 × 500 window, each turned its own way.
    let count = 40_000
    let pieces = (0..<count).map { index -> ConfettiParticle in
      var p = piece(7, 4, rotation: Degrees(index % 360))
      p.origin = Point(x: Double(index % 200) * 3 + 1, y: Double(index / 200) * 2.5 + 1)
      p.color = RGBA8.confettiPalette[index % RGBA8.confettiPalette.count]
      return p
    }
    let batch = InstanceArray.batch(for: context.info)
    for trail in [0, 1] {
      var pictures: [SpritePrimitive: RGBAImage] = [:]
      for primitive in [SpritePrimitive.points, .instancedPoints] {
        var ring = ParticleRing(capacity: count)
        ring.append(
          pieces.map {
            var p = $0; p.trail = UInt8(trail); return p
          }, bornAt: 0)
        let renderer = try ParticleRenderer(
          capacity: count, info: context.info, primitive: primitive)
        let frame = try OffscreenTarget(width: 600, height: 500, info: context.info)
        frame.bind()
        GLFrame.clear(to: background)
        try renderer.draw(
          &ring, at: Tick(0.5), in: frame.rect, window: Size(width: 600, height: 500))
        pictures[primitive] = try frame.read()
        // Trail copies are drawn whole: a batch's oldest copies would land on another's heads.
        let expected =
          primitive == .points && trail == 0 ? batch.map { (count + $0 - 1) / $0 } ?? 1 : 1
        XCTAssertEqual(renderer.meter.drawCalls, expected, "\(primitive), trail \(trail)")
      }
      let batched = try XCTUnwrap(pictures[.points])
      let blank = RGBAImage(width: 600, height: 500, fill: .init(background))
      XCTAssertGreaterThan(batched.difference(from: blank).pixels, 100_000, "pieces were drawn")
      XCTAssertEqual(
        batched.difference(from: try XCTUnwrap(pictures[.instancedPoints])).pixels, 0,
        "trail \(trail): batches drew another picture")
    }
    if context.info.renderer.hasPrefix("llvmpipe") {
      XCTAssertEqual(batch, 16_384, "llvmpipe draws points in flushed batches")
    }
  }

  func testBothPrimitivesAndBothWaysOfStartingADrawMakeTheSamePicture() throws {
    // A scene whose live span straddles the ring's wrap: two draws, starting mid-buffer.
    var scene = try EffectScene(config: Presets.named("confetti"), capacity: 300, seed: 3)
    let window = Size(width: 400, height: 300)
    for time in stride(from: 0.0, to: 2.0, by: 0.25) {
      scene.trigger(.click, at: Point(x: 100 + 100 * time, y: 150), window: window, time: time)
      scene.advance(to: time, window: window)
    }
    scene.ring.reclaim(at: 2.1)
    XCTAssertEqual(scene.ring.drawnSlotRanges.count, 2, "the live span wraps")
    var withoutBaseInstance = context.info
    withoutBaseInstance.hasBaseInstance = false
    var pictures: [String: RGBAImage] = [:]
    for primitive in SpritePrimitive.concrete {
      for info in [context.info, withoutBaseInstance] {
        var ring = scene.ring
        let renderer = try ParticleRenderer(capacity: 300, info: info, primitive: primitive)
        renderer.setCellTable(scene.table)
        let frame = try OffscreenTarget(width: 400, height: 300, info: context.info)
        frame.bind()
        GLFrame.clear(to: background)
        try renderer.draw(&ring, at: Tick(2.1), in: frame.rect, window: window)
        XCTAssertEqual(renderer.meter.drawCalls, 2)
        pictures["\(primitive), base instance \(info.hasBaseInstance)"] = try frame.read()
      }
    }
    let reference = try XCTUnwrap(pictures["points, base instance \(context.info.hasBaseInstance)"])
    let blank = RGBAImage(width: 400, height: 300, fill: .init(background))
    let painted = reference.difference(from: blank).pixels
    XCTAssertGreaterThan(painted, 2000, "pieces were drawn")
    for (name, picture) in pictures {
      assertSamePicture(picture, reference, painted: painted, name)
    }
  }

  /// Quads and point sprites sample the same pixel centres: a rounding step or two apart (their
  /// corners interpolate the piece's frame from different places), and rarely. Where a turned
  /// piece's smoothed corner reaches past its point sprite's square, by 0.21 px at most (at
  /// 45°), the square leaves out pixels the corner covers by 2 % at most: up to 6 steps, in a
  /// few corner pixels.
  func assertSamePicture(
    _ picture: RGBAImage, _ reference: RGBAImage, painted: Int, _ name: String,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertLessThanOrEqual(
      picture.difference(from: reference).largest, 6, name, file: file, line: line)
    let corners = picture.difference(from: reference, threshold: 2).pixels
    XCTAssertLessThanOrEqual(
      corners, painted / 200, "\(name): \(corners) pixels differ by more than 2 steps",
      file: file, line: line)
    let differing = picture.difference(from: reference, threshold: 1).pixels
    XCTAssertLessThan(
      differing, painted / 100, "\(name): \(differing) pixels differ", file: file, line: line)
  }

  func testACompatibilityProfilesWholePixelPointsDrawWhatACoreProfilesSpritesDraw() throws {
    // 3,000 small pieces, each its own size, turn and tumble, at every fraction of a pixel.
    var random = SplitMix64(seed: 11)
    let pieces = (0..<3000).map { index -> ConfettiParticle in
      var p = piece(
        .random(in: 2...16, using: &random), .random(in: 1...9, using: &random),
        rotation: .random(in: 0..<360, using: &random),
        tumble: index % 3 == 0 ? .random(in: 0...3, using: &random) : nil)
      p.origin = Point(
        x: .random(in: 0...600, using: &random), y: .random(in: 0...500, using: &random))
      p.color = RGBA8.confettiPalette[index % RGBA8.confettiPalette.count]
      return p
    }
    // Drawn at 1 and 1.5 pixels per point, on the current context.
    func pictures(_ primitive: SpritePrimitive, info: GLInfo) throws -> [RGBAImage] {
      try [(600, 500), (900, 750)].map { size in
        var ring = ParticleRing(capacity: pieces.count)
        ring.append(pieces, bornAt: 0)
        let renderer = try ParticleRenderer(
          capacity: pieces.count, info: info, primitive: primitive)
        defer { renderer.release() }
        let frame = try OffscreenTarget(width: size.0, height: size.1, info: info)
        defer { frame.release() }
        frame.bind()
        GLFrame.clear(to: background)
        try renderer.draw(
          &ring, at: Tick(0.5), in: frame.rect, window: Size(width: 600, height: 500))
        return try frame.read()
      }
    }
    if context.info.renderer.hasPrefix("llvmpipe") {
      XCTAssertTrue(context.info.drawsWholePixelPoints, "Mesa offers a compatibility profile")
    }
    let wholePixels = try pictures(.points, info: context.info)
    let quads = try pictures(.quads, info: context.info)
    let core = try HeadlessContext(profile: .core)
    XCTAssertFalse(core.info.drawsWholePixelPoints, "a core profile has only sprites")
    let sprites = try pictures(.points, info: core.info)
    try context.makeCurrent()
    target.bind()
    for (index, name) in ["1 px/pt", "1.5 px/pt"].enumerated() {
      let blank = RGBAImage(
        width: sprites[index].width, height: sprites[index].height, fill: .init(background))
      let painted = sprites[index].difference(from: blank).pixels
      XCTAssertGreaterThan(painted, 50_000, "\(name): pieces were drawn")
      assertSamePicture(wholePixels[index], sprites[index], painted: painted, "\(name): sprites")
      assertSamePicture(wholePixels[index], quads[index], painted: painted, "\(name): quads")
    }
  }

  func testPointsLandWhereQuadsDoInAnyRectangleOfTheFramebuffer() throws {
    // A grid of still pieces, each turned and tumbled its own way, in a 400 × 300 framebuffer.
    func pieces(shiftedBy shift: Double) -> [ConfettiParticle] {
      (0..<40).map { index in
        var p = piece(14, 9, rotation: Degrees(17 * index), tumble: Radians(index % 5) * 0.3)
        p.origin = Point(x: shift + 25 + Double(index % 8) * 48, y: 30 + Double(index / 8) * 55)
        p.color = RGBA8.confettiPalette[index % RGBA8.confettiPalette.count]
        return p
      }
    }
    let widest = context.info.maxViewport.width + 600
    let cases: [(String, PixelRect, Size, Double)] = [
      // Offset from the framebuffer's corner, and fewer pixels per point across than down.
      (
        "an offset rectangle", PixelRect(x: 37, y: 23, width: 300, height: 200),
        Size(width: 400, height: 300), 0
      ),
      // Wider than the GL's largest viewport, reaching past the framebuffer's left edge.
      (
        "a rectangle wider than any viewport",
        PixelRect(x: 400 - widest, y: 0, width: widest, height: 300),
        Size(width: Double(widest), height: 300), Double(widest - 400)
      ),
    ]
    for (name, rect, window, shift) in cases {
      let still = pieces(shiftedBy: shift)
      var pictures: [SpritePrimitive: RGBAImage] = [:]
      for primitive in [SpritePrimitive.points, .quads] {
        var ring = ParticleRing(capacity: still.count)
        ring.append(still, bornAt: 0)
        let renderer = try ParticleRenderer(
          capacity: still.count, info: context.info, primitive: primitive)
        let frame = try OffscreenTarget(width: 400, height: 300, info: context.info)
        frame.bind()
        GLFrame.clear(to: background)
        try renderer.draw(&ring, at: Tick(0.5), in: rect, window: window)
        let image = try frame.read()
        pictures[primitive] = image
        // Every piece's centre is painted in its own colour, where the rectangle puts it.
        let scale = (Double(rect.width) / window.width, Double(rect.height) / window.height)
        for p in still {
          let x = Double(rect.x) + p.origin.x * scale.0
          let y = Double(300 - rect.y - rect.height) + p.origin.y * scale.1
          XCTAssertEqual(
            image[Int(x), Int(y)], RGBAImage.Pixel(p.color), "\(name), \(primitive): (\(x), \(y))")
        }
      }
      let points = try XCTUnwrap(pictures[.points])
      let blank = RGBAImage(width: 400, height: 300, fill: .init(background))
      let painted = points.difference(from: blank).pixels
      XCTAssertGreaterThan(painted, 40 * 60, "\(name): pieces were drawn")
      assertSamePicture(try XCTUnwrap(pictures[.quads]), points, painted: painted, name)
    }
  }
}

/// What `auto` draws on each GL: what `confetti bench` measured fastest there
/// (docs/performance.md), and a guess elsewhere.
final class AutoPrimitiveTests: XCTestCase {
  func testAutoDrawsWhatWasMeasuredFastestOnEachGL() {
    let picks: [(renderer: String, primitive: SpritePrimitive)] = [
      ("llvmpipe (LLVM 15.0.6, 256 bits)", .points),
      // llvmpipe behind zink (lavapipe), and as old Mesas named it.
      ("zink Vulkan 1.3(llvmpipe (LLVM 15.0.6, 256 bits) (MESA_LLVMPIPE))", .points),
      ("Gallium 0.4 on llvmpipe (LLVM 3.4, 256 bits)", .points),
      ("NVIDIA H100 80GB HBM3/PCIe/SSE2", .quads),
      ("NVIDIA GeForce RTX 4090/PCIe/SSE2", .quads),
      // Not measured: the guess.
      ("AMD Radeon RX 7600 (radeonsi, navi33, LLVM 15.0.6, DRM 3.54)", .quads),
      ("Mesa Intel(R) UHD Graphics 620 (KBL GT2)", .quads),
    ]
    for (renderer, primitive) in picks {
      XCTAssertEqual(SpritePrimitive.fastest(onRenderer: renderer), primitive, renderer)
    }
  }
}
