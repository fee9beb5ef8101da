import ConfettiCore
import ConfettiPresets
import Foundation
import XCTest

/// How pieces look and end: paper shading that keeps each colour's hue, fade-in, twinkle,
/// additive light, pieces that land on a floor exactly and stay, and bursts that start at
/// their point.
final class LookTests: XCTestCase {
  /// Hue in degrees, saturation and value of an RGB colour in shares of full scale.
  func hsv(_ c: SIMD3<Double>) -> (hue: Double, saturation: Double, value: Double) {
    let (high, low) = (c.max(), c.min())
    let span = high - low
    guard span > 0 else { return (0, 0, high) }
    var hue: Double
    if high == c.x {
      hue = (c.y - c.z) / span
    } else if high == c.y {
      hue = 2 + (c.z - c.x) / span
    } else {
      hue = 4 + (c.x - c.y) / span
    }
    hue = (hue * 60 + 360).truncatingRemainder(dividingBy: 360)
    return (hue, span / high, high)
  }

  let palette: [RGBA8] = [
    RGBA8(red: 0xff, green: 0x3b, blue: 0x30), RGBA8(red: 0xff, green: 0x95, blue: 0x00),
    RGBA8(red: 0xff, green: 0xcc, blue: 0x00), RGBA8(red: 0x34, green: 0xc7, blue: 0x59),
    RGBA8(red: 0x00, green: 0x7a, blue: 0xff), RGBA8(red: 0xaf, green: 0x52, blue: 0xde),
  ]

  func testPaperShadingKeepsTheHueDeepensTheBackAndGlintsFaceOn() {
    for color in palette {
      let rgb = SIMD3(Double(color.red), Double(color.green), Double(color.blue)) / 255
      let front = hsv(rgb)
      let back = ConfettiPhysics.paperShade(rgb, tumble: -1)
      let shaded = hsv(back)
      var hueShift = abs(shaded.hue - front.hue)
      hueShift = min(hueShift, 360 - hueShift)
      XCTAssertLessThan(hueShift, 15, "\(color): the back keeps its hue")
      XCTAssertGreaterThanOrEqual(shaded.saturation, front.saturation - 1e-9, "\(color)")
      XCTAssertLessThan(shaded.value, front.value, "\(color): the back is deeper")
      XCTAssertGreaterThan(shaded.value, 0.6 * front.value, "\(color): deeper, not dark")
      // Face on, a glint: nearer white than the colour itself.
      let glinting = ConfettiPhysics.paperShade(rgb, tumble: 1)
      XCTAssert(all(glinting .>= rgb), "\(color)")
      XCTAssertGreaterThan((glinting - rgb).sum(), 0.05, "\(color) glints")
      // Continuous with the tilt: no jump anywhere between back and face.
      var worst = 0.0
      for step in 0..<2000 {
        let c = -1 + Double(step) / 1000
        let a = ConfettiPhysics.paperShade(rgb, tumble: c)
        let b = ConfettiPhysics.paperShade(rgb, tumble: c + 0.001)
        worst = max(worst, (a - b).max(), (b - a).max())
      }
      XCTAssertLessThan(worst, 0.002, "\(color): follows the tilt continuously")
    }
    // Yellow turns gold, not olive: its red stays bright.
    let yellow = ConfettiPhysics.paperShade(SIMD3(1, 0.8, 0), tumble: -1)
    XCTAssertGreaterThan(yellow.x, 0.75)
    XCTAssertGreaterThan(hsv(yellow).hue, 35)
  }

  func testFadeInTwinkleAndAdditiveComeFromTheCellsTableEntry() {
    var style = CellStyle()
    style.fadeIn = 0.4
    style.twinkle = 0.6
    style.additive = true
    var p = ConfettiParticle()
    p.lifetime = 5
    p.flips = false
    p.flipFrequency = 10
    p.flipPhase = 0
    // At t = 0.1: a quarter of the fade-in; the twinkle's wave at cos(1).
    let early = ConfettiPhysics.state(of: p, age: 0.1, style: style)!
    XCTAssertEqual(early.opacity, 0.25 * (1 - 0.6 * (1 - cos(1.0)) / 2), accuracy: 1e-12)
    XCTAssertTrue(early.additive)
    // Over a twinkle's period: from full down to 1 − depth.
    let opacities = (0..<200).map {
      ConfettiPhysics.state(of: p, age: 1 + Double($0) * 0.005, style: style)!.opacity
    }
    XCTAssertEqual(opacities.max()!, 1, accuracy: 1e-3)
    XCTAssertEqual(opacities.min()!, 0.4, accuracy: 1e-3)
    // Its size flares 18 % larger at its brightest and shrinks 18 % at its dimmest.
    p.size = Size(width: 10, height: 20)
    let states = (0..<200).map {
      ConfettiPhysics.state(of: p, age: 1 + Double($0) * 0.005, style: style)!
    }
    let brightest = states.max { $0.opacity < $1.opacity }!
    let dimmest = states.min { $0.opacity < $1.opacity }!
    XCTAssertEqual(brightest.size.height, 20 * 1.18, accuracy: 0.01)
    XCTAssertEqual(brightest.size.width, 10 * 1.18, accuracy: 0.01)
    XCTAssertEqual(dimmest.size.height, 20 * 0.82, accuracy: 0.01)
    // A tumbling piece does not twinkle: its wave is its tumble.
    p.flips = true
    XCTAssertEqual(ConfettiPhysics.state(of: p, age: 1.3, style: style)!.opacity, 1)
    XCTAssertFalse(ConfettiPhysics.state(of: p, age: 1.3)!.additive)
  }

