#version 330 core
// Cuts the particle's shape out of its sprite (a point, or with QUADS defined a quad), with a
// one-pixel smoothed edge: a rectangle, a circle, a soft glow, a streak's capsule, a polygon
// from the table (the triangle and the star are its first two entries, a scene's own polygons
// follow), or an image from the atlas, tinted by the colour.
//
// Each shape but the rectangle is compiled in only under its WITH_ define (SpriteProgram does so
// once something drawn has it, ShaderFeatures): code merely present in a branch not taken still
// costs on GLs that run both sides, llvmpipe among them.

flat in vec4 v_color;     // premultiplied
flat in vec4 v_box;       // xy: half the apparent size plus EDGE_REACH (px); zw: cos, sin of the
                          // clockwise rotation
flat in uint v_shape;
#ifdef QUADS
noperspective in vec2 v_local; // px from the centre, in the piece's own frame
#else
flat in vec2 v_origin;    // gl_FragCoord (0, 0) in the piece's own frame (px)
#endif

// The shape table (ShapeTable): polygon outlines with corners in [-1, 1] on both axes, y down,
// stretched over the piece; and where each image lies in the atlas. The table sizes and the
// shape codes (RECTANGLE, CIRCLE, TRIANGLE, STAR, FIRST_POLYGON, FIRST_IMAGE) are #defined by
// ShaderConstants.swift.
uniform vec2 u_polygonPoints[POLYGON_POINTS];
uniform ivec2 u_polygonRange[POLYGONS];  // first point, point count
uniform vec4 u_imageRect[IMAGES];        // atlas texture coordinates: origin, size
uniform sampler2D u_atlas;               // premultiplied RGBA

out vec4 fragColor;

#ifdef WITH_POLYGONS
// Signed distance from p to the outline of polygon `index` stretched over half-size h, in
// pixels, positive inside (after Inigo Quilez's sdPolygon: nearest edge, sign by crossings).
float insidePolygon(vec2 p, int index, vec2 h) {
  ivec2 range = u_polygonRange[index];
  vec2 first = u_polygonPoints[range.x] * h;
  float nearest = dot(p - first, p - first);
  float side = -1.0;
  for (int i = 0, j = range.y - 1; i < range.y; j = i, i++) {
    vec2 a = u_polygonPoints[range.x + i] * h;
    vec2 b = u_polygonPoints[range.x + j] * h;
    vec2 edge = b - a;
    vec2 w = p - a;
    vec2 off = w - edge * clamp(dot(w, edge) / dot(edge, edge), 0.0, 1.0);
    nearest = min(nearest, dot(off, off));
    bvec3 crossing = bvec3(p.y >= a.y, p.y < b.y, edge.x * w.y > edge.y * w.x);
    if (all(crossing) || all(not(crossing))) side = -side;
  }
  return side * sqrt(nearest);
}
#endif

void main() {
#ifdef QUADS
  vec2 q = v_local;
#else
  // The pixel in the piece's own frame (y down, like window points): gl_FragCoord (y up)
  // turned back by the rotation, from where its origin lies.
  vec2 f = gl_FragCoord.xy;
  vec2 q = vec2(v_box.z * f.x - v_box.w * f.y, -v_box.w * f.x - v_box.z * f.y) + v_origin;
#endif
  vec2 h = max(v_box.xy - EDGE_REACH, vec2(1e-3));

  // How much of the pixel the shape covers, with a smoothed edge EDGE_REACH pixels either side
  // of the outline. For a rectangle, the share of a pixel-wide box across each axis, multiplied:
  // exact along its edges, a box filter's answer at its corners, nothing beyond EDGE_REACH of
  // its edges (a point sprite's square cuts off a turned corner's last 0.21 px, where no pixel
  // is covered by more than 2 %).
  vec2 across = clamp(v_box.xy - abs(q), 0.0, 1.0);
  float coverage = across.x * across.y;
#ifdef WITH_CIRCLES
  if (v_shape == CIRCLE) {
    // The implicit function over its gradient's length: the distance inside, close to the edge
    // where it matters, and never beyond the box around it (a piece tumbled to a sliver must
    // not smooth past its ends).
    float k1 = length(q / h);
    float k2 = length(q / (h * h));
    float inside = k2 > 0.0 ? (1.0 - k1) * k1 / k2 : min(h.x, h.y);
    coverage = min(coverage, clamp(inside + EDGE_REACH, 0.0, 1.0));
  }
#endif
#ifdef WITH_POLYGONS
  int polygon = v_shape == TRIANGLE || v_shape == STAR ? int(v_shape - TRIANGLE)
      : v_shape >= FIRST_POLYGON && v_shape < FIRST_IMAGE ? 2 + int(v_shape - FIRST_POLYGON)
      : -1;
  if (polygon >= 0) coverage = clamp(insidePolygon(q, polygon, h) + EDGE_REACH, 0.0, 1.0);
#endif
#ifdef WITH_IMAGES
  if (v_shape >= FIRST_IMAGE) {
    vec2 local = q / h * 0.5 + 0.5;
    if (any(lessThan(local, vec2(0.0))) || any(greaterThan(local, vec2(1.0)))) discard;
    vec4 rect = u_imageRect[min(int(v_shape - FIRST_IMAGE), IMAGES - 1)];
    // A pixel's step across and down the screen, in the atlas: the piece's turn, scaled from
    // its size to its image's. Exact, where implicit derivatives are undefined (after a discard,
    // in a branch not every pixel takes) and GPUs answer them differently.
    vec2 scale = 0.5 * rect.zw / h;
    vec2 stepX = vec2(v_box.z, -v_box.w) * scale;
    vec2 stepY = vec2(-v_box.w, -v_box.z) * scale;
    vec4 texel = textureGrad(u_atlas, rect.xy + local * rect.zw, stepX, stepY);
    if (texel.a <= 0.0) discard;
    fragColor = texel * v_color;
    return;
  }
#endif
#ifdef WITH_STREAKS
  if (v_shape == STREAK) {
    // A capsule along x from the tail (-) to the head (+), brightening toward the head.
    float halfLength = h.x - h.y;
    vec2 nearest = vec2(clamp(q.x, -halfLength, halfLength), 0.0);
    float along = clamp((q.x + halfLength) / max(2.0 * halfLength, 1e-3), 0.0, 1.0);
    float off = distance(q, nearest);
    coverage = clamp(h.y - off + EDGE_REACH, 0.0, 1.0) * along * along;
    if (v_color.a == 0.0 && coverage > 0.0) {
      // Light (additive, alpha 0) burns white along its axis toward the head: a hot core, its
      // colour at the rim. Whitened to its brightest channel, so it is no brighter in sum.
      float heat = max(1.0 - off / h.y, 0.0);
      heat *= heat * along;
      vec3 c = v_color.rgb;
      fragColor = vec4(mix(c, vec3(max(c.r, max(c.g, c.b))), heat) * coverage, 0.0);
      return;
    }
  }
#endif
#ifdef WITH_GLOWS
  if (v_shape == GLOW) {
    // Light falling smoothly from the centre to nothing at the edge.
    float r2 = dot(q / h, q / h);
    coverage = r2 < 1.0 ? (1.0 - r2) * (1.0 - r2) : 0.0;
  }
#endif
  if (coverage <= 0.0) discard;
  fragColor = v_color * coverage;
}
