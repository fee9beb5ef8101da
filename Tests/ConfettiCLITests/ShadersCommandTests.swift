import ConfettiCore
import ConfettiGL
import ConfettiPresets
import ConfettiTestSupport
import Foundation
import XCTest

/// `confetti shaders`: the GLSL as the renderer links it, for a preset, a file or every feature.
/// (`ShaderTests` compiles that text on its own and checks it is what the renderer links.)
final class ShadersCommandTests: XCTestCase {
  func testItPrintsWhatTheRendererLinksForTheEffect() throws {
    let fire = try EffectScene(config: Presets.named("fire"), capacity: 1, seed: 1)
    let expected = ParticleRenderer.shaderSources(
      features: fire.expectedFeatures, primitive: .quads)
    let header =
      "preset fire, drawn as quads; features: WITH_GLOWS WITH_STREAKS WITH_TWINKLES "
      + "WITH_FADE_INS"
    let vertex = try confetti([
      "shaders", "--preset", "fire", "--primitive", "quads", "--stage", "vertex",
    ])
    XCTAssertEqual(vertex.status, 0, vertex.stderr)
    XCTAssertEqual(vertex.stdout, "// particle.vert for \(header)\n\(expected.vertex)\n")
    let both = try confetti(["shaders", "--preset", "fire", "--primitive", "quads"])
    XCTAssertEqual(
      both.stdout,
      "// particle.vert for \(header)\n\(expected.vertex)\n// particle.frag for \(header)\n"
        + "\(expected.fragment)\n")

    // Every feature, for a port that draws any effect.
    let all = ParticleRenderer.shaderSources(features: .all, primitive: .points)
    let everything = try confetti(
      ["shaders", "--all-features", "--primitive", "points", "--stage", "fragment"])
    XCTAssert(everything.stdout.hasSuffix("\n\(all.fragment)\n"), everything.stdout)
    XCTAssert(everything.stdout.contains("WITH_POLYGONS WITH_IMAGES"), everything.stdout)

    // A file, and the effect's own mistakes, in one line.
    let directory = try temporaryDirectory()
    let file = directory.appendingPathComponent("plain.json")
    try #"{"name": "plain", "emitters": [{"cells": [{"count": 3}]}]}"#
      .write(to: file, atomically: true, encoding: .utf8)
    let plain = try confetti(["shaders", "--config", file.path, "--primitive", "points"])
    XCTAssertEqual(plain.status, 0, plain.stderr)
    XCTAssert(
      plain.stdout.hasPrefix("// particle.vert for \(file.path), drawn as points; features: none\n")
    )
    let bad = try confetti(["shaders", "--preset", "nope"])
    XCTAssertEqual(bad.status, 64)
    XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
  }
}
