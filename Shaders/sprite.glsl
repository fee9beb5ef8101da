// Where a particle's sprite lands, shared by particle.vert and placed.vert (each includes it).
//
// A particle is a point sprite sized to the rotated piece's bounds, or with QUADS defined, a quad
// of four vertices fitted to the rotated piece (two triangles from a small index buffer). Quads
// have no size limit; point sprites are capped by the GL, so pieces bigger than that are always
// drawn as quads.
//
// Each particle is an instance, its record read with divisor 1, and each trail copy is a vertex
// (or four) within it; or, with PER_VERTEX defined (point sprites only), each particle is a
// vertex and each trail copy an instance (see SpritePrimitive.swift for why both).
//
// With WHOLE_PIXEL_POINTS defined (a compatibility profile, where a draw turns point sprites off),
// a point is the smallest square of whole pixels that holds every pixel the sprite would.

uniform vec4 u_pointsToClip;    // xy: scale, zw: offset, from window points to clip space
uniform vec4 u_pointsToPixels;  // xy: scale, zw: offset, from window points to framebuffer
                                // pixels (gl_FragCoord's frame: from the bottom left)
uniform vec2 u_pixelsToClip;    // scale from framebuffer pixels (y down) to clip space
uniform float u_pixelsPerPoint; // framebuffer pixels per window point (HiDPI)
uniform float u_maxPointSize;   // the GL's largest point sprite, in pixels

// For the fragment shader, packed into as few slots as they fit: on a GL that shades on the
// CPU, each slot costs set-up for every sprite.
flat out vec4 v_color;      // premultiplied by opacity
flat out vec4 v_box;        // xy: half the apparent size plus EDGE_REACH (px); zw: cos, sin of
                            // the clockwise rotation
flat out uint v_shape;
#ifdef QUADS
noperspective out vec2 v_local; // px from the piece's centre, in its own unrotated frame
const int VERTICES_PER_COPY = 4;
#else
flat out vec2 v_origin;     // where gl_FragCoord (0, 0) lies in the piece's own frame (px)
const int VERTICES_PER_COPY = 1;
#endif

#ifdef PER_VERTEX
// The copy a draw's first instance draws: 0, but for a draw given in pieces, a copy at a time
// (InstanceArray.draw, so that a render can stop between them).
uniform int u_firstCopy;
#endif

// Which of the particle's copies this vertex draws, in drawing order from 0.
int spriteCopy() {
#ifdef PER_VERTEX
  return u_firstCopy + gl_InstanceID;
#else
  return gl_VertexID / VERTICES_PER_COPY;
#endif
}

// Rasterises nothing: every vertex outside the clip volume.
void hideSprite() {
  gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
  v_box = vec4(0.0);
#ifdef QUADS
  v_local = vec2(0.0);
#else
  gl_PointSize = 1.0;
  v_origin = vec2(0.0);
#endif
}

#ifdef WHOLE_PIXEL_POINTS
// The side (px) of the smallest whole-pixel square holding every pixel whose centre lies within
// the exact square of side `side` centred at `px` (framebuffer pixels). A compatibility profile
// draws points that are not sprites so: a square of whole pixels around the pixel holding the
// centre for an odd side, or around the pixel corner nearest it for an even one. The GL finds
// that pixel from its own rounding of the centre, so the square is sized for the neighbour too
// where the centre lies within WHOLE_PIXEL_SLACK of a pixel's edge or middle.
float wholePixelSide(vec2 px, float side) {
  vec2 first = ceil(px - 0.5 * side - 0.5);  // the first and last pixels the exact square holds
  vec2 last = floor(px + 0.5 * side - 0.5);
  vec2 odd = 2.0 * max(floor(px + WHOLE_PIXEL_SLACK) - first,
                       last - floor(px - WHOLE_PIXEL_SLACK)) + 1.0;
  vec2 even = 2.0 * max(floor(px + 0.5 + WHOLE_PIXEL_SLACK) - first,
                        last + 1.0 - floor(px + 0.5 - WHOLE_PIXEL_SLACK));
  return max(1.0, min(max(odd.x, odd.y), max(even.x, even.y)));
}
#endif

// Places the sprite of the piece centred at `centre` (pt), half `halfSize` (px) wide and tall
// in its own frame, turned clockwise by the angle whose cosine and sine are `turn`, once v_shape
// is set. The sprite reaches EDGE_REACH pixels beyond the outline, for its smoothed edge, and no
// further: every pixel it covers beyond that would run the fragment shader for nothing.
void placeSprite(vec2 centre, vec2 halfSize, vec2 turn) {
  gl_Position = vec4(centre * u_pointsToClip.xy + u_pointsToClip.zw, 0.0, 1.0);
  v_box = vec4(halfSize + EDGE_REACH, turn);
#ifdef QUADS
  // The corners in strip order: (-,-) (+,-) (-,+) (+,+) in the piece's frame.
  int corner = gl_VertexID % 4;
  vec2 side = vec2((corner & 1) == 0 ? -1.0 : 1.0, (corner & 2) == 0 ? -1.0 : 1.0);
  v_local = side * v_box.xy;
  // Turned clockwise by the rotation (y down): the inverse of particle.frag's turn.
  vec2 offset = vec2(turn.x * v_local.x - turn.y * v_local.y,
                     turn.y * v_local.x + turn.x * v_local.y);
  gl_Position.xy += offset * u_pixelsToClip;
#else
  // The fragment shader finds each pixel's place in the piece from gl_FragCoord, turned about
  // the framebuffer's origin and moved by v_origin: two multiply-adds an axis, where
  // gl_PointCoord would cost an interpolation with a division on llvmpipe.
  vec2 px = centre * u_pointsToPixels.xy + u_pointsToPixels.zw;
  v_origin = vec2(turn.y * px.y - turn.x * px.x, turn.y * px.x + turn.x * px.y);
  // Half the width and height of the rotated piece's bounding box: an ellipse's for circles and
  // glows, a rectangle's for every other shape (polygons and images lie within their rectangle).
  vec2 c = abs(turn.xx) * halfSize;
  vec2 s = abs(turn.yy) * halfSize;
  vec2 extent = vec2(c.x + s.y, s.x + c.y);
#if defined(WITH_CIRCLES) || defined(WITH_GLOWS)
  if (v_shape == CIRCLE || v_shape == GLOW) {
    extent = vec2(length(vec2(c.x, s.y)), length(vec2(s.x, c.y)));
  }
#endif
  // Not rounded up to whole pixels: the exact square holds every pixel whose centre lies
  // within EDGE_REACH of the turned outline's box. (A turned rectangle's smoothed corner reaches
  // up to 0.21 px beyond that, at 45°, over pixels it covers by 2 % at most: the square leaves
  // those out, where a quad keeps them.)
  float side = 2.0 * (max(extent.x, extent.y) + EDGE_REACH);
#ifdef WHOLE_PIXEL_POINTS
  side = wholePixelSide(px, side);
#endif
  gl_PointSize = min(side, u_maxPointSize);
#endif
}
