// Cuts the rectangle out of its quad: how much of each pixel it covers, across each axis,
// multiplied, so that its edge is smooth at any angle.

flat in vec4 v_color;
flat in vec2 v_reach;
in vec2 v_local;

out vec4 fragColor;

void main() {
  vec2 across = clamp(v_reach - abs(v_local), 0.0, 1.0);
  fragColor = v_color * across.x * across.y;
}