  /// How light a backdrop is, for additive light: nothing up to a relative luminance of 0.25
  /// (black, navy, mid-grey), all of it from 0.75 (white, a light grey), smoothly between; and
  /// only the additive styles of a table take it, covering only where asked.
  func testABackdropsLightnessAndTheStylesThatTakeIt() {
    func lightness(_ grey: UInt8, alpha: UInt8 = 255) -> Double {
      ConfettiPhysics.backdropLightness(of: RGBA8(red: grey, green: grey, blue: grey, alpha: alpha))
    }
    XCTAssertEqual(lightness(0), 0)
    XCTAssertEqual(lightness(128), 0)
    XCTAssertEqual(lightness(255), 1)
    XCTAssertEqual(lightness(230), 1)
    let light = lightness(179)
    XCTAssert((0.2...0.8).contains(light), "\(light)")
    XCTAssertEqual(lightness(255, alpha: 0), 1, "its alpha aside")
    var table = CellTable()
    var glow = CellStyle()
    glow.additive = true
    table.set(glow, at: 1)
    table.set(CellStyle(), at: 2)
    table.setBackdrop(lightness: 0.6, covers: false)
    XCTAssertEqual([table[1].vivid, table[1].cover, table[2].vivid], [0.6, 0, 0])
    table.setBackdrop(lightness: 7, covers: true)
    XCTAssertEqual([table[1].vivid, table[1].cover, table[2].cover], [1, 1, 0])
  }

  func testAPieceLandsOnItsFloorExactlySettlesFlatAndStaysThere() throws {
    var p = ConfettiParticle()
    p.origin = Point(x: 100, y: 200)
    p.velocityX = 120
    p.velocityY = -300
    p.spin = 200
    p.flutterAmplitude = 30
    p.flutterFrequency = 5
    p.flipFrequency = 4
    p.lifetime = 8
    let floor = 500.0
    p.landing = p.landingTime(onto: floor)
    XCTAssert((1...6).contains(p.landing), "lands within its life: \(p.landing)")
    let before = try XCTUnwrap(ConfettiPhysics.state(of: p, age: p.landing - 0.01))
    XCTAssertLessThan(before.position.y, floor, "above the floor until it lands")
    XCTAssertLessThan(before.lowestPoint(elliptical: false), floor)
    let landed = try XCTUnwrap(ConfettiPhysics.state(of: p, age: p.landing))
    XCTAssertEqual(
      landed.lowestPoint(elliptical: false), floor, accuracy: 1e-3,
      "its lowest corner touches the floor: it neither sinks nor hovers")
    // Paper settles: it turns down to lie flat over the settle time, its lowest point on the
    // floor throughout, without a jump, then lies still, foreshortened.
    var previous = landed
    for step in 1...40 {
      let settling = try XCTUnwrap(
        ConfettiPhysics.state(of: p, age: p.landing + Double(step) * 0.01))
      XCTAssertEqual(settling.lowestPoint(elliptical: false), floor, accuracy: 1e-3, "on the floor")
      XCTAssertEqual(settling.position.x, landed.position.x, "it does not slide")
      XCTAssertEqual(settling.rotation, previous.rotation, accuracy: 3, "no jump in its turn")
      XCTAssertEqual(settling.widthScale, previous.widthScale, accuracy: 0.05, "nor its tumble")
      previous = settling
    }
    let rest = try XCTUnwrap(
      ConfettiPhysics.state(of: p, age: p.landing + ConfettiPhysics.settleTime))
    XCTAssertLessThanOrEqual(abs(rest.rotation - landed.rotation), 90, "the nearest way")
    XCTAssertEqual(
      rest.rotation.truncatingRemainder(dividingBy: 180), 90, accuracy: 1e-9, "width upright")
    XCTAssertEqual(
      rest.widthScale, ConfettiPhysics.restingTumble, accuracy: 1e-12, "flat, seen from above")
    for later in [0.5, 1.7] {
      let lying = try XCTUnwrap(ConfettiPhysics.state(of: p, age: p.landing + later))
      XCTAssertEqual(lying.position, rest.position, "it lies where it settled")
      XCTAssertEqual(lying.rotation, rest.rotation)
      XCTAssertEqual(lying.widthScale, rest.widthScale)
      XCTAssertEqual(lying.size.width, p.size.width * ConfettiPhysics.restingTumble, accuracy: 1e-9)
    }
    // A piece that does not tumble (a flake, an emoji) stops as it landed.
    var flake = p
    flake.flips = false
    flake.landing = flake.landingTime(onto: floor)
    let touched = try XCTUnwrap(ConfettiPhysics.state(of: flake, age: flake.landing))
    let lying = try XCTUnwrap(ConfettiPhysics.state(of: flake, age: flake.landing + 1))
    XCTAssertEqual(lying.position, touched.position)
    XCTAssertEqual(lying.rotation, touched.rotation)
    // Born on or below the floor, or dying before it reaches it: it never lands.
    XCTAssertEqual(p.landingTime(onto: 150), .infinity)
    p.lifetime = 0.5
    XCTAssertEqual(p.landingTime(onto: floor), .infinity)
  }

