@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiGL
import ConfettiGLTestSupport
import ConfettiPresets
import XCTest

final class ShaderTests: HeadlessGLTestCase {
  func testTheEmbeddedShadersCompileAndLinkWithEveryRecordAttributeAtItsLocation() throws {
    // Compiled with every feature (a plain one has no use for the landing, for one).
    let everything = SpriteProgram.defines.map(\.define)
    let program = try ShaderProgram(
      vertex: ShaderSource.embedded("particle.vert").defining(everything),
      fragment: ShaderSource.embedded("particle.frag").defining(everything),
      attributes: ParticleRecord.attributes)
    for attribute in ParticleRecord.attributes {
      XCTAssertEqual(
        epoxy_glGetAttribLocation(program.id, attribute.name), GLint(attribute.location),
        "\(attribute.name) is not read by the shader at its location")
    }
    XCTAssertGreaterThanOrEqual(program.uniform("u_now"), 0)
  }

  /// Every feature has its define, and the shaders compile with none of them, with each alone
  /// and with all: a scene may need any set.
  func testTheShadersCompileForEveryFeatureAloneAndForNone() throws {
    let defined = SpriteProgram.defines.reduce(into: ShaderFeatures()) { $0.formUnion($1.feature) }
    XCTAssertEqual(defined, .all, "a feature without a define")
    let sets = [[]] + SpriteProgram.defines.map { [$0.define] }
    for defines in sets {
      for primitive in [SpritePrimitive.points, .instancedPoints, .quads] {
        for wholePixels in [false, true] {
          let chosen = primitive.shaderDefines(wholePixelPoints: wholePixels) + defines
          XCTAssertNoThrow(
            try ShaderProgram(
              vertex: ShaderSource.embedded("particle.vert").defining(chosen),
              fragment: ShaderSource.embedded("particle.frag").defining(chosen),
              attributes: ParticleRecord.attributes), "\(chosen)")
        }
      }
    }
  }

  /// What `confetti shaders` prints is what the renderer links, for every preset and primitive,
  /// and it compiles and links on its own (without the tests' transform-feedback outputs).
  func testThePrintedShadersAreWhatTheRendererLinksAndCompileAlone() throws {
    for name in Presets.names {
      let scene = try EffectScene(config: Presets.named(name), capacity: 1, seed: 1)
      for primitive in [SpritePrimitive.points, .instancedPoints, .quads] {
        let printed = ParticleRenderer.shaderSources(
          features: scene.expectedFeatures, primitive: primitive,
          wholePixelPoints: context.info.drawsWholePixelPoints)
        let renderer = try ParticleRenderer(
          capacity: 8, info: context.info, primitive: primitive, features: scene.expectedFeatures)
        defer { renderer.release() }
        XCTAssertEqual(renderer.linkedSources.vertex, printed.vertex, "\(name), \(primitive)")
        XCTAssertEqual(renderer.linkedSources.fragment, printed.fragment, "\(name), \(primitive)")
        let alone = try ShaderProgram(
          vertex: ShaderSource(fileName: "printed.vert", text: printed.vertex),
          fragment: ShaderSource(fileName: "printed.frag", text: printed.fragment),
          attributes: ParticleRecord.attributes)
        XCTAssertGreaterThanOrEqual(alone.uniform("u_now"), 0, "\(name), \(primitive)")
        alone.release()
      }
    }
  }

  func testACompileErrorCarriesTheFileNameAndTheLog() {
    let broken = ShaderSource(
      fileName: "broken.vert",
      text: "#version 330 core\nvoid main() { gl_Position = undefinedThing; }\n")
    XCTAssertThrowsError(try ShaderProgram(vertex: broken, fragment: .embedded("particle.frag"))) {
      error in
      guard case .shaderCompile(let file, let log) = error as? GLError else {
        return XCTFail("expected a compile error, got \(error)")
      }
      XCTAssertEqual(file, "broken.vert")
      XCTAssert(log.contains("undefinedThing"), log)
      XCTAssert("\(error)".hasPrefix("shader broken.vert failed to compile: "), "\(error)")
    }
  }

  func testALinkErrorNamesBothFiles() {
    // Both compile, but the vertex stage has no main() for the linker to find.
    let vertex = ShaderSource(
      fileName: "plain.vert", text: "#version 330 core\nvoid notMain() {}\n")
    let fragment = ShaderSource(
      fileName: "needy.frag", text: "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1); }\n"
    )
    XCTAssertThrowsError(try ShaderProgram(vertex: vertex, fragment: fragment)) { error in
      guard case .programLink(let files, _) = error as? GLError else {
        return XCTFail("expected a link error, got \(error)")
      }
      XCTAssertEqual(files, ["plain.vert", "needy.frag"])
    }
  }

  func testTheContextIsGL33OrNewerAndSaysWhatItIs() {
    XCTAssertFalse(context.info.renderer.isEmpty)
    XCTAssertGreaterThanOrEqual(context.info.maxPointSize, 64)
    XCTAssertGreaterThanOrEqual(context.info.maxViewport.width, 4096)
  }
}
