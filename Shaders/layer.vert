#version 330 core
// LightLayer's pass: one triangle over the whole viewport, from gl_VertexID alone (no buffer):
// corners (-1, -1), (3, -1), (-1, 3).

void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