  func testAFloorsPiecesLieThereForTheirRestTimeThenFade() throws {
    let config = try EffectConfig.decode(
      """
      {"name": "landing", "emitters": [{"position": {"x": 0.5, "y": 0.2},
        "floor": {"y": 1, "offset": -10, "restTime": 2},
        "cells": [{"count": 50, "lifetime": 20, "fade": 0.5, "speed": 200,
          "sizes": [[12, 8]], "flips": true}]}]}
      """)
    let window = Size(width: 640, height: 480)
    var scene = try EffectScene(config: config, capacity: 64, seed: 3)
    scene.trigger(.start, window: window, time: 0)
    XCTAssertEqual(scene.ring.drawnCount, 50)
    for slot in scene.ring.drawnSlotRanges.joined() {
      let record = scene.ring.records[slot]
      let p = record.particle
      XCTAssert(p.landing.isFinite, "every piece lands")
      // Lying on the floor: its lowest corner on it.
      let lying = try XCTUnwrap(ConfettiPhysics.state(of: p, age: p.landing + 1))
      XCTAssertEqual(lying.lowestPoint(elliptical: false), 480 - 10, accuracy: 1e-3)
      XCTAssertEqual(p.lifetime, p.landing + 2 + 0.5, accuracy: 2e-3, "rests 2 s, fades 0.5 s")
    }
  }

  func testTheDefaultEffectsCornerCannonsLandEveryPieceOnTheBottomEdge() throws {
    // Thrown up from just above the bottom edge, turned any way: each comes back down onto it.
    for name in ["confetti", "emoji", "school-pride"] {
      var scene = try EffectScene(config: Presets.named(name), capacity: 4096, seed: 8)
      let window = Size(width: 1280, height: 720)
      scene.trigger(.start, window: window, time: 0)
      for frame in 1...210 { scene.advance(to: Double(frame) / 60, window: window) }
      let pieces = scene.ring.drawnSlotRanges.joined().map { scene.ring.records[$0].particle }
      XCTAssertGreaterThan(pieces.count, 40, name)
      let landed = pieces.filter { $0.landing < $0.lifetime }
      XCTAssertEqual(landed.count, pieces.count, "\(name): every piece lands in its life")
      // On the floor as seen from a little above: each on a line of its own in the floor's band.
      let depth = try XCTUnwrap(Presets.named(name).emitters[0].floor).depth
      var lowest: [Double] = []
      for p in landed.prefix(50) {
        let lying = try XCTUnwrap(ConfettiPhysics.state(of: p, age: p.landing))
        let line = lying.lowestPoint(elliptical: p.shape.isElliptical)
        XCTAssert((720 - depth - 1e-3...720 + 1e-3).contains(line), "\(name): \(line)")
        lowest.append(line)
        // Paper then lies flat: a band no taller than its width foreshortened.
        guard p.flips else { continue }
        let flat = try XCTUnwrap(
          ConfettiPhysics.state(of: p, age: p.landing + ConfettiPhysics.settleTime))
        XCTAssertEqual(flat.lowestPoint(elliptical: p.shape.isElliptical), line, accuracy: 1e-3)
        let band = 2 * flat.size.turnedHalfExtent(degrees: flat.rotation, elliptical: false).y
        XCTAssertEqual(band, p.size.width * ConfettiPhysics.restingTumble, accuracy: 1e-9, name)
      }
      // Inside the frame, and spread over the band where it has one.
      XCTAssertGreaterThan(lowest.max()! - lowest.min()!, depth * 0.6, name)
    }
  }

  /// The corner cannon of the default effect alone, with no floor and a long life, its pieces
  /// varied by `change`, as born: for what their fall does over ten seconds.
  private func cannonPieces(_ change: (inout CellConfig) -> Void) throws -> [ConfettiParticle] {
    var config = try Presets.named("confetti")
    config.emitters = [config.emitters[0]]
    config.emitters[0].floor = nil
    config.emitters[0].cells[0].lifetime = Varied(12)
    // As one burst, every piece alike but for `change`.
    config.emitters[0].emission = .burst
    config.emitters[0].cells[0].count = 150
    (config.emitters[0].cells[0].dragRange, config.emitters[0].cells[0].gravityRange) = (0, 0)
    config.emitters[0].cells[0].speed = Varied(1.9, range: 0.4)
    config.emitters[0].cells[0].direction = Varied(-50, range: 15)
    change(&config.emitters[0].cells[0])
    var scene = try EffectScene(config: config, capacity: 4096, seed: 5)
    let window = Size(width: 1280, height: 720)
    scene.trigger(.start, window: window, time: 0)
    scene.advance(to: 0.1, window: window)
    let pieces = scene.ring.drawnSlotRanges.joined().map { scene.ring.records[$0].particle }
    XCTAssertGreaterThan(pieces.count, 100)
    return pieces
  }

  /// The height of a cloud of `pieces` at `age`: the spread (standard deviation) of their
  /// heights, in points.
  private func height(of pieces: [ConfettiParticle], at age: Seconds) throws -> Double {
    let ys = try pieces.map { try XCTUnwrap(ConfettiPhysics.state(of: $0, age: age)).position.y }
    let mean = ys.reduce(0, +) / Double(ys.count)
    return (ys.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(ys.count)).squareRoot()
  }

  /// A cell's `dragRange` gives each piece its own drag, the same share on both axes (within
  /// the record's half-float rounding), and so its own terminal speed: once the pieces reach
  /// theirs, the cloud stretches, where without it every piece falls at g/k and the cloud keeps
  /// its height. (Those that drag less also climb higher, so the cloud first gathers.)
  func testADragRangeGivesEachPieceItsOwnDrag() throws {
    let plain = try cannonPieces { _ in }
    XCTAssert(plain.allSatisfy { abs($0.dragX - 1.6) < 2e-3 && $0.dragX == $0.dragY })
    let varied = try cannonPieces { $0.dragRange = 0.35 }
    let drags = varied.map(\.dragX)
    XCTAssert(varied.allSatisfy { $0.dragX == $0.dragY }, "one draw for both axes")
    XCTAssertGreaterThanOrEqual(drags.min()!, 1.6 * 0.65 - 2e-3)
    XCTAssertLessThanOrEqual(drags.max()!, 1.6 * 1.35 + 2e-3)
    XCTAssertGreaterThan(drags.max()! - drags.min()!, 1.6 * 0.5, "they spread")
    XCTAssertEqual(try height(of: plain, at: 10) / height(of: plain, at: 5), 1, accuracy: 0.01)
    XCTAssertGreaterThan(try height(of: varied, at: 10) / height(of: varied, at: 5), 1.5)
  }

