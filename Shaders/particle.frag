#version 330 core
// Cuts the particle's shape out of its point sprite, with a one-pixel smoothed edge.

flat in vec4 v_color;     // premultiplied
flat in vec2 v_halfSize;  // px
flat in vec2 v_turn;      // cos, sin of the clockwise rotation
flat in uint v_shape;
flat in float v_spriteSize; // px

out vec4 fragColor;

const uint RECTANGLE = 0u;
const uint CIRCLE = 1u;

void main() {
  // Pixel offset from the sprite's centre, y down like window points (the sprite origin is
  // GL_UPPER_LEFT), turned back into the piece's own frame.
  vec2 p = (gl_PointCoord - 0.5) * v_spriteSize;
  vec2 q = vec2(v_turn.x * p.x + v_turn.y * p.y, -v_turn.y * p.x + v_turn.x * p.y);

  // Signed distance inside the outline, in pixels.
  float inside;
  if (v_shape == CIRCLE) {
    vec2 r = max(v_halfSize, vec2(1e-3));
    inside = (1.0 - length(q / r)) * min(r.x, r.y);
  } else {
    inside = min(v_halfSize.x - abs(q.x), v_halfSize.y - abs(q.y));
  }
  float coverage = clamp(inside + 0.5, 0.0, 1.0);
  if (coverage <= 0.0) discard;
  fragColor = v_color * coverage;
}
