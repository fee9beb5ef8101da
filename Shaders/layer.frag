#version 330 core
// Lays an effect's layer (LightLayer) over what is behind it, blended (ONE,
// ONE_MINUS_SRC_ALPHA). In the layer, additive light has added up as it does anywhere: its
// premultiplied colour may exceed its alpha. Laid over a backdrop, it covers it as much as it
// shines: alpha is raised to the brightest channel. Over black that is the light exactly; over
// white the light still shows (added to white it would be white); and it is the straight-alpha
// colour a transparent render's file holds (RGBAImage.unpremultiplied), so an editor laying
// that file "over" a colour gets this very picture.

uniform sampler2D u_layer;  // premultiplied RGBA, one texel a pixel of the viewport
uniform ivec2 u_origin;     // the viewport's bottom-left corner in the framebuffer (px)

out vec4 fragColor;

void main() {
  vec4 layer = texelFetch(u_layer, ivec2(gl_FragCoord.xy) - u_origin, 0);
  fragColor = vec4(layer.rgb, max(layer.a, max(layer.r, max(layer.g, layer.b))));
}
