// The presets, embedded into the program by SwiftPM (`.embedInCode` in Package.swift): an edit,
// an added or a removed file reaches the next build with nothing else to do.

/// The text of every preset file in this folder, by name (the file's name without `.json`), in
/// the order the window cycles through them. A file added here needs a line below and its name
/// in Package.swift's list; a test checks the three agree.
package let presetFiles: [(name: String, text: String)] = [
  ("confetti", String(decoding: PackageResources.confetti_json, as: UTF8.self)),
  ("party-popper", String(decoding: PackageResources.party_popper_json, as: UTF8.self)),
  ("cannon", String(decoding: PackageResources.cannon_json, as: UTF8.self)),
  ("classic-cannon", String(decoding: PackageResources.classic_cannon_json, as: UTF8.self)),
  ("emoji", String(decoding: PackageResources.emoji_json, as: UTF8.self)),
  ("tap-burst", String(decoding: PackageResources.tap_burst_json, as: UTF8.self)),
  ("fireworks", String(decoding: PackageResources.fireworks_json, as: UTF8.self)),
  ("fire", String(decoding: PackageResources.fire_json, as: UTF8.self)),
  ("sparkle", String(decoding: PackageResources.sparkle_json, as: UTF8.self)),
  ("stars", String(decoding: PackageResources.stars_json, as: UTF8.self)),
  ("school-pride", String(decoding: PackageResources.school_pride_json, as: UTF8.self)),
  ("snow", String(decoding: PackageResources.snow_json, as: UTF8.self)),
  ("rain", String(decoding: PackageResources.rain_json, as: UTF8.self)),
  ("falling-confetti", String(decoding: PackageResources.falling_confetti_json, as: UTF8.self)),
  ("hearts", String(decoding: PackageResources.hearts_json, as: UTF8.self)),
  ("celebrate", String(decoding: PackageResources.celebrate_json, as: UTF8.self)),
]
