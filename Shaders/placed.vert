#version 330 core
// The baselines' vertex shader: no physics. Each particle's centre, rotation, flip width and
// opacity arrive ready-made in a_placement (computed by Swift every frame in the bench's `cpu`
// mode, once in its `floor` mode); the sprite is set up exactly as particle.vert does, and
// particle.frag cuts the same shape, so the modes differ only in where the physics runs.
//
// Attribute locations are bound by name from ParticleRecord.attributes and
// PlacedRenderer.placementAttributes (Sources/ConfettiBench).

in vec4 a_placement;  // centre x, y (pt), rotation (deg), width scale
in float a_opacity;   // 0 hides the particle
in vec4 a_color;      // from the particle record: straight-alpha RGBA
in vec4 a_lifeSize;   // from the particle record: lifetime, fade, width (pt), height (pt)
in uvec4 a_style;     // from the particle record: shape, flags

uniform vec4 u_pointsToClip;
uniform float u_pixelsPerPoint;
uniform float u_maxPointSize;

flat out vec4 v_color;
flat out vec2 v_halfSize;
flat out vec2 v_turn;
flat out uint v_shape;
flat out float v_spriteSize;

void main() {
  float angle = radians(a_placement.z);
  v_turn = vec2(cos(angle), sin(angle));
  v_halfSize = 0.5 * vec2(a_lifeSize.z * a_placement.w, a_lifeSize.w) * u_pixelsPerPoint;
  v_color = vec4(a_color.rgb, 1.0) * (a_color.a * a_opacity);
  v_shape = a_style.x;
  if (a_opacity <= 0.0) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    gl_PointSize = 1.0;
    v_spriteSize = 1.0;
    return;
  }
  gl_Position = vec4(a_placement.xy * u_pointsToClip.xy + u_pointsToClip.zw, 0.0, 1.0);
  v_spriteSize = min(ceil(2.0 * length(v_halfSize)) + 2.0, u_maxPointSize);
  gl_PointSize = v_spriteSize;
}
