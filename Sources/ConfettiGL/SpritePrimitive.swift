/// How each particle reaches the rasteriser. Both draw the same picture; they differ in cost.
public enum SpritePrimitive: String, CaseIterable, Sendable {
  /// One point sprite per particle, a square around the rotated piece's bounding box. One
  /// vertex per particle, but the square shades pixels the piece does not cover, and the GL
  /// caps its size (``GLInfo/maxPointSize``): a ring holding a piece bigger than that is drawn
  /// with quads from then on.
  case points
  /// Four corners per particle, fitted to the rotated piece: only its own pixels (and a
  /// one-pixel edge) are shaded, at any size, for four vertex shader runs instead of one.
  case quads
  /// The one measured faster on this GL (``resolved(for:)``).
  case auto

  /// What `auto` picks on GLs whose renderer string starts with the prefix, from
  /// `confetti bench --compare-primitives` runs (the README's performance section has them).
  /// Every other GL gets ``points``.
  static let measuredFaster: [(rendererPrefix: String, primitive: SpritePrimitive)] = [
    ("llvmpipe", .points)
  ]

  /// ``points`` or ``quads``: `auto` resolved for the GL `info` describes.
  public func resolved(for info: GLInfo) -> SpritePrimitive {
    guard self == .auto else { return self }
    return Self.measuredFaster.first { info.renderer.hasPrefix($0.rendererPrefix) }?.primitive
      ?? .points
  }
}
