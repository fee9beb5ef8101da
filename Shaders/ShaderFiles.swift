// The shaders, embedded into the program by SwiftPM (`.embedInCode` in Package.swift): an edit,
// an added or a removed file reaches the next build with nothing else to do.

/// The text of every shader file in this folder, keyed by file name. A file added here needs a
/// line below and its name in Package.swift's list; a test checks the three agree.
package let shaderFiles: [String: String] = [
  "fade.frag": String(decoding: PackageResources.fade_frag, as: UTF8.self),
  "layer.frag": String(decoding: PackageResources.layer_frag, as: UTF8.self),
  "layer.vert": String(decoding: PackageResources.layer_vert, as: UTF8.self),
  "particle.frag": String(decoding: PackageResources.particle_frag, as: UTF8.self),
  "particle.vert": String(decoding: PackageResources.particle_vert, as: UTF8.self),
  "placed.vert": String(decoding: PackageResources.placed_vert, as: UTF8.self),
  "sprite.glsl": String(decoding: PackageResources.sprite_glsl, as: UTF8.self),
]
