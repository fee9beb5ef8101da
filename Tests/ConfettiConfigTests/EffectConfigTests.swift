import ConfettiConfig
import ConfettiConfigFuzzing
import ConfettiCore
import ConfettiPresets
import Foundation
import XCTest

/// The configuration format: every preset decodes; bad files are refused with the JSON path (or
/// line and column) and what is allowed.
final class EffectConfigTests: XCTestCase {
  func testEveryPresetDecodesAndIsNamedAfterItsFile() throws {
    XCTAssertEqual(
      Set(Presets.names),
      [
        "confetti", "party-popper", "cannon", "classic-cannon", "emoji", "tap-burst", "fireworks",
        "fire", "sparkle", "stars",
        "school-pride", "snow", "rain", "falling-confetti", "hearts", "celebrate",
      ])
    for name in Presets.names {
      let config = try Presets.named(name)
      XCTAssertEqual(config.name, name)
      XCTAssertFalse(config.summary.isEmpty, "\(name) says what it is")
      _ = try EffectScene(config: config, capacity: 16, seed: 1)
    }
  }

  /// A byte-order mark first (as some Windows editors write) is not the text's first character.
  func testAByteOrderMarkBeforeTheTextIsNotPartOfIt() throws {
    let text = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Presets/snow.json"), encoding: .utf8)
    XCTAssertEqual(try EffectConfig.decode("\u{FEFF}" + text), try EffectConfig.decode(text))
    XCTAssertThrowsError(try EffectConfig.decode("\u{FEFF}\u{FEFF}" + text), "one mark only")
  }

  func testAConfigurationWrittenAsJSONReadsBackAsItself() throws {
    // Every preset, and a cell with every value away from its default.
    for name in Presets.names {
      let preset = try Presets.named(name)
      XCTAssertEqual(try EffectConfig.decode(json: preset.json), preset, name)
      XCTAssertEqual(try preset.validated(), preset, name)
    }
    var cell = CellConfig()
    cell.count = 7
    cell.lifetime = Varied(3, range: 1)
    (cell.fade, cell.fadeIn, cell.blend) = (0.4, 0.2, .additive)
    (cell.speedUnit, cell.gravityUnit, cell.velocityUnit) = (
      .windowHeights, .windowHeights, .windowSize
    )
    (cell.speed, cell.direction, cell.kick) = (
      Varied(2, range: 1), Varied(-80, range: 5), SIMD2(3, -4)
    )
    (cell.velocityX, cell.velocityY) = (Varied(1, range: 0.5), Varied(-2))
    (cell.gravity, cell.accelerationX, cell.drag) = (1.5, 12, SIMD2(1, 2))
    (cell.rotation, cell.spin, cell.scale, cell.scaleSpeed) = (
      Varied(10), Varied(5, range: 2), Varied(1.2), -0.1
    )
    cell.shrinksWithLife = true
    cell.sizes = [Size(width: 3, height: 4), Size(width: 5, height: 6)]
    cell.colors = [RGBA8(red: 1, green: 2, blue: 3, alpha: 4)]
    (cell.colorRange, cell.colorSpeed) = (SIMD4(0.1, 0.2, 0.3, 0), SIMD4(0, -0.1, 0, -0.2))
    cell.shapes = [
      .builtIn(.circle), .polygon([SIMD2(0, -1), SIMD2(1, 1), SIMD2(-1, 1)]), .text("✦"),
    ]
    (cell.flutterAmplitude, cell.flutterFrequency, cell.flutterFromBirth) = (
      Varied(3), Varied(2), false
    )
    (cell.flips, cell.flipFrequency, cell.darkensBack) = (false, Varied(4, range: 1), false)
    (cell.twinkle, cell.twinkleFrequency, cell.spread) = (0.5, Varied(9), Varied(1, range: 1))
    (cell.trail, cell.trailSpacing, cell.stretch) = (3, 0.05, 0.1)
    (cell.alongFlight, cell.inheritVelocity, cell.diesAtApex) = (["spark"], 0.3, true)
    var spark = CellConfig()
    spark.name = "spark"
    spark.count = 5
    var emitter = EmitterConfig()
    (emitter.trigger, emitter.position, emitter.offset) = (.click, SIMD2(0.2, 0.3), SIMD2(4, 5))
    (emitter.shape, emitter.emission, emitter.prewarm) = (
      .circle(radius: 0.1), .timed(duration: 2, fadeOut: 0.5, taper: false), 1
    )
    (emitter.wind, emitter.gustAmplitude, emitter.gustPeriod) = (20, 10, 3)
    emitter.floor = Floor()
    cell.birthRate = 40
    emitter.cells = [cell]
    var config = EffectConfig(name: "all", emitters: [emitter])
    config.summary = "every value"
    config.subCells = [spark]
    var read = try EffectConfig.decode(json: config.json)
    // A timed emitter's cell has a birth rate, not a count.
    read.emitters[0].cells[0].count = 7
    XCTAssertEqual(read, config)
  }

