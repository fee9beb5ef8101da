#version 330 core
// FadePass: drawn over the whole viewport with blending (ZERO, SRC_COLOR), it scales every
// channel of what is there, alpha too, by u_fade: a premultiplied picture faded towards
// transparent as a whole, as if each piece in it had been drawn that much fainter.

uniform float u_fade;  // 0 (gone) to 1 (as it is)

out vec4 fragColor;

void main() {
  fragColor = vec4(u_fade);
}
