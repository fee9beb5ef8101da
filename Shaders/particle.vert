#version 330 core
// The closed-form motion of every particle, evaluated from its birth record, the clock and its
// cell's entry in a small uniform table. Each particle is one instance, its record read as
// instance attributes; sprite.glsl places its sprite (a point or a quad) and the fragment shader
// cuts its shape out of it. ConfettiPhysics.state(of:age:style:now:) in Sources/ConfettiCore is
// the CPU reference for every line.
//
// Attribute locations are bound by name from ParticleRecord.attributes before linking. What only
// some scenes use (landings, streaks, paper, twinkles, fade-ins) is compiled in only under its
// WITH_ define (ShaderFeatures, SpriteProgram.swift), so that the others do not pay for it.

#include "sprite.glsl"
#include "cells.glsl"

in vec2 a_origin;    // x0, y0 (pt)
in vec2 a_velocity;  // vx, vy (pt/s), up is negative
in uint a_birth;     // birth (ticks of 2^-20 s, wrapping)
in vec2 a_accel;     // ax, g (pt/s^2)
in vec2 a_drag;      // kx, ky (1/s), 0 is ballistic
in vec4 a_color;     // straight-alpha RGBA at birth
in vec4 a_lifeSize;  // lifetime (s), fade (s), width (pt), height (pt)
in vec4 a_spin;      // rotation r0 (deg), spin (deg/s), spread S (pt/s^2), flutter amplitude A (pt)
in vec4 a_waves;     // flutter rate w (rad/s), phase phi, flip rate wf (rad/s), phase phif
in uvec4 a_style;    // shape, flags (bit 0 flips, 1 shrinks with life, 2 darker back), cell, trail
in vec2 a_growth;    // scale speed (1/s), emitter fade-out start (s after birth; inf: never)
in float a_landing;  // when it lands and stops (s after birth; inf: never)

uniform uint u_now;             // the clock (ticks), the only value that changes per frame

// The cell table (cells.glsl: cellWind(cell), …, generated from CellTable.uniforms), the flag
// bits (FLIPS, SHRINKS, DARKER_BACK) and the physics constants come from ShaderConstants.swift.

// E(k, t) = (1 - e^(-kt)) / k: how far a unit initial velocity carries against drag k.
float velocityResponse(float k, float t) {
  float x = k * t;
  if (x < SERIES_LIMIT) {
    return t * (1.0 - x / 2.0 * (1.0 - x / 3.0 * (1.0 - x / 4.0 * (1.0 - x / 5.0
        * (1.0 - x / 6.0 * (1.0 - x / 7.0 * (1.0 - x / 8.0 * (1.0 - x / 9.0))))))));
  }
  return (1.0 - exp(-x)) / k;
}

// F(k, t) = (t - E(k, t)) / k: how far a unit constant acceleration carries against drag k.
float accelerationResponse(float k, float t) {
  float x = k * t;
  if (x < SERIES_LIMIT) {
    return t * t * (0.5 - x / 6.0 * (1.0 - x / 4.0 * (1.0 - x / 5.0 * (1.0 - x / 6.0
        * (1.0 - x / 7.0 * (1.0 - x / 8.0 * (1.0 - x / 9.0 * (1.0 - x / 10.0))))))));
  }
  return (t - (1.0 - exp(-x)) / k) / k;
}

// The clock reading `seconds` before `clock`, in whole ticks, across the wrap (Tick.earlier(by:)).
uint earlier(uint clock, float seconds) {
  return clock - uint(seconds * TICKS_PER_SECOND);
}

// Where the closed form puts the particle at motion age m, the gust at clock reading `clock`
// (ConfettiPhysics.position(of:age:style:gustClock:)).
vec2 positionAt(float m, uint clock) {
  uint cell = a_style.z;
  float kx = a_drag.x;
  float ky = a_drag.y;
  float ex = velocityResponse(kx, m);
  float ey = velocityResponse(ky, m);
  float fx = accelerationResponse(kx, m);
  float fy = accelerationResponse(ky, m);
  float side = a_velocity.x >= 0.0 ? 1.0 : -1.0;
  // The gust's angle from the clock in exact integer arithmetic: turns = cycles * ticks / 2^32.
  float gust = float(cellGustCycles(cell) * clock) * RADIANS_PER_TURN_FRACTION + cellGustPhase(cell);
  float x = a_origin.x + a_velocity.x * ex + (a_accel.x + kx * cellWind(cell)) * fx
          + a_spin.w * sin(a_waves.x * m + a_waves.y)
          + side * a_spin.z * m * m
          + cellGustAmplitude(cell) * kx * ex * sin(gust);
  float y = a_origin.y + a_velocity.y * ey + a_accel.y * fy;
  return vec2(x, y);
}