  /// A cell's `gravityRange` gives each piece its own gravity, and so its own terminal speed,
  /// while its climb (where drag far outweighs gravity) hardly changes: the cloud stretches
  /// from the top of its climb, 2 s to 4 s, where without it it keeps its height.
  func testAGravityRangeStretchesAFallingCloud() throws {
    let plain = try cannonPieces { _ in }
    let varied = try cannonPieces { $0.gravityRange = 0.35 }
    let gravities = varied.map(\.gravity)
    XCTAssertGreaterThanOrEqual(gravities.min()!, 280 * 0.65 - 0.5)
    XCTAssertLessThanOrEqual(gravities.max()!, 280 * 1.35 + 0.5)
    XCTAssertLessThan(try height(of: plain, at: 4) / height(of: plain, at: 2), 1.1)
    XCTAssertGreaterThan(try height(of: varied, at: 4) / height(of: varied, at: 2), 1.25)
  }

  /// A floor's `depth` lands each piece on a line of its own within the band above the floor:
  /// every lowest point within it, and spread over it, not all on the line.
  func testAFloorsDepthLandsPiecesWithinItsBand() throws {
    var config = try Presets.named("confetti")
    config.emitters = [config.emitters[0]]
    config.emitters[0].emission = .burst
    config.emitters[0].cells[0].count = 150
    (config.emitters[0].cells[0].dragRange, config.emitters[0].cells[0].gravityRange) = (0, 0)
    config.emitters[0].floor?.depth = 24
    var scene = try EffectScene(config: config, capacity: 4096, seed: 8)
    let window = Size(width: 1280, height: 720)
    scene.trigger(.start, window: window, time: 0)
    scene.advance(to: 0.1, window: window)
    let pieces = scene.ring.drawnSlotRanges.joined().map { scene.ring.records[$0].particle }
    let lowest = try pieces.filter(\.landing.isFinite).map {
      try XCTUnwrap(ConfettiPhysics.state(of: $0, age: $0.landing))
        .lowestPoint(elliptical: $0.shape.isElliptical)
    }
    XCTAssertEqual(lowest.count, pieces.count, "every piece lands")
    XCTAssertGreaterThanOrEqual(lowest.min()!, 720 - 24 - 1e-3)
    XCTAssertLessThanOrEqual(lowest.max()!, 720 + 1e-3)
    XCTAssertGreaterThan(lowest.max()! - lowest.min()!, 18, "spread over the band")
    // Without a band, every piece on the line.
    config.emitters[0].floor?.depth = 0
    var flat = try EffectScene(config: config, capacity: 4096, seed: 8)
    flat.trigger(.start, window: window, time: 0)
    flat.advance(to: 0.1, window: window)
    for p in flat.ring.drawnSlotRanges.joined().map({ flat.ring.records[$0].particle }) {
      let lying = try XCTUnwrap(ConfettiPhysics.state(of: p, age: p.landing))
      XCTAssertEqual(lying.lowestPoint(elliptical: p.shape.isElliptical), 720, accuracy: 1e-3)
    }
  }

  /// In a small window a corner cannon's slow pieces never rise above the line in the floor's
  /// band they drew: they land on the floor's edge instead of falling through it unseen (and a
  /// clip of the effect ended 4.6 s after its last piece left the frame).
  func testPiecesThatNeverRiseAboveTheirLineLandOnTheFloorsEdge() throws {
    let window = Size(width: 160, height: 120)
    var scene = try EffectScene(config: Presets.named("confetti"), capacity: 4096, seed: 1)
    scene.trigger(.start, window: window, time: 0)
    scene.advance(to: 0.5, window: window)
    let pieces = scene.ring.drawnSlotRanges.joined().map { scene.ring.records[$0].particle }
    XCTAssertGreaterThan(pieces.count, 200)
    var onTheEdge = 0
    for p in pieces {
      XCTAssertLessThan(p.landing, p.lifetime, "every piece lands")
      let lying = try XCTUnwrap(ConfettiPhysics.state(of: p, age: p.landing))
      let line = lying.lowestPoint(elliptical: p.shape.isElliptical)
      XCTAssert((120 - 24 - 1e-3...120 + 1e-3).contains(line), "\(line)")
      if abs(line - 120) < 1e-3 { onTheEdge += 1 }
    }
    XCTAssertGreaterThan(onTheEdge, 0, "the slow ones, on the edge")
  }

