/// What the shaders must compute to draw a set of particles, beyond the plainest piece: a
/// rectangle that neither lands, streaks, twinkles, fades in nor shades as paper.
///
/// Each feature is compiled into the shaders only once something drawn needs it. A GL that runs
/// both sides of a branch pays for code merely present, even where every particle takes the
/// same side; llvmpipe does (measured there: 100k rectangles at 1080p took 3.4× as long with
/// the polygon loop merely present, and the classic cannon's frames about 1.2× as long with every
/// feature present as with none).
///
/// The core only says what is drawn; the GL layer (SpriteProgram) turns it into `#define`s.
package struct ShaderFeatures: OptionSet, Hashable, Sendable {
  package var rawValue: UInt32
  package init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Circles: an ellipse's outline and bounds.
  package static let circles = ShaderFeatures(rawValue: 1 << 0)
  /// Glows: an ellipse's bounds and light falling off from the centre.
  package static let glows = ShaderFeatures(rawValue: 1 << 1)
  /// Triangles, stars and a scene's own polygons: the outline's distance, edge by edge.
  package static let polygons = ShaderFeatures(rawValue: 1 << 2)
  /// Images: a texture lookup in the atlas.
  package static let images = ShaderFeatures(rawValue: 1 << 3)
  /// Streaks (``CellStyle/stretch``): the closed form once more for the tail, and a capsule.
  package static let streaks = ShaderFeatures(rawValue: 1 << 4)
  /// Paper shading of tumbling pieces (``ConfettiParticle/darkensBack``).
  package static let paper = ShaderFeatures(rawValue: 1 << 5)
  /// Landing on a floor (``ConfettiParticle/landing``): motion stopped from then on, paper
  /// settling flat.
  package static let landings = ShaderFeatures(rawValue: 1 << 6)
  /// Twinkling (``CellStyle/twinkle``).
  package static let twinkles = ShaderFeatures(rawValue: 1 << 7)
  /// Fading in (``CellStyle/fadeIn``).
  package static let fadeIns = ShaderFeatures(rawValue: 1 << 8)

  /// Every feature: what a shader compiled for anything at all computes.
  package static let all: ShaderFeatures = [
    .circles, .glows, .polygons, .images, .streaks, .paper, .landings, .twinkles, .fadeIns,
  ]

  /// What drawing `particle` itself takes: its shape, its paper shading, its landing. What its
  /// emitter's style adds is ``CellTable/features``.
  package init(drawing particle: ConfettiParticle) {
    self = particle.shape.features
    if particle.flips && particle.darkensBack { insert(.paper) }
    if particle.landing.isFinite { insert(.landings) }
  }
}

extension CellTable {
  /// What drawing any particle of any of these emitters may take: streaks, twinkles, fade-ins.
  package var features: ShaderFeatures {
    styles.reduce(into: []) { features, style in
      if style.stretch > 0 { features.insert(.streaks) }
      if style.twinkle > 0 { features.insert(.twinkles) }
      if style.fadeIn > 0 { features.insert(.fadeIns) }
    }
  }
}

extension EffectScene {
  /// What the shaders may need to draw this effect: every cell's shapes and paper shading,
  /// landings where an emitter has a floor, and what its cell table needs. A renderer
  /// compiled for these up front never builds its program again mid-effect (a hitch on a GPU
  /// driver, the first time a feature appears); more than is drawn only costs speed.
  package var expectedFeatures: ShaderFeatures {
    let cells = config.emitters.flatMap(\.cells) + config.subCells
    var features = table.features
    for cell in cells {
      for shape in cell.shapes {
        switch shape {
        case .builtIn(let builtIn): features.formUnion(builtIn.features)
        case .polygon: features.insert(.polygons)
        case .image, .text: features.insert(.images)
        }
      }
      if cell.flips && cell.darkensBack { features.insert(.paper) }
    }
    if config.emitters.contains(where: { $0.floor != nil }) { features.insert(.landings) }
    return features
  }
}
