@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiImage

/// A sprite program (a vertex shader with particle.frag) compiled for what it must draw
/// (``ShaderFeatures``) and the primitive it draws it as (``SpritePrimitive``).
///
/// The shaders compile each feature's code only under its `#define` (``defines``): a GL that
/// runs both sides of a branch (llvmpipe does, even for a uniform condition) would otherwise pay
/// for all of them on every piece. Before each draw,
/// ``prepare(for:largestDiagonal:in:window:meter:)`` checks what is to be drawn and, the first
/// time it needs a feature the program lacks, builds the program again with it and hands it
/// every uniform it had. It does the same, drawing quads from then on, the first time a piece is
/// too big for a point sprite. Features are only ever added: a scene that once had streaks keeps
/// paying for them. (A host can compile for an effect's features up front:
/// ``EffectScene/expectedFeatures``.)
package final class SpriteProgram {
  package private(set) var program: ShaderProgram
  /// What the program is compiled to draw.
  package private(set) var features: ShaderFeatures
  /// ``SpritePrimitive/points`` or ``SpritePrimitive/quads``.
  package private(set) var primitive: SpritePrimitive
  /// The two shaders' text as the program was last linked from.
  package private(set) var sources: (vertex: ShaderSource, fragment: ShaderSource)
  private let vertex: ShaderSource
  /// The vertex shader it was made from, before its defines.
  package var vertexSource: ShaderSource { vertex }
  private let attributes: [RecordAttribute]
  private let feedbackVaryings: [String]
  private let info: GLInfo
  private var projection: SpriteProjection
  private let shapes = ShapeUniforms()

  /// A program drawing `primitive`s (`auto` is resolved for the GL `info` describes), compiled
  /// for `features` to begin with.
  package init(
    vertex: ShaderSource, attributes: [RecordAttribute], feedbackVaryings: [String] = [],
    primitive: SpritePrimitive, features: ShaderFeatures = [], info: GLInfo,
    meter: inout UploadMeter
  ) throws {
    (self.vertex, self.attributes, self.feedbackVaryings, self.info) =
      (vertex, attributes, feedbackVaryings, info)
    (self.primitive, self.features) = (primitive.resolved(for: info), features)
    sources = Self.sources(
      vertex, features: features, primitive: self.primitive,
      wholePixelPoints: info.drawsWholePixelPoints)
    program = try Self.build(sources, attributes, feedbackVaryings)
    projection = SpriteProjection(info: info)
    setLimits()
    try shapes.set(ShapeTable(), images: [], program: program, info: info, meter: &meter)
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

  /// The `#define` that compiles each feature into the shaders.
  package static let defines: [(feature: ShaderFeatures, define: String)] = [
    (.circles, "WITH_CIRCLES"), (.glows, "WITH_GLOWS"), (.polygons, "WITH_POLYGONS"),
    (.images, "WITH_IMAGES"), (.streaks, "WITH_STREAKS"), (.paper, "WITH_PAPER"),
    (.landings, "WITH_LANDINGS"), (.twinkles, "WITH_TWINKLES"), (.fadeIns, "WITH_FADE_INS"),
  ]

  /// The text of the vertex shader `vertex` and of particle.frag exactly as a program drawing
  /// `primitive` (points, instanced points or quads), compiled for `features`, on a GL that draws
  /// points as whole-pixel squares or not (``GLInfo/drawsWholePixelPoints``), is linked from:
  /// the shared constants and the features' and primitive's `#define`s after each `#version`,
  /// every `#include` in place. `confetti shaders` prints it.
  package static func sources(
    _ vertex: ShaderSource, features: ShaderFeatures, primitive: SpritePrimitive,
    wholePixelPoints: Bool
  ) -> (vertex: ShaderSource, fragment: ShaderSource) {
    let defines =
      primitive.shaderDefines(wholePixelPoints: wholePixelPoints)
      + Self.defines.filter { features.contains($0.feature) }.map(\.define)
    return (vertex.defining(defines), ShaderSource.embedded("particle.frag").defining(defines))
  }

  private static func build(
    _ sources: (vertex: ShaderSource, fragment: ShaderSource), _ attributes: [RecordAttribute],
    _ feedbackVaryings: [String]
  ) throws -> ShaderProgram {
    try ShaderProgram(
      vertex: sources.vertex, fragment: sources.fragment, attributes: attributes,
      feedbackVaryings: feedbackVaryings)
  }

  /// Whether a piece whose diagonal reaches `diagonal` points fits a point sprite at
  /// `pixelsPerPoint` (a whole-pixel square, ``GLInfo/drawsWholePixelPoints``, reaches up to
  /// ``ShaderConstants/wholePixelMargin`` further).
  private func pointsHold(_ diagonal: Points, pixelsPerPoint: Double) -> Bool {
    let margin = info.drawsWholePixelPoints ? ShaderConstants.wholePixelMargin : 0
    return diagonal * pixelsPerPoint + 2 * ShaderConstants.edgeReach + margin
      <= Double(info.maxPointSize)
  }

  package func setShapeTable(_ table: ShapeTable, images: [RGBAImage], meter: inout UploadMeter)
    throws
  {
    try shapes.set(table, images: images, program: program, info: info, meter: &meter)
  }

  /// The viewport ``target(_:window:clip:meter:)`` sets for `rect`.
  package func viewport(for rect: PixelRect) -> PixelRect { projection.viewport(for: rect) }

  /// Every uniform the program holds now, with those a point sprite's program declares added
  /// where this one does not (a ring with a piece larger than the GL's points is drawn with
  /// quads): what a port drawing point sprites must set to draw the same picture.
  package func uniformsForPoints() -> [UniformValue] {
    let projected =
      projection.lastUniforms + [
        UniformValue(
          name: "u_maxPointSize", type: "float", size: 1, values: [Double(info.maxPointSize)])
      ]
    let names = Set(projected.map(\.name))
    return program.uniformValues().filter { !names.contains($0.name) } + projected
  }

  /// Sets the whole sprite state for drawing a window of `window` points into `rect`, clipped
  /// to `clip` too where given, and binds the atlas. Returns false when there is nothing to
  /// draw into.
  package func target(
    _ rect: PixelRect, window: Size, clip: PixelRect?, meter: inout UploadMeter
  ) -> Bool {
    applySpriteState(for: info)
    shapes.bind()
    return projection.apply(
      rect: rect, window: window, clip: clip, program: program, meter: &meter)
  }

  /// Makes sure the program computes `features`, and draws each piece whole when a window of
  /// `window` points fills `rect` and the largest piece's diagonal (a streak's reach included)
  /// is `largestDiagonal` points (switching to quads for good if one is too big for a point
  /// sprite). Returns true when it built a new program: the caller's own uniforms must then be
  /// set on it again (the projection and shapes already are).
  @discardableResult
  package func prepare(
    for features: ShaderFeatures, largestDiagonal: Points, in rect: PixelRect, window: Size,
    meter: inout UploadMeter
  ) throws -> Bool {
    let tooBig = SpriteProjection.pixelsPerPoint(rect, window: window).map {
      !pointsHold(largestDiagonal, pixelsPerPoint: $0)
    }
    let wantedPrimitive = primitive != .quads && tooBig == true ? SpritePrimitive.quads : primitive
    return try rebuild(features: features, primitive: wantedPrimitive, meter: &meter)
  }

  /// Builds the program again if it lacks any of `features` or draws another primitive than
  /// `wantedPrimitive`. Returns whether it did (see
  /// ``prepare(for:largestDiagonal:in:window:meter:)``).
  package func rebuild(
    features wanted: ShaderFeatures, primitive wantedPrimitive: SpritePrimitive? = nil,
    meter: inout UploadMeter
  ) throws -> Bool {
    let wantedPrimitive = wantedPrimitive ?? primitive
    guard !features.isSuperset(of: wanted) || wantedPrimitive != primitive else { return false }
    let union = features.union(wanted)
    let replaced = program
    let rebuilt = Self.sources(
      vertex, features: union, primitive: wantedPrimitive,
      wholePixelPoints: info.drawsWholePixelPoints)
    program = try Self.build(rebuilt, attributes, feedbackVaryings)
    replaced.release()
    (features, primitive, sources) = (union, wantedPrimitive, rebuilt)
    setLimits()
    projection.reapply(program: program, meter: &meter)
    try shapes.apply(to: program, meter: &meter)
    return true
  }
}
