import ConfettiCore
import ConfettiGL
import FoundationEssentials
import Glibc

/// How many pixels the sprites of a frame shade: every pixel a point sprite's square or a quad
/// covers runs the fragment shader, whatever the piece itself covers. The sizes are those
/// `Shaders/sprite.glsl` gives them.
package enum SpriteCoverage {
  /// The pixels the sprite of a piece in `state` covers when drawn as `primitive` at
  /// `pixelsPerPoint`, on the GL `info` describes (its largest point, and whether its points
  /// are whole-pixel squares).
  package static func pixels(
    of state: ParticleState, shape: UInt8, primitive: SpritePrimitive, pixelsPerPoint: Double,
    info: GLInfo
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
    var side = 2 * extent + reach
    if info.drawsWholePixelPoints {
      // The framebuffer's pixels counted from the top: the same squares, mirrored.
      side = wholePixelSide(
        centre: (box.centre.x * pixelsPerPoint, box.centre.y * pixelsPerPoint), side: side)
    }
    side = min(side, Double(info.maxPointSize))
    return side * side
  }

  /// The side (pixels) of the smallest whole-pixel square holding every pixel whose centre lies
  /// within the exact square of `side` centred at `centre` (framebuffer pixels), whichever
  /// neighbouring pixel (or pixel corner) within ``ShaderConstants/wholePixelSlack`` the GL
  /// places it by: sprite.glsl's `wholePixelSide`, for ``GLInfo/drawsWholePixelPoints``.
  package static func wholePixelSide(centre: (x: Double, y: Double), side: Double) -> Double {
    let slack = ShaderConstants.wholePixelSlack
    var odd = 0.0
    var even = 0.0
    for c in [centre.x, centre.y] {
      let first = (c - side / 2 - 0.5).rounded(.up)
      let last = (c + side / 2 - 0.5).rounded(.down)
      // The pixel holding the centre, and the pixel corner nearest it: either neighbour.
      let pixel = ((c - slack).rounded(.down), (c + slack).rounded(.down))
      let corner = ((c + 0.5 - slack).rounded(.down), (c + 0.5 + slack).rounded(.down))
      odd = max(odd, 2 * max(pixel.1 - first, last - pixel.0) + 1)
      even = max(even, 2 * max(corner.1 - first, last + 1 - corner.0))
    }
    return max(1, min(odd, even))
  }

  /// The pixels shaded per particle of `ring` at `now`, trail copies included, divided by the
  /// particles drawn.
  package static func pixelsPerParticle(
    _ ring: ParticleRing, table: CellTable, at now: Tick, primitive: SpritePrimitive,
    pixelsPerPoint: Double, info: GLInfo
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
            pixelsPerPoint: pixelsPerPoint, info: info)
        }
      }
    }
    return particles > 0 ? pixels / Double(particles) : 0
  }
}