  func testTheSeedPresetsCarryTheSeedsNumbers() throws {
    let falling = try Presets.named("falling-confetti")
    XCTAssertEqual(falling.emitters[0].emission, .timed(duration: 3, fadeOut: 1))
    let cell = falling.emitters[0].cells[0]
    XCTAssertEqual(cell.birthRate, 50)
    XCTAssertEqual(cell.lifetime, Varied(10))
    XCTAssertEqual(cell.speed, Varied(500, range: 250))
    XCTAssertEqual(cell.scale, Varied(0.75, range: 0.25))
    let tap = try Presets.named("tap-burst").emitters[0].cells[0]
    XCTAssertEqual(tap.count, 60)
    XCTAssertEqual(tap.kick, SIMD2(0, -60))
    XCTAssertEqual(tap.gravity, 120)
    XCTAssertTrue(tap.shrinksWithLife)
    let fire = try Presets.named("fire").emitters[0].cells[0]
    XCTAssertEqual(fire.drag.x, -log(0.92) * 60, accuracy: 0.01, "0.92 per 1/60 s")
  }

  func testAMinimalConfigurationGetsTheDocumentedDefaults() throws {
    let config = try EffectConfig.decode(
      #"{"name": "tiny", "emitters": [{"cells": [{"count": 3}]}]}"#)
    let emitter = config.emitters[0]
    XCTAssertEqual(emitter.trigger, .start)
    XCTAssertEqual(emitter.position, SIMD2(0.5, 0.5))
    XCTAssertEqual(emitter.emission, .burst)
    XCTAssertEqual(
      emitter.cells[0],
      {
        var cell = CellConfig()
        cell.count = 3
        return cell
      }())
  }

  /// Each bad configuration, and what the message must contain.
  static let badConfigurations: [(json: String, expected: [String])] = [
    ("", ["not valid JSON", "line 1, column 1", "value"]),
    ("{", ["line 1, column 2", "key"]),
    (#"{"name": "a", "emitters": [],}"#, ["line 1, column 30", "trailing commas"]),
    (#"{"name": "a", "name": "b"}"#, ["duplicate key \"name\"", "column 15"]),
    ("{\"name\": \"a\"\n  // note\n}", ["line 2, column 3", "comments are not JSON"]),
    (#"{"name": "a", "emitters": [1, ]}"#, ["trailing commas"]),
    (#"{"name": 'a'}"#, ["column 10", "found '''"]),
    (#"{"name": "a"} x"#, ["after the end of the document"]),
    (#"{"name": 01}"#, ["leading zeros"]),
    (#"{"name": NaN}"#, ["expected a value"]),
    (#"{"name": 1e999}"#, ["too large"]),
    (#"{"name": "a\qb"}"#, ["unknown escape"]),
    ("[1]", ["$: must be an object"]),
    (#"{"emitters": []}"#, ["$: missing \"name\""]),
    (#"{"name": "a"}"#, ["missing \"emitters\""]),
    (#"{"name": "a b", "emitters": []}"#, ["$.name", "letters, digits or '-'"]),
    (#"{"name": "a", "emitters": []}"#, ["$.emitters", "must not be empty"]),
    (
      #"{"name": "a", "emiters": []}"#,
      ["$.emiters: unknown key", "allowed here: name, description, emitters"]
    ),
    (#"{"name": "a", "emitters": [{}]}"#, ["$.emitters[0]", "missing \"cells\""]),
    (#"{"name": "a", "emitters": [{"cells": []}]}"#, ["$.emitters[0].cells", "must not be empty"]),
    (
      #"{"name": "a", "emitters": [{"cells": [{}]}]}"#,
      ["$.emitters[0].cells[0]", "missing \"count\""]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 2.5}]}]}"#,
      ["cells[0].count", "whole number from 1"]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": "9"}]}]}"#, ["cells[0].count", "not \"9\""]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "lifetime": -1}]}]}"#,
      ["cells[0].lifetime", "from 0.01 to 600 (seconds), not -1"]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "lifetime": {"value": 1, "range": 2}}]}]}"#,
      ["cells[0].lifetime", "value ± range must stay within"]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "lifetime": {"valu": 1}}]}]}"#,
      ["lifetime.valu: unknown key", "value, range"]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "colors": []}]}]}"#,
      ["cells[0].colors", "must not be empty"]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "colors": ["red"]}]}]}"#,
      ["colors[0]", "#rrggbb"]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "shapes": []}]}]}"#,
      ["cells[0].shapes", "must not be empty"]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "shapes": ["hexagon"]}]}]}"#,
      ["shapes[0]", "\"rectangle\", \"circle\", \"triangle\", \"star\""]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "shapes": [{"polygon": [[0, 0], [1, 1]]}]}]}]}"#,
      ["shapes[0].polygon", "3 to 32 items"]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "shapes": [{"polygon": [[0, 0], [1, 0], [2, 0]]}]}]}]}"#,
      ["shapes[0].polygon", "area"]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "trail": 17}]}]}"#,
      ["cells[0].trail", "0 to 16"]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "flips": 1}]}]}"#,
      ["cells[0].flips", "true or false"]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "speedUnit": "km"}]}]}"#,
      ["speedUnit", "\"points\", \"windowHeights\""]
    ),
    (
      #"{"name": "a", "emitters": [{"cells": [{"count": 1, "sizes": [[10]]}]}]}"#,
      ["sizes[0]", "must have 2 items, not 1"]
    ),
    (
      #"{"name": "a", "emitters": [{"trigger": "tap", "cells": [{"count": 1}]}]}"#,
      ["$.emitters[0].trigger", "\"start\", \"click\", \"key\""]
    ),
    (
      #"{"name": "a", "emitters": [{"position": {"x": 0.5}, "cells": [{"count": 1}]}]}"#,
      ["$.emitters[0].position", "missing \"y\""]
    ),
    (
      #"{"name": "a", "emitters": [{"shape": {"kind": "line"}, "cells": [{"count": 1}]}]}"#,
      ["$.emitters[0].shape", "missing \"length\""]
    ),
    (
      #"{"name": "a", "emitters": [{"shape": {"kind": "point", "radius": 1}, "cells": [{"count": 1}]}]}"#,
      ["shape.radius", "nothing but its kind"]
    ),
    (
      #"{"name": "a", "emitters": [{"emission": {"mode": "timed"}, "cells": [{"count": 1}]}]}"#,
      ["cells[0]", "missing \"birthRate\""]
    ),
    (
      #"{"name": "a", "emitters": [{"emission": {"mode": "burst", "duration": 2}, "cells": [{"count": 1}]}]}"#,
      ["emission.duration", "a burst emission has no duration", "is for a timed emission"]
    ),
    (
      #"{"name": "a", "emitters": [{"emission": {"mode": "continuous"}, "cells": [{"birthRate": 5, "count": 1}]}]}"#,
      ["cells[0].count", "a continuous emitter's cell has no count; it takes birthRate"]
    ),
    (
      #"{"name": "a", "emitters": [{"wind": {"speed": 1e6}, "cells": [{"count": 1}]}]}"#,
      ["wind.speed", "-2000 to 2000 (pt/s)"]
    ),
    (
      #"{"name": "a", "emitters": [{"emission": {"mode": "burst", "prewarm": 5}, "cells": [{"count": 1}]}]}"#,
      ["emission", "prewarm"]
    ),
    (
      #"{"name": "a", "emitters": [{"emission": {"mode": "continuous", "prewarm": 1000}, "cells": [{"birthRate": 1}]}]}"#,
      ["emission.prewarm", "0 to 120 (seconds)"]
    ),
  ]

  func testPrewarmIsReadForTimedAndContinuousEmitters() throws {
    let json = #"""
      {"name": "a", "emitters": [
        {"emission": {"mode": "continuous", "prewarm": 12.5}, "cells": [{"birthRate": 1}]},
        {"emission": {"mode": "timed", "duration": 4, "prewarm": 1}, "cells": [{"birthRate": 1}]},
        {"emission": {"mode": "continuous"}, "cells": [{"birthRate": 1}]}]}
      """#
    let config = try EffectConfig.decode(json)
    XCTAssertEqual(config.emitters.map(\.prewarm), [12.5, 1, 0])
    XCTAssertEqual(config.emitters[1].emission, .timed(duration: 4, fadeOut: 1))
  }

  func testBadConfigurationsAreRefusedWithWhereAndWhatIsAllowed() {
    for (json, expected) in Self.badConfigurations {
      do {
        _ = try EffectConfig.decode(json)
        XCTFail("accepted: \(json)")
      } catch {
        let message = error.description
        XCTAssertFalse(message.contains("\n"), "one line: \(message)")
        for part in expected {
          XCTAssert(message.contains(part), "\(json)\n  said: \(message)\n  missing: \(part)")
        }
      }
    }
  }

  func testTooManyCellsForTheEmitterTableAreRefused() {
    let cell = #"{"count": 1}"#
    let cells = Array(repeating: cell, count: 20).joined(separator: ", ")
    let json = #"{"name": "a", "emitters": [{"cells": [\#(cells)]}, {"cells": [\#(cells)]}]}"#
    XCTAssertThrowsError(try EffectConfig.decode(json)) {
      XCTAssert("\($0)".contains("40 cells in all, with the sub-cells; at most 31"), "\($0)")
    }
  }

  /// Inputs found by the fuzz target (`confetti-fuzz`), kept so they stay handled.
  func testTheFuzzCorpusIsHandledWithoutCrashing() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appending(path: "ConfigCorpus")
    let files = try FileManager.default.contentsOfDirectory(
      at: folder, includingPropertiesForKeys: nil)
    XCTAssertGreaterThan(files.count, 10, "the corpus is there")
    for file in files {
      let data = try Data(contentsOf: file)
      let outcome = ConfigFuzzing.check(data)
      XCTAssertNil(outcome.violation, "\(file.lastPathComponent): \(outcome.violation ?? "")")
    }
  }
}

extension EffectConfigTests {
  func testTheLookKeysDecodeAndATumblingTwinkleIsRefused() throws {
    let config = try EffectConfig.decode(
      """
      {"name": "look", "emitters": [{"floor": {"y": 0.9, "restTime": 1.5},
        "cells": [{"count": 1, "blend": "additive", "fadeIn": 0.2, "twinkle": 0.5,
          "twinkleFrequency": {"value": 6, "range": 2}, "flutterFromBirth": false,
          "shapes": ["glow", {"text": "🎉"}]}]}]}
      """)
    let emitter = config.emitters[0]
    XCTAssertEqual(emitter.floor?.y, 0.9)
    XCTAssertEqual(emitter.floor?.offset, 0)
    XCTAssertEqual(emitter.floor?.restTime, 1.5)
    let cell = emitter.cells[0]
    XCTAssertEqual(cell.blend, .additive)
    XCTAssertEqual(cell.fadeIn, 0.2)
    XCTAssertEqual(cell.twinkle, 0.5)
    XCTAssertEqual(cell.twinkleFrequency, Varied(6, range: 2))
    XCTAssertFalse(cell.flutterFromBirth)
    XCTAssertEqual(cell.shapes, [.builtIn(.glow), .text("🎉")])
    XCTAssertThrowsError(
      try EffectConfig.decode(
        #"{"name": "a", "emitters": [{"cells": [{"count": 1, "shapes": [{"text": ""}]}]}]}"#)
    ) { XCTAssert("\($0)".contains("shapes[0].text"), "\($0)") }
    XCTAssertNil(
      try EffectConfig.decode(#"{"name": "a", "emitters": [{"cells": [{"count": 1}]}]}"#)
        .emitters[0].floor)

    XCTAssertThrowsError(
      try EffectConfig.decode(
        #"{"name": "a", "emitters": [{"cells": [{"count": 1, "flips": true, "twinkle": 0.4}]}]}"#)
    ) { error in
      XCTAssertEqual(
        "\(error)",
        "$.emitters[0].cells[0].twinkle: a piece that tumbles cannot twinkle (the two share one "
          + "rate and phase): set flips to false or twinkle to 0")
    }
    XCTAssertThrowsError(
      try EffectConfig.decode(
        #"{"name": "a", "emitters": [{"cells": [{"count": 1, "blend": "screen"}]}]}"#)
    ) { error in
      XCTAssert("\(error)".contains("\"normal\""), "\(error)")
    }
  }
}
