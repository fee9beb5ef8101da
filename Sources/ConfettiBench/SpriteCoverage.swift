import ConfettiCore
import ConfettiGL
import Foundation

/// How many pixels the sprites of a frame shade: every pixel a point sprite's square or a quad
/// covers runs the fragment shader, whatever the piece itself covers. The sizes are those
/// `Shaders/sprite.glsl` gives them.
public enum SpriteCoverage {
  /// The pixels the sprite of a piece in `state` covers when drawn as `primitive` at
  /// `pixelsPerPoint`, on a GL whose largest point sprite is `maxPointSize` pixels.
  public static func pixels(
    of state: ParticleState, shape: UInt8, primitive: SpritePrimitive, pixelsPerPoint: Double,
    maxPointSize: Double
  ) -> Double {
    // A streak is drawn as its capsule's box.
    let box = state.drawnBox
    let pixels = Size(
      width: box.size.width * pixelsPerPoint, height: box.size.height * pixelsPerPoint)
    let reach = 2 * ShaderConstants.edgeReach
    if primitive == .quads { return (pixels.width + reach) * (pixels.height + reach) }
    let half = pixels.turnedHalfExtent(
      degrees: box.rotation,
      elliptical: state.streak == nil && ParticleShape(rawValue: shape).isElliptical)
    let extent = max(half.x, half.y)
    let side = min(2 * extent + reach, maxPointSize)
    return side * side
  }

  /// The pixels shaded per particle of `ring` at `now`, trail copies included, divided by the
  /// particles drawn.
  public static func pixelsPerParticle(
    _ ring: ParticleRing, table: CellTable, at now: Tick, primitive: SpritePrimitive,
    pixelsPerPoint: Double, maxPointSize: Double
  ) -> Double {
    var (pixels, particles) = (0.0, 0)
    for range in ring.drawnSlotRanges {
      for slot in range {
        let record = ring.records[slot]
        particles += 1
        for copy in 0...Int(record.trail) {
          guard
            let state = ConfettiPhysics.state(of: record, at: now, table: table, trailCopy: copy)
          else { continue }
          pixels += Self.pixels(
            of: state, shape: record.shape, primitive: primitive,
            pixelsPerPoint: pixelsPerPoint, maxPointSize: maxPointSize)
        }
      }
    }
    return particles > 0 ? pixels / Double(particles) : 0
  }
}
