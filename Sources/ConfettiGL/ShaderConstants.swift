import ConfettiCore

/// The numbers the shaders share with Swift, written once in Swift and defined in every
/// embedded shader as `#define NAME VALUE` lines after its `#version` line (in the manner of
/// sokol-shdc's generated headers). The shader files define none of them themselves, so the two
/// cannot disagree; a test checks both that and the array sizes the GL reports.
public enum ShaderConstants {
  /// Name and GLSL value of each constant.
  public static let values: [(name: String, value: String)] = [
    // Table sizes.
    ("EMITTERS", int(EmitterTable.capacity)),
    ("POLYGON_POINTS", int(ShapeTable.pointCapacity)),
    ("POLYGONS", int(ShapeTable.polygonCapacity)),
    ("IMAGES", int(ParticleShape.imageCapacity)),
    // Shape codes (ParticleShape).
    ("RECTANGLE", uint(ParticleShape.rectangle.rawValue)),
    ("CIRCLE", uint(ParticleShape.circle.rawValue)),
    ("TRIANGLE", uint(ParticleShape.triangle.rawValue)),
    ("STAR", uint(ParticleShape.star.rawValue)),
    ("GLOW", uint(ParticleShape.glow.rawValue)),
    ("STREAK", uint(ParticleShape.streak.rawValue)),
    ("FIRST_POLYGON", uint(ParticleShape.firstPolygon)),
    ("FIRST_IMAGE", uint(ParticleShape.firstImage)),
    // Flag bits of the record's style byte.
    ("FLIPS", uint(ParticleRecord.flipsFlag)),
    ("SHRINKS", uint(ParticleRecord.shrinksFlag)),
    ("DARKER_BACK", uint(ParticleRecord.darkensBackFlag)),
    // The clock and the closed form's constants.
    ("SECONDS_PER_TICK", float(1 / Tick.perSecond)),
    ("TICKS_PER_SECOND", float(Tick.perSecond)),
    ("FLIP_FLOOR", float(ConfettiPhysics.flipFloor)),
    ("TWINKLE_PULSE", float(ConfettiPhysics.twinklePulse)),
    ("SERIES_LIMIT", float(ConfettiPhysics.seriesLimit)),
    ("BACK_LIGHT", float(ConfettiPhysics.backLight)),
    ("GLINT", float(ConfettiPhysics.glint)),
    ("SHORTEST_STREAK", float(ParticleState.shortestStreak)),
    // Sprites.
    ("EDGE_REACH", float(edgeReach)),
  ]

  /// How far beyond a piece's outline its smoothed edge reaches, in pixels: a pixel whose
  /// centre lies within it is partly covered (inside distance + this, clamped to 0…1), so a
  /// sprite reaches that far beyond the outline and no further.
  public static let edgeReach = 0.5

  /// The `#define` lines' text, without `#define`.
  public static var definitions: [String] { values.map { "\($0.name) \($0.value)" } }

  private static func int(_ value: Int) -> String { "\(value)" }
  private static func uint<T: BinaryInteger>(_ value: T) -> String { "\(value)u" }
  /// A float literal GLSL reads exactly as the Double it came from rounds to a Float.
  private static func float(_ value: Double) -> String {
    let text = "\(Float(value))"
    return text.contains(".") || text.contains("e") ? text : text + ".0"
  }
}
