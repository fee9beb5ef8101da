#version 330 core
// The baselines' vertex shader: no physics. Each sprite's centre, rotation, opacity, size,
// colour and shape arrive ready-made (PlacedSprite, computed by Swift every frame in the bench's
// `cpu` modes, once in its `floor` mode); the sprite is placed by the same sprite.glsl as
// particle.vert's, and particle.frag cuts the same shape, so the modes draw the same picture and
// differ only in where the physics runs.
//
// Attribute locations are bound by name from PlacedSprite.attributes (Sources/ConfettiBench).

#include "sprite.glsl"

in vec4 a_place;  // centre x, y (pt), rotation (deg), opacity
in vec2 a_size;   // apparent width, height (pt)
in vec4 a_rgba;   // straight-alpha colour
in uvec2 a_shape;  // shape, additive (1) or not (0)

void main() {
  float angle = radians(a_place.z);
  v_color = vec4(a_rgba.rgb, a_shape.y != 0u ? 0.0 : 1.0) * (a_rgba.a * a_place.w);
  v_shape = a_shape.x;
  if (a_place.w > 0.0) {
    placeSprite(a_place.xy, 0.5 * a_size * u_pixelsPerPoint, vec2(cos(angle), sin(angle)));
  } else {
    hideSprite();
  }
}
