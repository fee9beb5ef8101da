// The smallest whole confetti vertex shader: each piece's motion in closed form, from the record
// written once at its birth and the one value that changes each frame, u_time. confetti.c and
// index.html both compile this file, after their own #version line (GLSL 3.30 or GLSL ES 3.00).
// docs/learn/README.md derives every line; Shaders/particle.vert is the program's own, which
// adds what a product needs (the tutorial's step 9).

in vec2 a_origin;    // where it was born (pt; y points down, as on a screen)
in vec2 a_velocity;  // its velocity at birth (pt/s; negative y is up)
in float a_birth;    // when it was born (s)
in vec2 a_fall;      // gravity g (pt/s^2), drag k (1/s)
in vec4 a_color;     // red, green, blue, alpha
in vec4 a_life;      // lifetime (s), fade (s), width (pt), height (pt)
in vec4 a_spin;      // rotation (deg), spin (deg/s), spread (pt/s^2), flutter amplitude (pt)
in vec4 a_waves;     // flutter rate (rad/s), flutter phase, tumble rate (rad/s), tumble phase

uniform float u_time;     // now (s): the only value the CPU sets each frame
uniform vec2 u_viewSize;  // the window (pt)

flat out vec4 v_color;    // premultiplied by its opacity
flat out vec2 v_reach;    // half its apparent size, plus the half point its smoothed edge takes
out vec2 v_local;         // where this corner is in the piece's own frame (pt)

// E(k, t) = (1 - e^(-kt)) / k: how far a unit initial velocity carries against drag k.
float carried(float k, float t) {
  return k > 0.0 ? (1.0 - exp(-k * t)) / k : t;
}

// F(k, t) = (t - E(k, t)) / k: how far a unit constant acceleration carries against drag k.
float pulled(float k, float t) {
  return k > 0.0 ? (t - carried(k, t)) / k : 0.5 * t * t;
}

void main() {
  float t = u_time - a_birth;             // the piece's age: a pure function of the time
  float lifetime = a_life.x;
  if (t < 0.0 || t >= lifetime) {         // unborn or gone: a corner no one sees
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    return;
  }
  float g = a_fall.x;
  float k = a_fall.y;
  float side = a_velocity.x >= 0.0 ? 1.0 : -1.0;
  vec2 centre = a_origin + a_velocity * carried(k, t) + vec2(0.0, g * pulled(k, t));
  centre.x += a_spin.w * sin(a_waves.x * t + a_waves.y)   // flutter: a sway from side to side
            + side * a_spin.z * t * t;                     // spread: drifting outwards

  float angle = radians(a_spin.x + a_spin.y * t);          // spin
  float tumble = max(0.15, abs(cos(a_waves.z * t + a_waves.w)));  // its face turning away
  vec2 size = vec2(a_life.z * tumble, a_life.w);
  float remaining = lifetime - t;
  float opacity = remaining < a_life.y ? remaining / a_life.y : 1.0;  // the fade at its end
  v_color = vec4(a_color.rgb, 1.0) * a_color.a * opacity;

  // The corners in strip order, (-,-) (+,-) (-,+) (+,+), turned clockwise (y down) about the
  // centre; the piece's edge is smoothed over a point, so its quad reaches half a point beyond.
  v_reach = 0.5 * size + 0.5;
  vec2 corner = vec2(gl_VertexID % 2 == 0 ? -1.0 : 1.0, gl_VertexID < 2 ? -1.0 : 1.0);
  v_local = corner * v_reach;
  vec2 turned = vec2(cos(angle) * v_local.x - sin(angle) * v_local.y,
                     sin(angle) * v_local.x + cos(angle) * v_local.y);
  vec2 place = (centre + turned) / u_viewSize;             // 0 to 1 across the window
  gl_Position = vec4(place.x * 2.0 - 1.0, 1.0 - place.y * 2.0, 0.0, 1.0);
}
