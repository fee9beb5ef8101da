import Confetti
import ConfettiCore
import ConfettiGL
import ConfettiGLTestSupport
import ConfettiImage
import ConfettiPresets
import Foundation
import XCTest

/// Effects rendered and read back: every preset draws, shapes cut their outlines, images come
/// from the atlas, and a hand-made configuration puts its particle where the formulas say.
final class EffectRenderTests: HeadlessGLTestCase {
  let window = Size(width: 320, height: 240)

  /// Runs `config` from time 1 (every trigger fired) in steps of 1/60 s to 1 + `age` and draws it
  /// (with shaders compiled for `features` at least, and what the effect needs).
  func render(
    _ config: EffectConfig, age: Double, images: [RGBAImage] = [], reduceMotion: Bool = false,
    features: ShaderFeatures = [], window: Size? = nil
  ) throws -> RGBAImage {
    try draw(
      config, age: age, images: images, reduceMotion: reduceMotion, features: features,
      window: window
    ).image
  }

  /// The same, also saying what the shaders were compiled for.
  func draw(
    _ config: EffectConfig, age: Double, images: [RGBAImage] = [], reduceMotion: Bool = false,
    features: ShaderFeatures = [], window: Size? = nil
  ) throws -> (image: RGBAImage, compiled: ShaderFeatures) {
    let window = window ?? self.window
    var scene = try EffectScene(
      config: config, capacity: EffectScene.suggestedCapacity(for: config), seed: 5,
      reduceMotion: reduceMotion)
    for trigger in EmitterTrigger.allCases { scene.trigger(trigger, window: window, time: 1) }
    var time = 1.0
    while time < 1 + age - 1e-9 {
      time = min(1 + age, time + 1.0 / 60)
      scene.advance(to: time, window: window)
    }
    let renderer = try ParticleRenderer(
      capacity: scene.ring.capacity, info: context.info, features: features)
    renderer.setCellTable(scene.table)
    // Texts (the emoji preset's) are drawn from the system's fonts, as the library does.
    let pictures = images.isEmpty ? try Effect(config).images(for: scene.shapes) : images
    try renderer.setShapeTable(scene.shapes, images: pictures)
    let frame = try OffscreenTarget(
      width: Int(window.width), height: Int(window.height), info: context.info)
    let image = try frame.snapshot(
      of: &scene.ring, at: Tick(time), window: window, renderer: renderer)
    return (image, renderer.compiledFeatures)
  }

  let backdrop = RGBAImage.Pixel(
    red: GLFrame.background.red, green: GLFrame.background.green,
    blue: GLFrame.background.blue)

  func painted(_ image: RGBAImage) -> [(x: Int, y: Int)] {
    var points: [(Int, Int)] = []
    for y in 0..<image.height {
      for x in 0..<image.width where image[x, y] != backdrop { points.append((x, y)) }
    }
    return points
  }

  func testEveryPresetDrawsAPictureOfItsOwn() throws {
    var pictures = Set<[UInt8]>()
    for name in Presets.names {
      let image = try render(try Presets.named(name), age: 0.7)
      let count = painted(image).count
      XCTAssertGreaterThan(count, 40, "\(name) shows particles")
      XCTAssertLessThan(count, image.width * image.height / 2, "\(name) is not a wash")
      XCTAssert(pictures.insert(image.bytes).inserted, "\(name) looks like another preset")
      // Reduced motion draws the same effect, calmer: still something on screen.
      let calm = try render(try Presets.named(name), age: 0.7, reduceMotion: true)
      XCTAssertGreaterThan(painted(calm).count, 10, "\(name) with reduced motion")
    }
  }

