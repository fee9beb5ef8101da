/// How each particle reaches the rasteriser. All draw the same picture; they differ in cost,
/// and which is cheapest depends on the GL (``resolved(for:)``).
public enum SpritePrimitive: String, CaseIterable, Sendable {
  /// A point sprite per particle, each particle a vertex (its record read per vertex; trail
  /// copies are instances). The sprite is a square around the rotated piece's bounding box (of
  /// whole pixels on a compatibility profile, ``GLInfo/drawsWholePixelPoints``): it shades
  /// pixels the piece does not cover, and the GL caps its size
  /// (``GLInfo/maxPointSize``): a ring holding a piece bigger than that is drawn with quads from
  /// then on.
  case points
  /// The same point sprites, each particle an instance (its record read with divisor 1; trail
  /// copies are vertices within it). GPUs run one-vertex instances at the cost of vertices (an
  /// NVIDIA H100 draws both kinds of point in the same time); Mesa's llvmpipe runs its vertex
  /// pipeline once per instance, which costs it about half as much time again at 100,000
  /// particles (69.8 against 46.1 ms a frame: docs/performance-log.md).
  case instancedPoints = "instanced-points"
  /// Four corners per particle, each particle an instance, fitted to the rotated piece: only its
  /// own pixels (and the half pixel its smoothed edge reaches) are shaded, at any size, for four
  /// vertex shader runs instead of one.
  case quads
  /// The one measured fastest on this GL, or, on a GL not measured, the likeliest.
  case auto

  /// What `auto` picks on GLs whose renderer string names the rasteriser, from `confetti bench
  /// --compare` and `--sweep` runs (docs/performance.md has them): per-vertex points on
  /// llvmpipe (also behind zink, as lavapipe), which runs its vertex pipeline once per
  /// instance; quads on an NVIDIA H100, where the frame is bound by the pixels shaded
  /// (1,000,000 pieces at 1920×1080: 13.9 ms against 22.1 ms for either kind of point).
  static let measuredFastest: [(renderer: String, primitive: SpritePrimitive)] = [
    ("llvmpipe", .points), ("NVIDIA", .quads),
  ]

  /// What `auto` picks on GLs not measured: a guess, ``quads``, as on the one GPU measured,
  /// where a frame was bound by the pixels shaded and quads shade fewer than half of a point
  /// sprite's.
  static let unmeasuredGuess = SpritePrimitive.quads

  /// The concrete primitive: `auto` resolved for the GL `info` describes.
  public func resolved(for info: GLInfo) -> SpritePrimitive {
    self == .auto ? Self.fastest(onRenderer: info.renderer) : self
  }

  /// What `auto` picks on the GL whose GL_RENDERER is `renderer`.
  package static func fastest(onRenderer renderer: String) -> SpritePrimitive {
    measuredFastest.first { renderer.contains($0.renderer) }?.primitive ?? unmeasuredGuess
  }

  /// Vertices a draw runs per particle and copy: a quad's four corners, or one.
  var verticesPerCopy: Int { self == .quads ? 4 : 1 }

  /// What sprite.glsl and particle.frag are compiled with to draw this primitive, on a GL that
  /// draws points as whole-pixel squares (``GLInfo/drawsWholePixelPoints``) or not.
  package func shaderDefines(wholePixelPoints: Bool) -> [String] {
    let sizing = wholePixelPoints ? ["WHOLE_PIXEL_POINTS"] : []
    switch self {
    case .quads: return ["QUADS"]
    case .points: return ["PER_VERTEX"] + sizing
    case .instancedPoints, .auto: return sizing
    }
  }

  /// The three ways of drawing, in the order the bench compares them.
  public static let concrete: [SpritePrimitive] = [.points, .instancedPoints, .quads]
}