  func testFallingConfettiIsPaperComingInFromAboveTheTopEdge() throws {
    var falling = 0  // pieces still falling at 4 s, whose speed is compared
    defer { XCTAssertGreaterThan(falling, 20, "pieces still falling at 4 s") }
    for window in [Size(width: 960, height: 540), Size(width: 540, height: 960)] {
      var scene = try EffectScene(
        config: Presets.named("falling-confetti"), capacity: 4096, seed: 2)
      scene.trigger(.start, window: window, time: 0)
      for frame in 1...90 { scene.advance(to: Double(frame) / 60, window: window) }
      let pieces = scene.ring.drawnSlotRanges.joined().map { scene.ring.records[$0].particle }
      XCTAssertGreaterThan(pieces.count, 150)
      var colours: [UInt8: Set<RGBA8>] = [:]
      for p in pieces {
        // Born wholly above the window: it comes in across the top edge, never cut by it.
        let born = try XCTUnwrap(ConfettiPhysics.state(of: p, age: 0))
        let top =
          born.position.y
          + born.size.turnedHalfExtent(
            degrees: born.rotation, elliptical: p.shape.isElliptical
          ).y
        XCTAssertLessThanOrEqual(top, 0, "born above the top edge")
        XCTAssert(p.flips && p.darkensBack, "paper: it tumbles and shows a darker back")
        XCTAssertGreaterThan(p.flutterAmplitude, 0, "it flutters")
        colours[p.shape.rawValue, default: []].insert(p.color)
        // Gravity and drag: it slows to the speed of falling paper.
        let late = ConfettiPhysics.velocity(of: p, age: 4).y
        let terminal = ConfettiPhysics.terminalVelocity(gravity: p.gravity, drag: p.dragY)
        if p.landing > 4 {
          XCTAssertEqual(late, terminal, accuracy: 3, "falling like paper")
          falling += 1
        }
      }
      XCTAssertEqual(colours.count, 4, "squares, triangles, stars, rounds")
      for (shape, seen) in colours { XCTAssertGreaterThanOrEqual(seen.count, 5, "shape \(shape)") }
      // The article's fade at 3 s comes first in a tall window.
      guard window.height < window.width else { continue }
      let landing = pieces.filter { $0.landing < 3 }.count
      XCTAssertGreaterThan(landing * 3, pieces.count, "many reach the floor before they fade")
    }
  }

  func testSparkleGlintsDwindleAsTheyFade() throws {
    // A fading glint kept its full size and, its light thinning, turned a large slate-grey
    // star; now it shrinks with its life, so that it goes out as a point.
    var scene = try EffectScene(config: Presets.named("sparkle"), capacity: 1, seed: 3)
    let glints = scene.sample(count: 60, window: Size(width: 800, height: 600)).filter {
      $0.shape.rawValue >= ParticleShape.firstImage
    }
    XCTAssertGreaterThan(glints.count, 20)
    for p in glints {
      let fading = try XCTUnwrap(ConfettiPhysics.state(of: p, age: p.lifetime - p.fade / 2))
      XCTAssertLessThan(fading.opacity, 0.55, "fading")
      XCTAssertLessThan(fading.size.width, 0.4 * p.size.width, "and small")
    }
  }

  func testThePartyPoppersCloudStaysInTheWindow() throws {
    // About a third of it used to fly out of the top from 0.3 to 0.8 s, at every size.
    for window in [
      Size(width: 960, height: 540), Size(width: 800, height: 600), Size(width: 540, height: 960),
      Size(width: 1920, height: 1080), Size(width: 320, height: 200),
    ] {
      var scene = try EffectScene(config: Presets.named("party-popper"), capacity: 1, seed: 9)
      var highest = Double.infinity
      var out = 0
      let pieces = scene.sample(count: 300, window: window)
      for p in pieces {
        var top = Double.infinity
        for frame in 0..<90 {
          guard let state = ConfettiPhysics.state(of: p, age: Double(frame) / 60) else { break }
          let reach = state.size.turnedHalfExtent(degrees: state.rotation, elliptical: false).y
          top = min(top, state.position.y - reach)
        }
        if top < 0 { out += 1 }
        highest = min(highest, top)
      }
      print(
        "party-popper \(window): \(out) of 300 out of the top; highest \(highest / window.height)")
      XCTAssertEqual(out, 0, "\(window): pieces out of the top")
      XCTAssertLessThan(highest, 0.15 * window.height, "\(window): it still pops up to the top")
    }
  }

  func testTheCornerCannonsStreamsMeetInTheMiddle() throws {
    // Raycast's streams cross the middle; the two corner clouds used to leave it empty.
    for name in ["confetti", "celebrate"] {
      for window in [Size(width: 960, height: 540), Size(width: 1280, height: 720)] {
        var scene = try EffectScene(config: Presets.named(name), capacity: 4096, seed: 4)
        scene.trigger(.start, window: window, time: 0)
        for frame in 1...90 { scene.advance(to: Double(frame) / 60, window: window) }
        var (crossed, middle, inside, above, all) = ([0, 0], 0, 0, 0, 0)
        for slot in scene.ring.drawnSlotRanges.joined() {
          let p = scene.ring.records[slot].particle
          let style = scene.table[p.emitter]
          guard let state = ConfettiPhysics.state(of: p, age: 1.5, style: style) else { continue }
          all += 1
          for frame in 0..<120 {
            let flying = ConfettiPhysics.state(of: p, age: Double(frame) / 60, style: style)
            if let y = flying?.position.y, y < 0 {
              above += 1
              break
            }
          }
          let x = state.position.x / window.width
          let side = p.origin.x < window.width / 2 ? 0 : 1
          if (side == 0) != (x < 0.5) { crossed[side] += 1 }
          if abs(x - 0.5) < 0.1 { middle += 1 }
          if (0...1).contains(x) { inside += 1 }
        }
        print(
          "\(name) \(window): at 1.5 s, \(crossed) of \(all) crossed, \(middle) in the middle fifth, \(above) out of the top"
        )
        XCTAssertGreaterThan(crossed.min()! * 40, all, "\(name) \(window): the streams cross")
        XCTAssertGreaterThan(inside * 10, all * 9, "\(name) \(window): in the window")
        XCTAssertLessThan(above * 50, all, "\(name) \(window): not out of the top")
        XCTAssertGreaterThan(middle * 10, all, "\(name) \(window): the middle is not empty")
      }
    }
  }