  /// Shaders compiled for only what an effect uses draw what shaders compiled for everything
  /// draw: every preset, early, in full flight and late (landed, burst, faded).
  /// Rain is seen: bright streaks over a good share of the window, and splashes at the bottom
  /// edge where the drops land.
  func testRainIsBrightAndSplashesAtTheBottom() throws {
    let image = try render(try Presets.named("rain"), age: 1.5)
    var brightest = 0
    var lit = 0
    var nearTheBottom = 0
    for y in 0..<image.height {
      for x in 0..<image.width {
        let pixel = image[x, y]
        let light = Int(max(pixel.red, pixel.green, pixel.blue))
        brightest = max(brightest, light)
        if light >= 90 {
          lit += 1
          if y >= image.height - 6 { nearTheBottom += 1 }
        }
      }
    }
    XCTAssertGreaterThanOrEqual(brightest, 200, "bright streaks")
    XCTAssertGreaterThan(lit, image.width * image.height / 200, "streaks over the window")
    XCTAssertGreaterThan(nearTheBottom, 15, "splashes where the drops land")
  }

  func testShadersCompiledForAnEffectDrawWhatTheFullShadersDraw() throws {
    var compiledFor: [String: ShaderFeatures] = [:]
    for name in Presets.names {
      let config = try Presets.named(name)
      for age in [0.3, 1.2, 3.0] {
        let (image, compiled) = try draw(config, age: age)
        let full = try render(config, age: age, features: .all)
        compiledFor[name, default: []].formUnion(compiled)
        let differing = image.difference(from: full, threshold: 1).pixels
        XCTAssertEqual(differing, 0, "\(name) at \(age) s: \(differing) pixels differ")
      }
      // What the library compiles for up front covers all of it: no rebuild mid-effect.
      let expected = try EffectScene(config: config, capacity: 1, seed: 5).expectedFeatures
      XCTAssert(
        compiledFor[name, default: []].isSubset(of: expected),
        "\(name) drew \(compiledFor[name, default: []]), expected at most \(expected)")
    }
    // Each effect pays only for what it uses: the classic cannon's plain tumbling rectangles
    // for none of it, the others for what they show.
    XCTAssertEqual(compiledFor["classic-cannon"], [])
    XCTAssertEqual(compiledFor["confetti"], [.paper, .landings])
    XCTAssertEqual(compiledFor["fireworks"]?.isSuperset(of: [.streaks, .glows]), true)
    XCTAssertEqual(compiledFor["emoji"]?.contains(.images), true)
    XCTAssertEqual(compiledFor["sparkle"]?.contains(.twinkles), true)
    XCTAssertEqual(
      compiledFor["hearts"], [.paper, .polygons, .landings], "paper hearts: a polygon, landing")
  }

  /// One still particle of `shape`, 80×80 points, centred, colour pure green.
  func still(_ shape: String, extra: String = "") throws -> EffectConfig {
    try EffectConfig.decode(
      """
      {"name": "still", "emitters": [{"position": {"x": 0.5, "y": 0.5}, "cells": [{
        "count": 1, "lifetime": 5, "gravity": 0, "drag": 0, "rotation": 0,
        "sizes": [[80, 80]], "colors": ["#00ff00"], "shapes": [\(shape)] \(extra)}]}]}
      """)
  }

  func testEveryShapesLightIsCentredOnItsPlace() throws {
    // One piece at (96.37, 143.79), turned 30°: its light's weighted centre (each pixel by how
    // far it is from the backdrop, at the pixel's centre) lies within ¼ px of its place, for
    // glows, circles, stars, polygons, text glints and paper alike.
    let (x, y) = (0.3 * 320 + 0.37, 0.6 * 240 - 0.21)
    for shape in [#""glow""#, #""circle""#, #""star""#, #""rectangle""#, #"{"text": "✦"}"#] {
      let config = try EffectConfig.decode(
        """
        {"name": "centre", "emitters": [{"position": {"x": 0.3, "y": 0.6},
          "offset": {"x": 0.37, "y": -0.21}, "cells": [{
          "count": 1, "lifetime": 5, "speed": 0, "gravity": 0, "drag": 0, "rotation": 30,
          "sizes": [[30, 30]], "colors": ["#ffd98a"], "shapes": [\(shape)]}]}]}
        """)
      let image = try render(config, age: 0.5)
      var (weight, sumX, sumY) = (0.0, 0.0, 0.0)
      for py in 0..<image.height {
        for px in 0..<image.width {
          let (p, b) = (image[px, py], backdrop)
          let w =
            abs(Double(p.red) - Double(b.red)) + abs(Double(p.green) - Double(b.green))
            + abs(Double(p.blue) - Double(b.blue))
          (weight, sumX, sumY) = (
            weight + w, sumX + w * (Double(px) + 0.5), sumY + w * (Double(py) + 0.5)
          )
        }
      }
      XCTAssertGreaterThan(weight, 1000, "\(shape) is drawn")
      XCTAssertEqual(sumX / weight, x, accuracy: 0.25, "\(shape)'s light across")
      XCTAssertEqual(sumY / weight, y, accuracy: 0.25, "\(shape)'s light down")
    }
  }

