// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Confetti",
  products: [
    .executable(name: "confetti", targets: ["confetti"])
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    // The pure core: physics, the particle record, spawning, the ring, the CPU reference.
    // No C imports, so everything here is tested without a GPU.
    .target(name: "ConfettiCore"),

    // Thin C shims over the system libraries.
    .systemLibrary(
      name: "CGLFW",
      pkgConfig: "glfw3",
      providers: [.apt(["libglfw3-dev"])]
    ),
    .systemLibrary(
      name: "CEpoxy",
      pkgConfig: "epoxy",
      providers: [.apt(["libepoxy-dev", "libgl-dev", "libegl-dev"])]
    ),

    .systemLibrary(
      name: "CPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]
    ),

    // Pictures in memory and as PNG files.
    .target(name: "ConfettiImage", dependencies: ["CPNG"]),

    // The thin GL layer: contexts, programs, buffers, capture and read-back.
    .target(
      name: "ConfettiGL",
      dependencies: ["ConfettiCore", "ConfettiImage", "CEpoxy"],
      plugins: ["EmbedFiles"]
    ),

    // The presets: Presets/*.json, embedded at build time and decoded like any --config file.
    .target(name: "ConfettiPresets", dependencies: ["ConfettiCore"], plugins: ["EmbedFiles"]),

    // Embeds Shaders/* into ConfettiGL and Presets/*.json into ConfettiPresets at build time.
    .executableTarget(name: "EmbedFilesTool"),
    .plugin(
      name: "EmbedFiles",
      capability: .buildTool(),
      dependencies: ["EmbedFilesTool"]
    ),

    // The program: window, render and bench, wired together.
    .executableTarget(
      name: "confetti",
      dependencies: [
        "ConfettiCore", "ConfettiGL", "ConfettiImage", "ConfettiPresets", "CGLFW",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // The configuration parser's fuzz target: mutates the presets, checks every mutant.
    .executableTarget(name: "confetti-fuzz", dependencies: ["ConfettiCore", "ConfettiPresets"]),

    .testTarget(name: "ConfettiCoreTests", dependencies: ["ConfettiCore", "ConfettiPresets"]),
    .testTarget(
      name: "ConfettiGLTests",
      dependencies: ["ConfettiCore", "ConfettiGL", "ConfettiImage", "ConfettiPresets", "CEpoxy"]),
    .testTarget(name: "ConfettiCLITests", dependencies: ["confetti", "ConfettiImage"]),
  ],
  swiftLanguageModes: [.v6]
)
