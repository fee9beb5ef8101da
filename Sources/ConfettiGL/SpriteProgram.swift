@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiImage

/// A sprite program (a vertex shader with particle.frag) compiled for the shapes it must cut and
/// the primitive it draws them as (``SpritePrimitive``).
///
/// particle.frag compiles its polygon and image code only under `#define WITH_POLYGONS` and
/// `#define WITH_IMAGES`: a GL that runs both sides of a branch (llvmpipe does, even for a uniform
/// condition) would otherwise pay for them on every rectangle; measured on llvmpipe, 100k
/// rectangles at 1080p took 3.4× as long with the polygon loop merely present. Before each draw,
/// ``prepare(for:meter:)`` checks the shapes the ring holds and, the first time polygons or images
/// appear, builds the program again with them and hands it every uniform it had. It does the same,
/// drawing quads from then on, the first time a ring holds a piece too big for a point sprite.
package final class SpriteProgram {
  package private(set) var program: ShaderProgram
  private(set) var kinds: ParticleShape.Kinds = []
  /// ``SpritePrimitive/points`` or ``SpritePrimitive/quads``.
  package private(set) var primitive: SpritePrimitive
  private let vertex: ShaderSource
  private let attributes: [RecordAttribute]
  private let feedbackVaryings: [String]
  private let info: GLInfo
  private var projection: SpriteProjection
  private let shapes = ShapeUniforms()

  /// A program drawing `primitive`s (`auto` is resolved for the GL `info` describes).
  package init(
    vertex: ShaderSource, attributes: [RecordAttribute], feedbackVaryings: [String] = [],
    primitive: SpritePrimitive, info: GLInfo, meter: inout UploadMeter
  ) throws {
    (self.vertex, self.attributes, self.feedbackVaryings, self.info) =
      (vertex, attributes, feedbackVaryings, info)
    self.primitive = primitive.resolved(for: info)
    program = try Self.build(
      vertex, attributes, feedbackVaryings, kinds: [], primitive: self.primitive)
    projection = SpriteProjection(info: info)
    setLimits()
    try shapes.set(ShapeTable(), images: [], program: program, meter: &meter)
  }

  /// Deletes the program and the atlas now; the object must not be used again.
  package func release() {
    program.release()
    shapes.release()
  }

  /// The GL's largest sprite, which the vertex shader clamps to.
  private func setLimits() {
    epoxy_glUseProgram(program.id)
    epoxy_glUniform1f(program.uniform("u_maxPointSize"), info.maxPointSize)
  }

  private static func build(
    _ vertex: ShaderSource, _ attributes: [RecordAttribute], _ feedbackVaryings: [String],
    kinds: ParticleShape.Kinds, primitive: SpritePrimitive
  ) throws -> ShaderProgram {
    let feed = primitive.shaderDefines
    var defines = feed
    if kinds.contains(.polygons) { defines.append("WITH_POLYGONS") }
    if kinds.contains(.images) { defines.append("WITH_IMAGES") }
    return try ShaderProgram(
      vertex: vertex.defining(feed),
      fragment: ShaderSource.embedded("particle.frag").defining(defines),
      attributes: attributes, feedbackVaryings: feedbackVaryings)
  }

  /// Whether every piece of `ring` fits a point sprite at `pixelsPerPoint`.
  private func pointsHold(_ ring: ParticleRing, pixelsPerPoint: Double) -> Bool {
    ring.largestDiagonal * pixelsPerPoint + 2 <= Double(info.maxPointSize)
  }

  package func setShapeTable(_ table: ShapeTable, images: [RGBAImage], meter: inout UploadMeter)
    throws
  {
    try shapes.set(table, images: images, program: program, meter: &meter)
  }

  /// Sets the whole sprite state for drawing a window of `window` points into `rect`, clipped
  /// to `clip` too where given. Returns false when there is nothing to draw into.
  package func target(
    _ rect: PixelRect, window: Size, clip: PixelRect?, meter: inout UploadMeter
  ) -> Bool {
    applySpriteState()
    return projection.apply(
      rect: rect, window: window, clip: clip, program: program, meter: &meter)
  }

  /// Makes sure the program cuts every shape `ring` holds, and draws each of its pieces whole
  /// when a window of `window` points fills `rect` (switching to quads for good if one is too big
  /// for a point sprite), and binds the atlas. Returns true when it built a new program: the
  /// caller's own uniforms must then be set on it again (the sprite state, projection and shapes
  /// already are).
  @discardableResult
  package func prepare(
    for ring: ParticleRing, in rect: PixelRect, window: Size, meter: inout UploadMeter
  ) throws -> Bool {
    var rebuilt = false
    let tooBig = SpriteProjection.pixelsPerPoint(rect, window: window).map {
      !pointsHold(ring, pixelsPerPoint: $0)
    }
    let wantedPrimitive = primitive != .quads && tooBig == true ? SpritePrimitive.quads : primitive
    if !kinds.isSuperset(of: ring.shapeKinds) || wantedPrimitive != primitive {
      let wanted = kinds.union(ring.shapeKinds)
      let replaced = program
      program = try Self.build(
        vertex, attributes, feedbackVaryings, kinds: wanted, primitive: wantedPrimitive)
      replaced.release()
      (kinds, primitive) = (wanted, wantedPrimitive)
      setLimits()
      projection.reapply(program: program, meter: &meter)
      try shapes.apply(to: program, meter: &meter)
      rebuilt = true
    }
    shapes.bind()
    return rebuilt
  }
}