  func testTheClassicCannonDoesWhatItsDescriptionSays() throws {
    for window in [
      Size(width: 960, height: 540), Size(width: 800, height: 600), Size(width: 540, height: 960),
    ] {
      var scene = try EffectScene(config: Presets.named("classic-cannon"), capacity: 1, seed: 5)
      let pieces = scene.sample(count: 300, window: window)
      var peaks: [Double] = []
      for p in pieces {
        var top = Double.infinity
        var age = 0.0
        while let state = ConfettiPhysics.state(of: p, age: age) {
          top = min(top, state.position.y)
          age += 1.0 / 120
        }
        peaks.append(top / window.height)
      }
      peaks.sort()
      // "peaking about a fifth to two fifths down from the top of a wide window": the highest and
      // the median one, in landscape windows; higher in a tall one.
      let tall = window.height > window.width
      XCTAssertEqual(peaks[0], tall ? 0.07 : 0.18, accuracy: 0.04, "\(window): the highest")
      XCTAssertEqual(peaks[150], tall ? 0.2 : 0.31, accuracy: 0.04, "\(window): the median")
      XCTAssertLessThan(peaks[299], 0.45, "\(window): the lowest peak")
      // "fading out in mid-air by 1.5 s".
      for p in pieces {
        XCTAssertEqual(p.lifetime, 1.5)
        let fading = try XCTUnwrap(ConfettiPhysics.state(of: p, age: p.lifetime - 0.05))
        XCTAssertLessThan(fading.position.y, 0.8 * window.height, "in mid-air")
        XCTAssertLessThan(fading.opacity, 0.15)
      }
    }
  }

  func testTheClassicCannonStillSwaysAboutItsLine() throws {
    // The classic cannon's pieces are born A·sin φ to one side of where they are placed.
    var scene = try EffectScene(config: Presets.named("classic-cannon"), capacity: 1, seed: 4)
    let window = Size(width: 800, height: 600)
    let pieces = scene.sample(count: 200, window: window)
    let offsets = try pieces.map { p in
      try XCTUnwrap(ConfettiPhysics.state(of: p, age: 0)).position.x - p.origin.x
    }
    XCTAssertGreaterThan(offsets.map(abs).max()!, 20, "born to one side of the line")
  }
}

/// Sub-cells: pieces that other pieces start where and when they end, or along their flight,
/// all written at the parent's birth with their exact birth times and places.
final class SubCellTests: XCTestCase {
  let window = Size(width: 800, height: 600)

  func config(_ extra: String = "") throws -> EffectConfig {
    try EffectConfig.decode(
      """
      {"name": "shells", "emitters": [{"position": {"x": 0.5, "y": 1}, "cells": [{
        "count": 3, "lifetime": 6, "speed": {"value": 700, "range": 100}, "direction": -80,
        "gravity": 300, "drag": 0.6, "flutterAmplitude": 20, "flutterFrequency": 3,
        "diesAtApex": true, "onDeath": ["sparks"], "alongFlight": ["wake"]}]}],
       "subCells": [
        {"name": "sparks", "count": 10, "speed": 0, "gravity": 0, "drag": 0,
         "inheritVelocity": 0.5, "lifetime": 2},
        {"name": "wake", "count": 4, "speed": 0, "gravity": 0, "drag": 0, "lifetime": 0.5}
        \(extra)]}
      """)
  }

  func testShellsBurstAtTheTopOfTheirClimbWhereTheClosedFormPutsThem() throws {
    var scene = try EffectScene(config: config(), capacity: 128, seed: 2)
    scene.trigger(.start, window: window, time: 10)
    let records = scene.ring.drawnSlotRanges.joined().map { scene.ring.records[$0] }
    XCTAssertEqual(records.count, 3 * (1 + 10 + 4))
    let shells = records.filter { $0.birth == Tick(10).rawValue && $0.gravity == 300 }
    XCTAssertEqual(shells.count, 3)
    for shell in shells {
      let p = shell.particle
      let apex = try XCTUnwrap(p.apexTime)
      XCTAssertEqual(p.lifetime, apex, accuracy: 2e-3, "it ends at the top of its climb")
      XCTAssertEqual(ConfettiPhysics.velocity(of: p, age: p.lifetime).y, 0, accuracy: 1)
      // Its sparks: born at its end, at its last place, with half its last velocity.
      let end = 10 + p.lifetime
      let last = try XCTUnwrap(ConfettiPhysics.state(of: p, age: p.lifetime.nextDown))
      let velocity = ConfettiPhysics.velocity(of: p, age: p.lifetime.nextDown)
      let sparks = records.filter {
        $0.lifetime == 2 && abs(Double($0.originX) - last.position.x) < 1e-3
      }
      XCTAssertEqual(sparks.count, 10, "ten sparks where the shell ended")
      for spark in sparks {
        XCTAssertEqual(Double(spark.birth), Double(Tick(end).rawValue), accuracy: 1)
        XCTAssertEqual(Double(spark.originY), last.position.y, accuracy: 1e-3)
        XCTAssertEqual(Double(spark.velocityX), 0.5 * velocity.x, accuracy: 1e-3)
        XCTAssertEqual(Double(spark.velocityY), 0.5 * velocity.y, accuracy: 1e-3)
      }
      // Its wake: four pieces along its way, at an eighth, three eighths, … of its life.
      for k in 0..<4 {
        let age = p.lifetime * (Double(k) + 0.5) / 4
        let there = try XCTUnwrap(ConfettiPhysics.state(of: p, age: age))
        XCTAssert(
          records.contains {
            $0.lifetime == 0.5 && abs(Double($0.originX) - there.position.x) < 1e-3
              && abs(Double($0.originY) - there.position.y) < 1e-3
              && abs(Double($0.birth) - Double(Tick(10 + age).rawValue)) <= 1
          }, "a wake piece at \(age) s")
      }
    }
  }