  func testShapesCutTheirOutlines() throws {
    let (cx, cy) = (160, 120)
    func green(_ image: RGBAImage, _ x: Int, _ y: Int) -> Bool {
      image[x, y].green > 200 && image[x, y].red < 40
    }
    func clear(_ image: RGBAImage, _ x: Int, _ y: Int) -> Bool { image[x, y] == backdrop }

    let square = try render(still(#""rectangle""#), age: 0.5)
    XCTAssert(green(square, cx - 36, cy - 36), "a square fills its corners")
    XCTAssert(clear(square, cx - 44, cy))

    let circle = try render(still(#""circle""#), age: 0.5)
    XCTAssert(green(circle, cx - 36, cy))
    XCTAssert(clear(circle, cx - 32, cy - 32), "a circle leaves the corners")

    // The triangle: apex at the top centre, base along the bottom.
    let triangle = try render(still(#""triangle""#), age: 0.5)
    XCTAssert(green(triangle, cx, cy - 30), "below the apex")
    XCTAssert(green(triangle, cx - 34, cy + 36), "the base's left end")
    XCTAssert(clear(triangle, cx - 30, cy - 30), "the top left corner is outside")

    // The star: points up; between the two lower points lies an inner corner at 0.45 radius.
    let star = try render(still(#""star""#), age: 0.5)
    XCTAssert(green(star, cx, cy), "its centre")
    XCTAssert(green(star, cx, cy - 34), "its top point")
    XCTAssert(clear(star, cx, cy + 30), "the notch between its lower points")

    // An L made of six corners (y down): the top right quarter is cut away.
    let letter = try render(
      still(#"{"polygon": [[0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [0, 2]]}"#), age: 0.5)
    XCTAssert(green(letter, cx - 20, cy - 20), "the L's upright")
    XCTAssert(green(letter, cx + 20, cy + 20), "the L's foot")
    XCTAssert(clear(letter, cx + 20, cy - 20), "the notch")
  }

  func testAGlowFallsSmoothlyFromItsCentreToNothing() throws {
    let glow = try render(still(#""glow""#), age: 0.5)
    let (cx, cy) = (160, 120)
    // Along a radius: the green falls as (1 − r²)² of full, to the backdrop at the edge.
    let greens = (0..<44).map { Int(glow[cx + $0, cy].green) }
    XCTAssertGreaterThan(greens[0], 245, "full at the centre")
    for r in [10, 20, 30] {
      let share = pow(1 - pow((Double(r) + 0.5) / 40, 2), 2)
      let expected = share * 255 + (1 - share) * Double(backdrop.green)
      XCTAssertEqual(Double(greens[r]), expected, accuracy: 6, "at \(r) px of 40")
    }
    XCTAssertEqual(glow[cx + 41, cy], backdrop, "nothing beyond its edge")
    XCTAssert(zip(greens, greens.dropFirst()).allSatisfy { $0 >= $1 }, "falls all the way")
  }

  func testAdditiveLightAddsToWhatIsBehindItAndNormalCoversIt() throws {
    func layered(_ blend: String) throws -> RGBAImage {
      try render(
        EffectConfig.decode(
          """
          {"name": "layers", "emitters": [{"position": {"x": 0.5, "y": 0.5}, "cells": [
            {"count": 1, "lifetime": 5, "gravity": 0, "drag": 0, "rotation": 0,
             "sizes": [[80, 80]], "colors": ["#ff0000"]},
            {"count": 1, "lifetime": 5, "gravity": 0, "drag": 0, "rotation": 0,
             "sizes": [[40, 40]], "colors": ["#00ff00"], "blend": "\(blend)"}]}]}
          """), age: 0.5)
    }
    let added = try layered("additive")[160, 120]
    XCTAssertGreaterThan(added.red, 250, "the red behind still shows")
    XCTAssertGreaterThan(added.green, 250, "and the green light adds to it: yellow")
    let covered = try layered("normal")[160, 120]
    XCTAssertLessThan(covered.red, 5, "normal green covers the red")
    XCTAssertGreaterThan(covered.green, 250)
    // Over the backdrop alone, additive light adds to the backdrop too.
    let lone = try render(still(#""rectangle""#, extra: #", "blend": "additive""#), age: 0.5)
    XCTAssertEqual(Int(lone[160, 120].red), Int(backdrop.red), accuracy: 1)
    XCTAssertEqual(lone[160, 120].green, 255)
  }

  func testAPieceLandsOnTheFloorAndLiesThereUntilItFades() throws {
    // One 20×10 piece dropped from the middle onto a floor 40 pt above the bottom edge (y 200),
    // resting 1 s, then fading over 0.5 s.
    let config = try EffectConfig.decode(
      """
      {"name": "drop", "emitters": [{"position": {"x": 0.5, "y": 0.5},
        "floor": {"y": 1, "offset": -40, "restTime": 1},
        "cells": [{"count": 1, "lifetime": 30, "fade": 0.5, "speed": 0, "kick": {"x": 0, "y": -100},
          "gravity": 400, "drag": 0, "rotation": 0, "sizes": [[20, 10]],
          "colors": ["#ffffff"]}]}]}
      """)
    // y = 120 − 100·t + 200·t² reaches 195 (the floor less half the shorter side) at t = 0.8956.
    let root: Double = (100.0 * 100.0 + 4.0 * 200.0 * 75.0).squareRoot()
    let landing: Double = (100.0 + root) / 400.0
    let lying = try render(config, age: landing + 0.3)
    let bottom = painted(lying).map(\.y).max()!
    XCTAssertEqual(Double(bottom) + 1, 200, accuracy: 1, "its lowest pixel on the floor")
    XCTAssertEqual(try render(config, age: landing + 0.8), lying, "it lies still")
    let falling = try render(config, age: landing - 0.2)
    XCTAssertLessThan(painted(falling).map(\.y).max()!, bottom - 10, "above it before")
    XCTAssert(painted(try render(config, age: landing + 1.6)).isEmpty, "gone after rest and fade")
  }

  func testLandedPaperLiesFlatAsAThinBandAlongTheFloor() throws {
    // The default effect at 960×540, 4.5 s after it starts: most of its paper lies on the floor,
    // seen from a little above: each piece on a line of its own within the floor's band (24 pt
    // deep), lying flat. Standing on its corners, as it landed, a piece was 10 px tall at the
    // median; lying flat it is its width foreshortened, under the shortest side (5 pt); and when
    // every piece lay on the bottom edge, 79 % of the ink of the bottom 30 rows was in the last 4.
    let image = try render(
      Presets.named("confetti"), age: 4.5, window: Size(width: 960, height: 540))
    let band = 30
    var runs: [Int] = []
    var (ink, lastRows) = (0, 0)
    for x in 0..<image.width {
      var run = 0
      for up in 0..<band {
        let painted = image[x, image.height - 1 - up] != backdrop
        if painted {
          ink += 1
          if up < 4 { lastRows += 1 }
          run += 1
        }
        if (!painted || up == band - 1) && run > 0 {
          runs.append(run)
          run = 0
        }
      }
    }
    runs.sort()
    XCTAssertGreaterThan(runs.count, 300, "paper lies along the floor")
    XCTAssertLessThan(Double(lastRows), 0.4 * Double(ink), "over the band, not on its edge")
    // A run is a piece's height, or two's or three's where they lie on neighbouring lines
    // (5 px at the median here); pieces still arriving stand taller, and standing ones made the
    // median run 10 px.
    XCTAssertLessThanOrEqual(runs[runs.count / 2], 6, "the median run (px)")
    XCTAssertLessThanOrEqual(runs[runs.count * 3 / 5], 7, "its 60th percentile (px)")
  }

  func testFallingConfettiIsNotCutAtTheTopEdge() throws {
    // Its first frames: pieces are born above the window and come in across its top edge;
    // before, pieces appeared cut along the top row from the start.
    let window = Size(width: 960, height: 540)
    let config = try Presets.named("falling-confetti")
    // Born 30 pt above the top edge, none (at most 750 pt/s, 12.7 pt from its centre to its
    // lowest point) shows in the first frame, and in the second only the leading edges of the
    // fastest, coming in (the old preset's showed down to row 25 there).
    let first = try render(config, age: 1.0 / 60, window: window)
    XCTAssert(painted(first).filter { $0.y < 20 }.isEmpty, "the first frame's top rows are empty")
    let second = try render(config, age: 2.0 / 60, window: window)
    XCTAssertLessThan(painted(second).map(\.y).max() ?? 0, 10, "the second: edges coming in")
    let later = try render(config, age: 10.0 / 60, window: window)
    XCTAssertGreaterThan(
      painted(later).filter { $0.y < 40 }.count, 100, "by the tenth, pieces have come in")
  }

  func testATapBurstsFirstFrameIsColouredSparksNotAWhiteDisc() throws {
    // Its 60 glows were born on one point at full light: the first frame added up to a white
    // disc. Born across a small disc and brightening over 0.1 s, the first frame shows sparks.
    let image = try render(
      Presets.named("tap-burst"), age: 1.0 / 60, window: Size(width: 800, height: 600))
    let lit = painted(image).map { image[$0.x, $0.y] }.filter {
      max($0.red, $0.green, $0.blue) > 80
    }
    XCTAssertGreaterThan(lit.count, 300, "the sparks show")
    let white = lit.filter { min($0.red, $0.green, $0.blue) > 235 }.count
    XCTAssertLessThan(Double(white), 0.1 * Double(lit.count), "\(white) of \(lit.count) white")
  }

  func testFireBurnsInTonguesThatTaperSwayAndFlickerWithoutClipping() throws {
    // The steady flame alone (a click lights another), at 480×540, over a second and a half.
    var config = try Presets.named("fire")
    config.emitters = config.emitters.filter { $0.trigger == .start }
    let window = Size(width: 480, height: 540)
    var (tops, sways, widest, clipped, lit) = ([Int](), [Double](), 0, 0, 0)
    var taper: [Double] = []
    for step in 0..<6 {
      let image = try render(config, age: 1 + Double(step) * 0.25, window: window)
      // Each row's lit pixels, the flame's width there.
      var widths = [Int](repeating: 0, count: image.height)
      var centre = [Double](repeating: 0, count: image.height)
      for y in 0..<image.height {
        for x in 0..<image.width {
          let p = image[x, y]
          guard Int(p.red) - Int(backdrop.red) > 60 else { continue }
          lit += 1
          if min(p.red, p.green, p.blue) >= 250 { clipped += 1 }
          widths[y] += 1
          centre[y] += Double(x)
        }
      }
      let base = widths.indices.max { widths[$0] < widths[$1] }!
      widest = max(widest, widths[base])
      // The flame's top: the highest row at least a quarter as wide as its base.
      let top = widths.indices.first { widths[$0] * 4 >= widths[base] }!
      tops.append(base - top)
      // Its width half way up, as a share of its base.
      taper.append(Double(widths[(base + top) / 2]) / Double(widths[base]))
      // Where its upper half leans.
      let upper = top..<((base + top) / 2)
      let mass = upper.map { Double(widths[$0]) }.reduce(0, +)
      sways.append(upper.map { centre[$0] }.reduce(0, +) / max(mass, 1))
    }
    print(
      "fire: heights \(tops), widest \(widest), taper \(taper), sway \(sways), clipped \(clipped) of \(lit)"
    )
    // Its light ramps from gold to red without running to white: the old flame's core was 17 %
    // white pixels.
    XCTAssertLessThan(Double(clipped), 0.02 * Double(lit), "clipped to white")
    // Its upper half sways in the gusts (the old one's stayed within 4 px).
    XCTAssertGreaterThan(sways.max()! - sways.min()!, 20, "sway (px)")
    // It flickers: its height changes from moment to moment.
    XCTAssertGreaterThan(Double(tops.max()! - tops.min()!), 0.15 * Double(tops.max()!), "flicker")
    // It narrows as it rises.
    XCTAssertLessThan(taper.reduce(0, +) / Double(taper.count), 0.8, "taper half way up")
    // Its flames are stretched along their motion, which is up.
    for cell in config.emitters[0].cells where cell.stretch == 0 {
      XCTAssertGreaterThan(cell.sizes[0].height, 1.25 * cell.sizes[0].width, "tall tongues")
      XCTAssertEqual(cell.direction.value, -90)
    }
  }

  func testTumblingPiecesRestWhollyAboveTheirFloorTouchingIt() throws {
    // The default effect's paper, turned and tumbling every way, with its floor raised 40 pt
    // above the bottom edge (y 200 of 240) so that anything sinking through it would show.
    var config = try Presets.named("confetti")
    for index in config.emitters.indices where config.emitters[index].floor != nil {
      config.emitters[index].offset.y -= 40
      config.emitters[index].floor!.offset = -40
    }
    let image = try render(config, age: 4)
    let lit = painted(image)
    XCTAssertGreaterThan(lit.count, 600, "the pieces are drawn (lying flat, thin)")
    XCTAssertLessThanOrEqual(lit.map(\.y).max()!, 200, "nothing below the floor but its edge")
    // Lying there, they touch it: the row just above it is covered across many pieces.
    let touching = Set(lit.filter { $0.y == 199 }.map(\.x))
    XCTAssertGreaterThan(touching.count, 160, "pieces lie along the floor: \(touching.count) px")
    // Both corner cannons' pieces.
    XCTAssert(touching.contains { $0 < 80 } && touching.contains { $0 >= 240 }, "at both sides")
  }

  func testAShellBurstsIntoItsSubCellAtTheTopOfItsClimb() throws {
    // Straight up from (160, 240) at 300 pt/s against gravity 300, no drag: the top of its climb
    // at 1 s, 150 pt up (y 90). There, twelve sparks fly out at 60 pt/s.
    let config = try EffectConfig.decode(
      """
      {"name": "shell", "emitters": [{"position": {"x": 0.5, "y": 1}, "cells": [{
        "count": 1, "lifetime": 5, "speed": 300, "direction": -90, "gravity": 300, "drag": 0,
        "rotation": 0, "sizes": [[8, 8]], "colors": ["#ffffff"], "diesAtApex": true,
        "onDeath": ["sparks"]}]}],
       "subCells": [{"name": "sparks", "count": 12, "lifetime": 2, "speed": 60, "gravity": 0,
        "drag": 0, "rotation": 0, "sizes": [[5, 5]], "colors": ["#ffffff"]}]}
      """)
    func centre(_ points: [(x: Int, y: Int)]) -> (x: Double, y: Double) {
      (
        Double(points.map(\.x).reduce(0, +)) / Double(points.count) + 0.5,
        Double(points.map(\.y).reduce(0, +)) / Double(points.count) + 0.5
      )
    }
    let rising = painted(try render(config, age: 0.9))
    XCTAssertLessThanOrEqual(rising.count, 100, "the shell alone, no sparks yet")
    XCTAssertEqual(centre(rising).y, 240 - 300 * 0.9 + 150 * 0.81, accuracy: 1)
    let burst = try render(config, age: 1.5)
    let sparks = painted(burst)
    XCTAssertGreaterThan(sparks.count, 12 * 16, "twelve sparks")
    // Every spark on a circle around where the shell ended.
    for point in sparks {
      let r =
        ((Double(point.x) + 0.5 - 160) * (Double(point.x) + 0.5 - 160)
        + (Double(point.y) + 0.5 - 90) * (Double(point.y) + 0.5 - 90)).squareRoot()
      XCTAssertEqual(r, 30, accuracy: 5, "30 pt out after 0.5 s")
    }
  }

  func testAStreakRunsFromWhereThePieceWasToWhereItIsBrighteningTowardItsHead() throws {
    // From (96, 120) at 300 pt/s to the right, nothing else: at 0.5 s its head is at x 246,
    // and 0.1 s of stretch puts its tail at x 216; it is 8 pt thick, with round ends.
    let config = try EffectConfig.decode(
      """
      {"name": "streak", "emitters": [{"position": {"x": 0.3, "y": 0.5}, "cells": [{
        "count": 1, "lifetime": 5, "speed": 300, "direction": 0, "gravity": 0, "drag": 0,
        "rotation": 30, "sizes": [[8, 8]], "colors": ["#ffffff"], "stretch": 0.1}]}]}
      """)
    let image = try render(config, age: 0.5)
    let points = painted(image)
    XCTAssertEqual(Double(points.map(\.x).max()! + 1), 246 + 4, accuracy: 1, "the head's end")
    XCTAssertEqual(
      Double(points.map(\.x).min()!), 216, accuracy: 3, "fading to nothing at its tail")
    XCTAssertEqual(Double(points.map(\.y).min()!), 116, accuracy: 1, "8 pt thick")
    XCTAssertEqual(Double(points.map(\.y).max()! + 1), 124, accuracy: 1)
    let head = Int(image[242, 120].red)
    let middle = Int(image[231, 120].red)
    let tail = Int(image[220, 120].red)
    XCTAssertGreaterThan(head, middle + 20, "brighter toward the head")
    XCTAssertGreaterThan(middle, tail + 20)
    // Without stretch, the piece itself: an 8 pt square at the head.
    let plain = painted(try render(withoutStretch(config), age: 0.5))
    XCTAssertLessThanOrEqual(plain.map(\.x).max()! - plain.map(\.x).min()!, 12)
  }

  func testALightsStreakBurnsWhiteAtItsCoreAndKeepsItsColourAtItsRim() throws {
    // The same path, 8 pt thick, in additive blue light: white along its axis near the head,
    // blue at its rim and toward its tail; in paper (normal) blue throughout.
    func streak(_ blend: String) throws -> RGBAImage {
      try render(
        EffectConfig.decode(
          """
          {"name": "spark", "emitters": [{"position": {"x": 0.3, "y": 0.5}, "cells": [{
            "count": 1, "lifetime": 5, "speed": 300, "direction": 0, "gravity": 0, "drag": 0,
            "sizes": [[8, 8]], "colors": ["#3366ff"], "blend": "\(blend)", "stretch": 0.1}]}]}
          """), age: 0.5)
    }
    func whiteness(_ p: RGBAImage.Pixel) -> Double {
      Double(min(p.red, p.green, p.blue)) / Double(max(p.red, p.green, p.blue, 1))
    }
    let light = try streak("additive")
    let (core, rim, tail) = (light[243, 120], light[243, 117], light[222, 120])
    XCTAssertGreaterThan(core.blue, 240, "at full strength on its axis")
    XCTAssertGreaterThan(whiteness(core), 0.65, "near white at its core (0.2 in blue): \(core)")
    XCTAssertGreaterThan(rim.blue, rim.red + 40, "blue at its rim: \(rim)")
    XCTAssertLessThan(whiteness(tail), 0.6, "its colour toward its tail: \(tail)")
    let paper = try streak("normal")[243, 120]
    XCTAssertGreaterThan(paper.blue, paper.red + 150, "paper keeps its colour: \(paper)")
  }

  func withoutStretch(_ config: EffectConfig) -> EffectConfig {
    var copy = config
    copy.emitters[0].cells[0].stretch = 0
    return copy
  }

  func testAFadeInRisesFromNothing() throws {
    let config = try still(#""rectangle""#, extra: #", "fadeIn": 1"#)
    let quarter = try render(config, age: 0.25)[160, 120].green
    let whole = try render(config, age: 1.5)[160, 120].green
    let expected = 0.25 * 255 + 0.75 * Double(backdrop.green)
    XCTAssertEqual(Double(quarter), expected, accuracy: 3, "a quarter of the way in")
    XCTAssertEqual(whole, 255)
  }

  func testImagesComeFromTheAtlasInTheirOwnColours() throws {
    // An 8×8 picture in quarters: red, green / blue, transparent.
    let quarters: [[UInt8]] = [
      [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [0, 0, 0, 0],
    ]
    let picture = RGBAImage(
      width: 8, height: 8,
      bytes: (0..<64).flatMap { i in quarters[(i / 8 >= 4 ? 2 : 0) + (i % 8 >= 4 ? 1 : 0)] })
    let config = try EffectConfig.decode(
      """
      {"name": "picture", "emitters": [{"cells": [{"count": 1, "lifetime": 5, "gravity": 0,
        "drag": 0, "rotation": 0, "sizes": [[80, 80]], "colors": ["#ffffff"],
        "shapes": [{"image": "picture.png"}]}]}]}
      """)
    let image = try render(config, age: 0.5, images: [picture])
    let (cx, cy) = (160, 120)
    XCTAssertGreaterThan(image[cx - 25, cy - 25].red, 200, "top left red")
    XCTAssertGreaterThan(image[cx + 25, cy - 25].green, 200, "top right green")
    XCTAssertGreaterThan(image[cx - 25, cy + 25].blue, 200, "bottom left blue")
    XCTAssertEqual(image[cx + 25, cy + 25], backdrop, "bottom right transparent")
  }

  func testAConfigurationsParticleIsWhereTheFormulasPutIt() throws {
    // One particle, no randomness: from (96, 96) at 100 pt/s to the right, 60 pt/s up, gravity
    // 80, no drag: after 1 s, x = 96 + 100 = 196, y = 96 − 60 + 40 = 76.
    let config = try EffectConfig.decode(
      """
      {"name": "exact", "emitters": [{"position": {"x": 0.3, "y": 0.4}, "cells": [{
        "count": 1, "lifetime": 5, "speed": 100, "direction": 0, "kick": {"x": 0, "y": -60},
        "gravity": 80, "drag": 0, "rotation": 0, "sizes": [[6, 6]], "colors": ["#ffffff"]}]}]}
      """)
    let image = try render(config, age: 1)
    let points = painted(image)
    XCTAssertFalse(points.isEmpty)
    let x = Double(points.map(\.x).reduce(0, +)) / Double(points.count) + 0.5
    let y = Double(points.map(\.y).reduce(0, +)) / Double(points.count) + 0.5
    XCTAssertEqual(x, 196, accuracy: 0.5)
    XCTAssertEqual(y, 76, accuracy: 0.5)
    XCTAssertLessThanOrEqual(points.count, 64, "one 6×6 piece")
  }

  func testTrailsDrawFadingCopiesBehindTheParticle() throws {
    let trail = try render(
      still(
        #""circle""#, extra: #", "speed": 300, "direction": 0, "trail": 6, "trailSpacing": 0.05"#
      )
      .withSize(8), age: 0.5)
    let plain = try render(
      still(#""circle""#, extra: #", "speed": 300, "direction": 0"#).withSize(8), age: 0.5)
    let trailed = painted(trail)
    let single = painted(plain)
    XCTAssertGreaterThan(trailed.count, 3 * single.count, "copies drawn")
    // The copies lie behind (left of) the particle, which is where it is without a trail.
    XCTAssertEqual(trailed.map(\.x).max()!, single.map(\.x).max()!, accuracy: 1)
    XCTAssertLessThan(trailed.map(\.x).min()!, single.map(\.x).min()! - 60)
  }
}

extension EffectConfig {
  /// The same configuration with every cell's pieces `side` points square.
  func withSize(_ side: Double) -> EffectConfig {
    var copy = self
    for e in copy.emitters.indices {
      for c in copy.emitters[e].cells.indices {
        copy.emitters[e].cells[c].sizes = [Size(width: side, height: side)]
      }
    }
    return copy
  }
}
