#version 330 core
// The seed's closed-form confetti, evaluated per particle from its birth record and one time
// uniform. Each particle is one point sprite; the fragment shader cuts its shape out of it.
// ConfettiPhysics.state(of:age:) in Sources/ConfettiCore is the CPU reference for every line.
//
// Attribute locations are bound by name from ParticleRecord.attributes before linking.

in vec2 a_origin;    // x0, y0 (pt)
in vec2 a_velocity;  // vx, vy (pt/s), up is negative
in uint a_birth;     // birth (ticks of 2^-20 s, wrapping)
in vec2 a_forces;    // gravity g (pt/s^2), drag k (1/s)
in vec4 a_color;     // straight-alpha RGBA
in vec4 a_lifeSize;  // lifetime (s), fade (s), width (pt), height (pt)
in vec4 a_spin;      // rotation r0 (deg), spin (deg/s), spread S (pt/s^2), flutter amplitude A (pt)
in vec4 a_waves;     // flutter rate w (rad/s), phase phi, flip rate wf (rad/s), phase phif
in uvec4 a_style;    // shape, flags (bit 0: flips), reserved, reserved

uniform uint u_now;             // the clock (ticks), the only value that changes per frame
uniform vec4 u_pointsToClip;    // xy: scale, zw: offset, from window points to clip space
uniform float u_pixelsPerPoint; // framebuffer pixels per window point (HiDPI)
uniform float u_maxPointSize;   // the GL's largest point sprite, in pixels

const float SECONDS_PER_TICK = 1.0 / 1048576.0;
const float FLIP_FLOOR = 0.15;
const uint FLIPS = 1u;

// Captured by transform feedback in the tests and compared with the CPU reference.
out vec2 v_position;    // centre (pt)
out float v_rotation;   // clockwise (deg)
out float v_widthScale; // apparent width / width
out float v_opacity;    // 0 when unborn or dead

// For the fragment shader.
flat out vec4 v_color;      // premultiplied by opacity
flat out vec2 v_halfSize;   // half the apparent size (px)
flat out vec2 v_turn;       // cos, sin of the rotation
flat out uint v_shape;
flat out float v_spriteSize; // gl_PointSize (px)

void main() {
  // Unsigned subtraction is exact across the clock's wrap.
  float t = float(u_now - a_birth) * SECONDS_PER_TICK;
  float lifetime = a_lifeSize.x;
  float fade = a_lifeSize.y;
  float g = a_forces.x;
  float k = a_forces.y;

  float D = 1.0 - exp(-k * t);
  float terminal = g / k;
  float side = a_velocity.x >= 0.0 ? 1.0 : -1.0;
  float x = a_origin.x + (a_velocity.x / k) * D
          + a_spin.w * sin(a_waves.x * t + a_waves.y)
          + side * a_spin.z * t * t;
  float y = a_origin.y + (a_velocity.y / k) * D + terminal * (t - D / k);

  float remaining = lifetime - t;
  bool alive = t < lifetime;  // t >= 0 always: an unborn birth wraps to a huge age
  v_position = vec2(x, y);
  v_rotation = a_spin.x + a_spin.y * t;
  v_widthScale = (a_style.y & FLIPS) != 0u ? max(FLIP_FLOOR, abs(cos(a_waves.z * t + a_waves.w))) : 1.0;
  v_opacity = alive ? (remaining < fade ? remaining / fade : 1.0) : 0.0;

  float angle = radians(v_rotation);
  v_turn = vec2(cos(angle), sin(angle));
  v_halfSize = 0.5 * vec2(a_lifeSize.z * v_widthScale, a_lifeSize.w) * u_pixelsPerPoint;
  v_color = vec4(a_color.rgb, 1.0) * (a_color.a * v_opacity);
  v_shape = a_style.x;

  if (!alive) {
    // Dead or unborn: a zero-size point outside the clip volume, which rasterises nothing.
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    gl_PointSize = 1.0;
    v_spriteSize = 1.0;
    return;
  }
  gl_Position = vec4(v_position * u_pointsToClip.xy + u_pointsToClip.zw, 0.0, 1.0);
  // The sprite must hold the rotated piece: its diagonal, plus a pixel each side for smoothing.
  v_spriteSize = min(ceil(2.0 * length(v_halfSize)) + 2.0, u_maxPointSize);
  gl_PointSize = v_spriteSize;
}