  func testAHugeFamilyIsCutAtTheBudgetInsteadOfStallingTheProgram() throws {
    // 2000 shells, each bursting into a million sparks that each burst into a million more.
    let config = try EffectConfig.decode(
      """
      {"name": "huge", "emitters": [{"cells": [{"count": 2000, "onDeath": ["a"]}]}],
       "subCells": [{"name": "a", "count": 1000000, "onDeath": ["b"]},
                    {"name": "b", "count": 1000000}]}
      """)
    var scene = try EffectScene(config: config, capacity: 4096, seed: 1)
    scene.trigger(.start, window: window, time: 0)
    XCTAssertEqual(scene.ring.head, 2000 + EffectScene.maximumSubCellBirths, "records written")
    XCTAssertEqual(scene.ring.drawnCount, 4096, "the ring keeps its capacity")
  }

  func testSubCellsDeeperThanTheSceneGoesAreRefused() {
    XCTAssertThrowsError(
      try EffectConfig.decode(
        """
        {"name": "deep", "emitters": [{"cells": [{"count": 1, "onDeath": ["s"]}]}], "subCells": [
          {"name": "s", "count": 1, "onDeath": ["a"]}, {"name": "a", "count": 1, "onDeath": ["b"]},
          {"name": "b", "count": 1, "onDeath": ["c"]}, {"name": "c", "count": 1}]}
        """)
    ) {
      XCTAssertEqual(
        "\($0)",
        "$.emitters[0].cells[0]: its sub-cells start sub-cells 4 generations deep; at most 3")
    }
  }

