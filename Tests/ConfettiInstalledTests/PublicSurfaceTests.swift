import ConfettiTestSupport
import Foundation
import XCTest

/// What `import Confetti` gives a host, read from its symbol graph (swift-symbolgraph-extract,
/// through .ci/symbol-graph): every name is in the documentation catalog, and none of the layers'
/// inner workings is among them.
final class PublicSurfaceTests: XCTestCase {
  /// The public symbols' paths (type, member), from the build these tests run in.
  private func publicSymbols() throws -> [[String]] {
    let graphs = try temporaryDirectory()
    let modules = confettiBinary.deletingLastPathComponent().appendingPathComponent("Modules")
    let extracted = try runProgram(
      URL(fileURLWithPath: "/bin/sh"),
      [repository.appendingPathComponent(".ci/symbol-graph").path, graphs.path, modules.path],
      timeout: 120)
    XCTAssertEqual(extracted.status, 0, extracted.stderr)
    let data = try Data(contentsOf: graphs.appendingPathComponent("Confetti.symbols.json"))
    let graph = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let symbols = try XCTUnwrap(graph["symbols"] as? [[String: Any]])
    return symbols.compactMap { $0["pathComponents"] as? [String] }
  }

  /// The symbols `module` makes public, from its symbol graph: each symbol's JSON.
  private func graph(of module: String) throws -> [[String: Any]] {
    let graphs = try temporaryDirectory()
    let modules = confettiBinary.deletingLastPathComponent().appendingPathComponent("Modules")
    let extracted = try runProgram(
      URL(fileURLWithPath: "/bin/sh"),
      [
        repository.appendingPathComponent(".ci/symbol-graph").path, graphs.path, modules.path,
        module,
      ],
      timeout: 120)
    XCTAssertEqual(extracted.status, 0, extracted.stderr)
    let data = try Data(contentsOf: graphs.appendingPathComponent("\(module).symbols.json"))
    let graph = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try XCTUnwrap(graph["symbols"] as? [[String: Any]])
  }

  /// The other library modules a host can import (the core under the facade, to render, to
  /// celebrate, the desktop's window, the terminal): every public symbol written in this repository is documented, and their
  /// workings (the video writer, the records, the window loop, the overlays) are not public.
  func testEveryOtherProductDocumentsWhatItMakesPublicAndHidesItsWorkings() throws {
    let expected: [String: (publicTypes: Set<String>, inner: [String])] = [
      // The core shows the effect's description alone (what `import Confetti` re-exports, the
      // units it is written in, the player's clock); the physics, the records, the scene and
      // the clock's ticks are the package's.
      "ConfettiCore": (
        [
          "Blend", "CellConfig", "ConfigError", "EffectConfig", "Emission", "EmitterConfig",
          "EmitterShape", "EmitterTrigger", "Floor", "GravityUnit", "ParticleShape",
          "PlaybackClock", "RGBA8", "ShapeChoice", "SpeedUnit", "Varied", "VelocityUnit", "Size",
          "Point", "Points", "Seconds", "PointsPerSecond", "PointsPerSecondSquared", "PerSecond",
          "Degrees", "Radians",
        ],
        [
          "ConfettiPhysics", "ParticleRecord", "RecordAttribute", "ConfettiParticle",
          "ParticleState", "EffectScene", "RunningEmitter", "ParticleRing", "CellTable",
          "CellStyle", "CellUniform", "ShapeTable", "ShaderFeatures", "SplitMix64", "Tick",
          "oneFrame",
        ]
      ),
      "ConfettiExport": (
        [
          "Export", "RenderOptions", "RenderSettings", "RenderTrigger", "RenderProgress",
          "RenderResult",
          "RenderError", "RenderStopped", "VideoFormat", "VideoError", "PixelSize",
          "ExportQuality", "RenderTimings",
        ],
        [
          "VideoWriter", "RecordExport", "TailReader", "SpawnError", "SharedState",
          "PictureSequence", "RenderTimeline",
        ]
      ),
      "ConfettiCelebration": (["Celebration", "CelebrationOptions", "CelebrationError"], []),
      // The terminal shows its celebration and how it reads a terminal; how it draws and
      // borrows the screen is its own.
      "ConfettiTerminal": (
        [
          "TerminalCelebration", "TerminalGraphics", "TerminalColors", "TerminalReplies",
          "TerminalChoice",
        ],
        ["TerminalScreen", "TerminalLayout", "KittyPicture"]
      ),
      "ConfettiDesktop": (
        ["WindowError"],
        [
          "WindowApp", "WindowSettings", "Overlay", "LayerOverlay", "DesktopMotion",
          "OverlaySnapshot", "FrameCounter", "FileWatch",
        ]
      ),
    ]
    for (module, (publicTypes, inner)) in expected {
      let symbols = try graph(of: module)
      let paths = symbols.compactMap { $0["pathComponents"] as? [String] }
      let types = Set(paths.filter { $0.count == 1 }.map { $0[0] })
      XCTAssertEqual(types, publicTypes, "\(module)'s public types")
      for name in inner { XCTAssertFalse(types.contains(name), "\(module): \(name) is public") }
      for symbol in symbols {
        // Written here (a synthesized conformance, such as hashValue, has no place).
        guard let location = symbol["location"] as? [String: Any],
          (location["uri"] as? String)?.contains("/Sources/") == true
        else { continue }
        let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
        XCTAssertNotNil(symbol["docComment"], "\(module): \(path) is public but undocumented")
      }
    }
  }

  private func catalog(_ page: String) throws -> String {
    try String(
      contentsOf: repository.appendingPathComponent("Sources/Confetti/Confetti.docc/\(page)"),
      encoding: .utf8)
  }

  func testEveryPublicSymbolIsInTheDocumentationAndNoInnerOneIsPublic() throws {
    let symbols = try publicSymbols()
    let types = Set(symbols.filter { $0.count == 1 }.map { $0[0] })
    XCTAssertGreaterThan(types.count, 20, "the facade and the types it speaks in")

    // Every type a host sees is in the landing page's topics ...
    let landing = try catalog("Confetti.md")
    for type in types.sorted() {
      XCTAssert(landing.contains("- ``\(type)``"), "\(type) is public but not in Confetti.md")
    }
    // ... and every member of the facade in its own page's.
    let facade = try catalog("ConfettiSystem.md")
    for member in symbols where member.count == 2 && member[0] == "ConfettiSystem" {
      XCTAssert(
        facade.contains("- ``\(member[1])``"), "\(member[1]) is public but not in ConfettiSystem.md"
      )
    }

    // The layers' workings stay theirs: the renderer, the records, the scene, the clock's
    // ticks, the schema, the strict parser, the fuzz harness, output files.
    for inner in [
      "ParticleRenderer", "ShaderProgram", "ShaderSource", "HostGLState",
      "EffectScene", "ParticleRing", "ParticleRecord", "ConfettiParticle", "ConfettiPhysics",
      "CellTable", "ShapeTable", "Tick", "ConfigSchema", "StrictJSON", "ConfigFuzzing",
      "OutputFile", "ExclusiveFile", "UploadMeter", "ShaderConstants", "Size", "Point",
      "Seconds",
    ] {
      XCTAssertFalse(types.contains(inner), "\(inner) is public to hosts")
    }
    // Size and Point live in the facade, where no host type of the same name collides.
    XCTAssert(symbols.contains(["ConfettiSystem", "Size"]))
    XCTAssert(symbols.contains(["ConfettiSystem", "Point"]))
  }
}
