@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiImage

/// A sprite program (a vertex shader with particle.frag) compiled for the shapes it must cut.
///
/// particle.frag compiles its polygon and image code only under `#define WITH_POLYGONS` and
/// `#define WITH_IMAGES`: a GL that runs both sides of a branch (llvmpipe does, even for a uniform
/// condition) would otherwise pay for them on every rectangle; measured on llvmpipe, 100k
/// rectangles at 1080p took 3.4× as long with the polygon loop merely present. Before each draw,
/// ``prepare(for:meter:)`` checks the shapes the ring holds and, the first time polygons or images
/// appear, builds the program again with them and hands it every uniform it had.
final class SpriteProgram {
  private(set) var program: ShaderProgram
  private(set) var kinds: ParticleShape.Kinds = []
  private let vertex: ShaderSource
  private let attributes: [RecordAttribute]
  private let feedbackVaryings: [String]
  private let info: GLInfo
  private var projection: SpriteProjection
  private let shapes = ShapeUniforms()

  init(
    vertex: ShaderSource, attributes: [RecordAttribute], feedbackVaryings: [String] = [],
    info: GLInfo, meter: inout UploadMeter
  ) throws {
    (self.vertex, self.attributes, self.feedbackVaryings, self.info) =
      (vertex, attributes, feedbackVaryings, info)
    program = try Self.build(vertex, attributes, feedbackVaryings, kinds: [])
    projection = SpriteProjection(info: info)
    prepareSpriteState(program: program, info: info)
    try shapes.set(ShapeTable(), images: [], program: program, meter: &meter)
  }

  private static func build(
    _ vertex: ShaderSource, _ attributes: [RecordAttribute], _ feedbackVaryings: [String],
    kinds: ParticleShape.Kinds
  ) throws -> ShaderProgram {
    var defines: [String] = []
    if kinds.contains(.polygons) { defines.append("WITH_POLYGONS") }
    if kinds.contains(.images) { defines.append("WITH_IMAGES") }
    return try ShaderProgram(
      vertex: vertex, fragment: ShaderSource.embedded("particle.frag").defining(defines),
      attributes: attributes, feedbackVaryings: feedbackVaryings)
  }

  func setShapeTable(_ table: ShapeTable, images: [RGBAImage], meter: inout UploadMeter) throws {
    try shapes.set(table, images: images, program: program, meter: &meter)
  }

  func setViewport(width: Int, height: Int, window: Size, meter: inout UploadMeter) {
    projection.set(width: width, height: height, window: window, program: program, meter: &meter)
  }

  /// Makes sure the program cuts every shape `ring` holds, and binds the atlas. Returns true
  /// when it built a new program: the caller's own uniforms must then be set on it again (the
  /// sprite state, projection and shapes already are).
  @discardableResult
  func prepare(for ring: ParticleRing, meter: inout UploadMeter) throws -> Bool {
    var rebuilt = false
    if !kinds.isSuperset(of: ring.shapeKinds) {
      let wanted = kinds.union(ring.shapeKinds)
      program = try Self.build(vertex, attributes, feedbackVaryings, kinds: wanted)
      kinds = wanted
      prepareSpriteState(program: program, info: info)
      projection.reapply(program: program, meter: &meter)
      try shapes.apply(to: program, meter: &meter)
      rebuilt = true
    }
    shapes.bind()
    return rebuilt
  }
}

extension ShaderSource {
  /// The same source with `#define NAME` lines after its `#version` line.
  func defining(_ names: [String]) -> ShaderSource {
    guard !names.isEmpty else { return self }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let at = lines.first?.hasPrefix("#version") == true ? 1 : 0
    lines.insert(contentsOf: names.map { "#define \($0)" }, at: at)
    // Keep the compiler's line numbers those of the file.
    lines.insert("#line \(at + 1)", at: at + names.count)
    return ShaderSource(fileName: fileName, text: lines.joined(separator: "\n"))
  }
}