  /// A chain 30 deep whose every sub-cell starts the next eight times has 8³⁰ paths: its depth
  /// is found once per sub-cell, so it is refused at once rather than after walking them all.
  func testAWideChainOfSubCellsIsRefusedWithoutWalkingEveryPath() {
    let names = (0...30).map { "s\($0)" }
    let subCells = names.indices.map { i in
      guard i + 1 < names.count else { return #"{"name": "\#(names[i])", "count": 1}"# }
      let starts = Array(repeating: "\"\(names[i + 1])\"", count: 8).joined(separator: ", ")
      return #"{"name": "\#(names[i])", "count": 1, "onDeath": [\#(starts)]}"#
    }
    let text = """
      {"name": "wide", "emitters": [{"cells": [{"count": 1, "onDeath": ["s0"]}]}],
       "subCells": [\(subCells.joined(separator: ", "))]}
      """
    XCTAssertThrowsError(try EffectConfig.decode(text)) {
      XCTAssertEqual(
        "\($0)",
        "$.emitters[0].cells[0]: its sub-cells start sub-cells 31 generations deep; at most 3")
    }
  }

  func testTheVelocityIsTheClosedFormsDerivative() {
    var p = ConfettiParticle()
    p.velocityX = 140
    p.velocityY = -420
    p.dragX = 0.9
    p.dragY = 0.4
    p.accelerationX = -30
    p.flutterAmplitude = 25
    p.flutterFrequency = 4
    p.flutterPhase = 0.7
    p.spread = 12
    p.lifetime = 5
    var style = CellStyle()
    style.wind = 40
    style.gustAmplitude = 30
    style.gustPeriod = 2
    for t in [0.05, 0.4, 1.3, 3.0] {
      // Ten ticks either side: the gust's clock steps with the age, as it does in a scene.
      let h = 10 / Tick.perSecond
      let now = Tick(100 + t)
      let ahead = ConfettiPhysics.state(
        of: p, age: t + h, style: style, now: Tick(rawValue: now.rawValue &+ 10))!
      let behind = ConfettiPhysics.state(
        of: p, age: t - h, style: style, now: Tick(rawValue: now.rawValue &- 10))!
      let v = ConfettiPhysics.velocity(of: p, age: t, style: style, now: now)
      let dt = 2 * h
      XCTAssertEqual(v.x, (ahead.position.x - behind.position.x) / dt, accuracy: 0.05, "at \(t)")
      XCTAssertEqual(v.y, (ahead.position.y - behind.position.y) / dt, accuracy: 0.01, "at \(t)")
    }
  }

  func testSubCellMistakesAreRefusedInOneLine() throws {
    let cases: [(String, String)] = [
      (
        #""onDeath": ["nope"]"#,
        #"$.emitters[0].cells[0].onDeath[0]: no sub-cell named "nope"; there are none"#
      ),
      (#""alongFlight": ["x"]"#, #"no sub-cell named "x"; there are none"#),
    ]
    for (cell, expected) in cases {
      XCTAssertThrowsError(
        try EffectConfig.decode(
          #"{"name": "a", "emitters": [{"cells": [{"count": 1, "# + cell + "}]}]}")
      ) { XCTAssert("\($0)".contains(expected), "\($0)") }
    }
    let subs: [(String, String)] = [
      (#"{"count": 1}"#, "$.subCells[0]: a sub-cell needs a name"),
      (#"{"name": "a", "count": 1}, {"name": "a", "count": 2}"#, #"two sub-cells are named "a""#),
      (
        #"{"name": "a", "count": 1, "onDeath": ["b"]}, {"name": "b", "count": 1, "alongFlight": ["a"]}"#,
        #"$.subCells[0]: sub-cell "a" starts itself, so it would never stop"#
      ),
      (#"{"name": "a", "birthRate": 3}"#, "count"),
    ]
    for (list, expected) in subs {
      XCTAssertThrowsError(
        try EffectConfig.decode(
          #"{"name": "a", "emitters": [{"cells": [{"count": 1}]}], "subCells": ["# + list + "]}")
      ) { XCTAssert("\($0)".contains(expected), "\($0)") }
    }
  }

  func testFireworksBurstsTakeTheSameShareOfTheSkyInAnyWindow() throws {
    // Sampled with the same seed, a burst's sparks (of a shell or of a click) fly out at the
    // same share of the window's height a second, and fall as fast in that unit: the same share
    // of the sky at 960×540 as at 2560×1440. (Before, 190 pt/s at any size.)
    let config = try Presets.named("fireworks")
    let emitted: [Bool] = config.emitters.flatMap { emitter in
      emitter.cells.map { $0.onDeath.isEmpty && $0.alongFlight.isEmpty }
    }
    let cells = emitted + config.subCells.map { ($0.name ?? "").hasPrefix("burst") }
    XCTAssertEqual(cells.filter { $0 }.count, 4, "three shell bursts and the click's")
    let windows = [Size(width: 960, height: 540), Size(width: 2560, height: 1440)]
    let samples = try windows.map { window in
      var scene = try EffectScene(config: config, capacity: 1, seed: 6)
      return scene.sample(count: cells.count * 20, window: window)
    }
    for (index, (small, large)) in zip(samples[0], samples[1]).enumerated()
    where cells[index % cells.count] {
      func speed(_ p: ConfettiParticle, _ window: Size) -> Double {
        (p.velocityX * p.velocityX + p.velocityY * p.velocityY).squareRoot() / window.height
      }
      let speeds = [speed(small, windows[0]), speed(large, windows[1])]
      XCTAssertEqual(speeds[0], speeds[1], accuracy: 1e-9)
      XCTAssertEqual(small.gravity / 540, large.gravity / 1440, accuracy: 1e-9)
      XCTAssertGreaterThan(speeds[0], 0.2, "a burst spreads over a good part of the sky")
    }
  }

  /// Fireworks are framed in any window: from the first moment a shell is in flight, shells rise
  /// steadily for the ten seconds the preset promises, and each bursts between 20 % and 45 % of
  /// the window's height from the top, whatever its shape.
  func testFireworksBurstInTheUpperPartOfAnyWindowFromTheFirstMoment() throws {
    for window in [
      Size(width: 1280, height: 720), Size(width: 720, height: 1280), Size(width: 800, height: 600),
      Size(width: 2560, height: 1080), Size(width: 320, height: 200),
    ] {
      // The shells alone: their bursts and wakes left out.
      var shellsOnly = try Presets.named("fireworks")
      for e in shellsOnly.emitters.indices {
        for c in shellsOnly.emitters[e].cells.indices {
          shellsOnly.emitters[e].cells[c].onDeath = []
          shellsOnly.emitters[e].cells[c].alongFlight = []
        }
      }
      var scene = try EffectScene(config: shellsOnly, capacity: 200_000, seed: 3)
      scene.trigger(.start, window: window, time: 0)
      var frame = 0
      while frame < 11 * 60 {
        frame += 1
        scene.advance(to: Double(frame) / 60, window: window)
      }
      let shells = scene.ring.records.prefix(scene.ring.head)
      XCTAssert(shells.allSatisfy { Double($0.velocityY) < -0.5 * window.height })
      // Birth moments, before 0 (the prewarm's) too.
      let births = shells.map {
        Double(Int32(bitPattern: $0.birth &- Tick(0).rawValue)) / Tick.perSecond
      }.sorted()
      XCTAssertGreaterThanOrEqual(shells.count, 15, "\(window): shells for ten seconds")
      XCTAssertLessThanOrEqual(births.first ?? 1, 0, "\(window): one is in flight at time 0")
      XCTAssertGreaterThan(births.last ?? 0, 9, "\(window): still rising at 9 s")
      let gaps = zip(births.dropFirst(), births).map { $0 - $1 }
      XCTAssertLessThan(gaps.max() ?? 9, 2, "\(window): a steady cadence")
      // The first shell is seen rising and bursting within the first half second.
      let bursts = zip(shells, births).compactMap { shell, birth in
        shell.particle.apexTime.map { birth + $0 }
      }.filter { $0 > 0 }
      XCTAssertLessThanOrEqual(bursts.min() ?? 9, 0.5, "\(window): the first burst")
      for shell in shells {
        let particle = shell.particle
        let style = scene.table[particle.emitter]
        // Its highest point, where it bursts.
        var top = Double.infinity
        var age = 0.0
        while let state = ConfettiPhysics.state(of: particle, age: age, style: style) {
          top = min(top, state.position.y)
          age += 1.0 / 240
        }
        let share = top / window.height
        // Rising, it is drawn as one continuous streak, not a line of dots.
        let rising = try XCTUnwrap(ConfettiPhysics.state(of: particle, age: 0.3, style: style))
        let streak = try XCTUnwrap(rising.streak, "\(window): a shell is a streak")
        XCTAssertGreaterThan(streak.size.width, 0.1 * window.height, "\(window): a long one")
        XCTAssert(
          (0.2...0.45).contains(share), "\(window): a shell burst \(share) of the height down")
      }
    }
  }
}
