#version 330 core
// The baselines' vertex shader: no physics. Each particle's centre, rotation, flip width and
// opacity arrive ready-made in a_placement (computed by Swift every frame in the bench's `cpu`
// mode, once in its `floor` mode); the sprite is placed by the same sprite.glsl as
// particle.vert's, and particle.frag cuts the same shape, so the modes differ only in where the
// physics runs.
//
// Attribute locations are bound by name from ParticleRecord.attributes and
// PlacedRenderer.placementAttributes (Sources/ConfettiBench).

#include "sprite.glsl"

in vec4 a_placement;  // centre x, y (pt), rotation (deg), width scale
in float a_opacity;   // 0 hides the particle
in vec4 a_color;      // from the particle record: straight-alpha RGBA
in vec4 a_lifeSize;   // from the particle record: lifetime, fade, width (pt), height (pt)
in uvec4 a_style;     // from the particle record: shape, flags

void main() {
  float angle = radians(a_placement.z);
  v_turn = vec2(cos(angle), sin(angle));
  v_halfSize = 0.5 * vec2(a_lifeSize.z * a_placement.w, a_lifeSize.w) * u_pixelsPerPoint;
  v_color = vec4(a_color.rgb, 1.0) * (a_color.a * a_opacity);
  v_shape = a_style.x;
  if (a_opacity > 0.0) {
    placeSprite(a_placement.xy);
  } else {
    hideSprite();
  }
}