#ifdef WITH_LANDINGS
// The turn (deg, -90 to 90) to a piece's nearest resting angle: its width upright, so that its
// tumble foreshortens it across the floor (ConfettiPhysics.restingTurn).
float restingTurn(float rotation) {
  float upright = 90.0 - rotation;
  return upright - 180.0 * floor(upright / 180.0 + 0.5);
}

// Half the height (pt) of a piece of `size` at tumble cosine `wave`, turned `degrees` clockwise:
// of its ellipse when `elliptical`, else of its rectangle (Size.turnedHalfExtent).
float turnedHalfHeight(vec2 size, float wave, float degrees, bool elliptical) {
  vec2 half_ = 0.5 * size * vec2(max(FLIP_FLOOR, abs(wave)), 1.0);
  float angle = radians(degrees);
  vec2 across = abs(vec2(sin(angle) * half_.x, cos(angle) * half_.y));
  return elliptical ? length(across) : across.x + across.y;
}
#endif

// Captured by transform feedback in the tests and compared with the CPU reference.
out vec2 v_position;    // centre (pt)
out float v_rotation;   // clockwise (deg)
out float v_widthScale; // flip: apparent width / width
out float v_opacity;    // 0 when unborn or dead
out vec2 v_size;        // apparent size (pt): flip, growth and shrinking applied
out vec4 v_rgba;        // colour after the cell's ramp, before opacity
out float v_copy;       // which trail copy (0: the particle itself); negative: none, not drawn
out vec2 v_tail;        // a streak's tail (pt): where it was `stretch` seconds ago; else its centre

void main() {
  // Copy k > 0 is the k-th trail copy: the particle as it was k spacings ago. The oldest is
  // drawn first and the particle itself last, on top; a draw makes as many copies as the
  // longest trail needs, and those before this particle's own oldest are not drawn.
  uint trail = a_style.w;
  int copy = int(trail) - spriteCopy();
  v_copy = float(copy);
  bool drawn = copy >= 0;
  copy = max(copy, 0);
  uint cell = a_style.z;
  uint now = u_now - uint(copy) * cellTrailTicks(cell);
  // Unsigned subtraction is exact across the clock's wrap.
  float t = float(now - a_birth) * SECONDS_PER_TICK;
  float lifetime = a_lifeSize.x;
  float fade = a_lifeSize.y;

  // Motion stops where the piece lands (m: the age its motion has reached); the gust's clock
  // stands still there too.
  float m = t;
  uint gustClock = now;
#ifdef WITH_LANDINGS
  if (t >= a_landing && t < a_lifeSize.x) {  // (an unborn piece's t wraps huge)
    m = a_landing;
    gustClock = earlier(now, t - a_landing);
  }
#endif
  vec2 head = positionAt(m, gustClock);
  v_tail = head;
#ifdef WITH_STREAKS
  // A streak reaches back `stretch` seconds of its motion (no further than its birth).
  if (cellStretch(cell) > 0.0) {
    float back = min(max(t - cellStretch(cell), 0.0), m);
    v_tail = positionAt(back, earlier(gustClock, m - back));
  }
#endif

  float remaining = lifetime - t;
  // The emitter's fade-out: (1 - f)^2 as f runs 0 -> 1 over its duration, from a_growth.y on.
  float emitterFade = 1.0;
  if (t >= a_growth.y) {
    float f = cellFadeOut(cell) > 0.0 ? (t - a_growth.y) / cellFadeOut(cell) : 1.0;
    emitterFade = f >= 1.0 ? 0.0 : (1.0 - f) * (1.0 - f);
  }
  // t >= 0 always: an unborn birth wraps to a huge age.
  bool alive = t < lifetime && emitterFade > 0.0 && drawn;
  float trailFactor = 1.0 - float(copy) / float(trail + 1u);
  bool flips = (a_style.y & FLIPS) != 0u;
  // A landed piece keeps the size it landed with.
  float growth = max(0.0, 1.0 + a_growth.x * m) * ((a_style.y & SHRINKS) != 0u ? (lifetime - m) / lifetime : 1.0);
#ifdef WITH_TWINKLES
  // A twinkling piece flares larger at its brightest and shrinks at its dimmest.
  if (cellTwinkle(cell) > 0.0 && !flips) growth *= 1.0 + TWINKLE_PULSE * cellTwinkle(cell) * cos(a_waves.z * m + a_waves.w);
#endif
  // The tumble, or for a piece that does not tumble, its twinkle.
  float wave = cos(a_waves.z * (flips ? m : t) + a_waves.w);
  v_position = head;
  v_rotation = a_spin.x + a_spin.y * m;
#ifdef WITH_LANDINGS
  if (flips && t >= a_landing && t < lifetime) {
    // Paper settles: it turns down to lie flat, face up or face down as it was nearer, its
    // lowest point kept on the floor (ConfettiPhysics.settle).
    float e = smoothstep(0.0, SETTLE_TIME, t - a_landing);
    float turned = v_rotation + restingTurn(v_rotation) * e;
    float settled = wave + ((wave < 0.0 ? -RESTING_TUMBLE : RESTING_TUMBLE) - wave) * e;
    bool elliptical = a_style.x == CIRCLE || a_style.x == GLOW;
    vec2 size = a_lifeSize.zw * growth;
    v_position.y += turnedHalfHeight(size, wave, v_rotation, elliptical)
                  - turnedHalfHeight(size, settled, turned, elliptical);
    v_rotation = turned;
    wave = settled;
  }
#endif
  v_widthScale = flips ? max(FLIP_FLOOR, abs(wave)) : 1.0;
  v_size = vec2(a_lifeSize.z * v_widthScale, a_lifeSize.w) * growth * trailFactor;
  v_rgba = clamp(a_color + cellColorSpeed(cell) * t, 0.0, 1.0);
#ifdef WITH_PAPER
  if (flips && (a_style.y & DARKER_BACK) != 0u) {
    // Paper: lit by the tilt, deepening in shade without losing its hue, glinting face on.
    float light = (1.0 + BACK_LIGHT) / 2.0 + (1.0 - BACK_LIGHT) / 2.0 * wave;
    vec3 shaded = pow(v_rgba.rgb, vec3(1.0 / light)) * ((1.0 + light) / 2.0);
    float sheen = GLINT * pow(max(wave, 0.0), 8.0);
    v_rgba.rgb = shaded + (1.0 - shaded) * sheen;
  }
#endif
  float shown = (remaining < fade ? remaining / fade : 1.0) * emitterFade;
#ifdef WITH_FADE_INS
  if (cellFadeIn(cell) > 0.0) shown *= min(1.0, t / cellFadeIn(cell));
#endif
#ifdef WITH_TWINKLES
  if (cellTwinkle(cell) > 0.0 && !flips) shown *= 1.0 - cellTwinkle(cell) * (1.0 - wave) / 2.0;
#endif
  v_opacity = alive ? shown * trailFactor : 0.0;

  float angle = radians(v_rotation);
  vec2 turn = vec2(cos(angle), sin(angle));
  vec2 halfSize = 0.5 * v_size * u_pixelsPerPoint;
  vec2 centre = v_position;
  v_shape = a_style.x;
#ifdef WITH_STREAKS
  vec2 path = v_position - v_tail;
  float length_ = length(path);
  if (cellStretch(cell) > 0.0 && length_ > SHORTEST_STREAK) {
    // A capsule from the tail to the head, as thick as the piece is tall.
    centre = 0.5 * (v_position + v_tail);
    turn = path / length_;
    halfSize = 0.5 * vec2(length_ + v_size.y, v_size.y) * u_pixelsPerPoint;
    v_shape = STREAK;
  }
#endif
  // Premultiplied. Paper covers what is behind it; additive light keeps zero alpha, so it adds
  // to it. Over a light backdrop light is made vivid (its white taken out, its brightest channel
  // kept), so that a pale glow shows over white; and where nothing lays it over the backdrop by
  // its brightness (a render's records' one draw), it covers a share of it, that much deeper.
  bool light = cellAdditive(cell) > 0.0;
  vec4 lit = cellLight(cell);  // how vivid, how much it covers
  vec3 rgb = v_rgba.rgb;
  float vivid = light ? lit.x : 0.0;
  if (vivid > 0.0) {
    float top = max(rgb.r, max(rgb.g, rgb.b));
    float low = min(rgb.r, min(rgb.g, rgb.b));
    vec3 pure = top > low ? (rgb - low) / (top - low) * top : rgb;
    rgb = mix(rgb, pure, vivid) * (1.0 - LIGHT_DEEPENING * lit.y);
  }
  v_color = vec4(rgb, light ? lit.y : 1.0) * (v_rgba.a * v_opacity);

  if (alive) {
    placeSprite(centre, halfSize, turn);
  } else {
    hideSprite();  // dead, unborn, or a copy beyond its trail
  }
}
