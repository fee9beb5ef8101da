// swift-tools-version:6.0
import PackageDescription

/// libconfetti's soname version: the major version of ConfettiVersion.current and confetti.h.
let libraryMajorVersion = 0

let package = Package(
  name: "Confetti",
  products: [
    // One import for a host program: an effect drawn into its own GL 3.3 context.
    .library(name: "Confetti", targets: ["Confetti"]),
    // GLFW and libepoxy as Swift modules, for a host that has no bindings of its own.
    .library(name: "CGLFW", targets: ["CGLFW"]),
    .library(name: "CEpoxy", targets: ["CEpoxy"]),
    // libconfetti for C, C++ and Python hosts: confetti.h over the facade. `sh .ci/package`
    // installs it as libconfetti.so.0 with its header and a pkg-config file.
    .library(name: "ConfettiC", type: .dynamic, targets: ["ConfettiC"]),
    // Clips and pictures of an effect written to files, headless: what `confetti render` does.
    .library(name: "ConfettiExport", targets: ["ConfettiExport"]),
    // The effect on the desktop: the interactive window, and the overlay that celebrates over
    // every window (what `confetti window` and `overlay` do).
    .library(name: "ConfettiDesktop", targets: ["ConfettiDesktop"]),
    // A celebration over the desktop, started from any program: the overlay as a process of
    // its own (what `confetti run` does when its command succeeds).
    .library(name: "ConfettiCelebration", targets: ["ConfettiCelebration"]),
    // A celebration inside a terminal (kitty graphics, sixels, coloured cells), where no desktop
    // shows one: what `confetti run` and `overlay` do over SSH.
    .library(name: "ConfettiTerminal", targets: ["ConfettiTerminal"]),
    .executable(name: "confetti", targets: ["ConfettiCLI"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    // The pure core: the closed-form physics, the particle record, the clock, the ring, the
    // emitters and the CPU reference. No C imports: everything here is tested without a GPU.
    // Its workings are `package`: hosts see only the effect's description (EffectConfig and
    // its parts, units, colours, the playback clock), through `import Confetti`.
    .target(name: "ConfettiCore"),

    // What the product would otherwise take from Foundation, whose ICU data alone weighs 38 MB:
    // printf's formatting, trimmed text, locks, conditions and threads, a program file's check;
    // and the process's own: the signals that ask it to stop, its standard streams, its heap.
    .target(name: "ConfettiPlatform", dependencies: ["CProcess", "CMalloc"]),

    // The configuration format: a strict JSON parser and writer, the schema, the decoder.
    .target(name: "ConfettiConfig", dependencies: ["ConfettiCore"]),

    // The named effects: Presets/*.json, embedded at build time and decoded like any file.
    .target(
      name: "ConfettiPresets",
      dependencies: ["ConfettiCore", "ConfettiConfig", "ConfettiPresetFiles"]),
    // The preset files themselves, embedded into the program by SwiftPM. A file added to
    // Presets/ is listed here and in Presets/PresetFiles.swift (a test checks all three agree).
    .target(
      name: "ConfettiPresetFiles", path: "Presets",
      resources: [
        "confetti", "party-popper", "cannon", "classic-cannon", "emoji", "tap-burst", "fireworks",
        "fire", "sparkle", "stars", "school-pride", "snow", "rain", "falling-confetti", "hearts",
        "celebrate",
      ].map { .embedInCode("\($0).json") }),
    // The GLSL shaders, embedded the same way (Shaders/ShaderFiles.swift).
    .target(
      name: "ConfettiShaderFiles", path: "Shaders",
      resources: [
        "particle.vert", "particle.frag", "sprite.glsl", "layer.vert", "layer.frag", "fade.frag",
        "placed.vert",
      ].map { .embedInCode($0) }),

    // GLFW, a header and its pkg-config name: the window and its input.
    .systemLibrary(
      name: "CGLFW",
      pkgConfig: "glfw3",
      providers: [.apt(["libglfw3-dev"])]
    ),
    // libepoxy: the GL and EGL entry points, resolved for whichever GL the host loaded.
    .systemLibrary(
      name: "CEpoxy",
      pkgConfig: "epoxy",
      providers: [.apt(["libepoxy-dev", "libgl-dev", "libegl-dev"])]
    ),
    // Xlib with XFixes and XShape through GLFW's own connection, for the X11 overlay: input
    // shapes that let clicks through.
    .systemLibrary(
      name: "CX11",
      pkgConfig: "xfixes",
      providers: [.apt(["libxfixes-dev", "libx11-dev"])]
    ),
    // The overlay on Wayland desktops with a layer shell (sway, KDE Plasma), in C (about 440
    // lines, not a shim): a surface on the overlay layer with an empty input region and an EGL
    // context on it, over libwayland-client and the protocols' generated code.
    .target(
      name: "CWayland",
      linkerSettings: [
        .linkedLibrary("wayland-client"), .linkedLibrary("wayland-egl"), .linkedLibrary("EGL"),
      ]
    ),
    // A crash of the program as its user sees it: the terminal given back, a line and a short
    // backtrace, in place of Swift's own handler (which holds a terminal at a 30-second prompt).
    .target(name: "CCrash"),
    // libconfetti, as it loads, keeps Swift's own crash handler out of its host.
    .target(name: "CHostCrash"),
    // glibc's allocator settings: the program keeps freed memory (HeapPolicy), which spares a
    // software GL's frames faulting their buffers in afresh.
    .systemLibrary(name: "CMalloc"),
    // The process calls Swift's Glibc lacks: pidfds, pipes, spawning's `closefrom`, exit
    // statuses, the parent-death signal (confetti run's overlay ends with confetti run).
    .systemLibrary(name: "CProcess"),
    // libpng; its writer keeps its `setjmp` in C.
    .systemLibrary(
      name: "CPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]
    ),
    // FreeType and fontconfig: the system's fonts, for text and emoji shapes.
    .systemLibrary(
      name: "CFreeType",
      pkgConfig: "freetype2",
      providers: [.apt(["libfreetype-dev", "libfontconfig-dev"])]
    ),

    // Debian's libchafa: pictures as a terminal's graphics or character cells.
    .systemLibrary(
      name: "CChafa",
      pkgConfig: "chafa",
      providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]
    ),

    // Pictures in memory and as PNG files, files written whole beside their names, small files
    // read warily, and the photosensitivity check of an animation's frames (WCAG 2.3.1).
    .target(name: "ConfettiImage", dependencies: ["ConfettiCore", "ConfettiPlatform", "CPNG"]),

    // Text and emoji shapes: glyphs from the system's fonts as pictures for the atlas.
    .target(name: "ConfettiText", dependencies: ["CFreeType", "ConfettiImage"]),

    // The GL layer, in three rooms: Drawing (the particle renderer, programs, buffers, offscreen
    // targets, read-back), HostState (the state contract with a host: its state saved and put
    // back, the state policy, which context is which) and Platform (EGL and GLX: the current
    // context, the headless context, what the GL can do, forks, the driver's messages).
    .target(
      name: "ConfettiGL",
      dependencies: [
        "ConfettiCore", "ConfettiPlatform", "ConfettiImage", "ConfettiShaderFiles", "CEpoxy",
      ]
    ),

    // The facade a host uses: an effect on the host's current GL context.
    .target(
      name: "Confetti",
      dependencies: [
        "ConfettiCore", "ConfettiConfig", "ConfettiPresets", "ConfettiImage", "ConfettiGL",
        "ConfettiText",
      ]
    ),

    // The C interface's header, confetti.h, as a C module (the one place the C API and its GL
    // state contract are written).
    .systemLibrary(name: "CConfetti"),
    // libconfetti: confetti.h's entry points (`@_cdecl`) over the facade, export and
    // celebrations, for C, C++ and Python hosts (libconfetti.so.0).
    .target(
      name: "ConfettiC",
      dependencies: [
        "Confetti", "ConfettiCore", "ConfettiGL", "ConfettiExport", "ConfettiCelebration",
        "CConfetti", "CHostCrash",
      ],
      exclude: ["exports.map"],
      linkerSettings: [
        .unsafeFlags([
          "-Xlinker", "-soname=libconfetti.so.\(libraryMajorVersion)",
          "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/ConfettiC/exports.map",
        ])
      ]
    ),

    // Export: the offline frame loop, pictures, numbered sequences, animations through ffmpeg,
    // the particle records, each written safely. Over the facade; no command line.
    .target(
      name: "ConfettiExport",
      dependencies: [
        "Confetti", "ConfettiCore", "ConfettiConfig", "ConfettiPlatform", "ConfettiGL",
        "ConfettiImage", "ConfettiProcess", "CProcess",
      ]
    ),

    // Celebrations: the overlay as a process of its own, started, waited on or cancelled from
    // any program. No window system of its own: libconfetti links it without GLFW or X11.
    .target(
      name: "ConfettiCelebration",
      dependencies: [
        "ConfettiCore", "ConfettiPlatform", "ConfettiPresets", "ConfettiProcess", "CProcess",
        "ConfettiImage",
      ]),

    // Starting the programs confetti runs (a celebration's overlay, ffmpeg), one way for all.
    .target(name: "ConfettiProcess", dependencies: ["CProcess"]),

    // The desktop: the window loop, the X11 and Wayland overlays, the desktop's reduced-motion
    // setting. No command line.
    .target(
      name: "ConfettiDesktop",
      dependencies: [
        "Confetti", "ConfettiCore", "ConfettiPlatform", "ConfettiGL", "ConfettiImage",
        "ConfettiPresets",
        "ConfettiCelebration", "ConfettiProcess", "CProcess", "CGLFW", "CX11", "CWayland",
      ]
    ),

    // The terminal: a celebration drawn in it, its graphics chosen from its replies. No
    // command line.
    .target(
      name: "ConfettiTerminal",
      dependencies: [
        "Confetti", "ConfettiCore", "ConfettiPlatform", "ConfettiGL", "ConfettiImage",
        "ConfettiCelebration", "CChafa", "CCrash",
      ]
    ),

    // The session service (`confetti service`): celebrations for any program over D-Bus, one
    // overlay at a time, with one made ahead. No command line.
    .target(
      name: "ConfettiService",
      dependencies: [
        "Confetti", "ConfettiCore", "ConfettiConfig", "ConfettiPlatform", "ConfettiCelebration",
        "CSessionBus",
      ]
    ),
    // GDBus for the session service, loaded when it starts (no GLib header or link at build
    // time): calls and replies, no names of its own.
    .target(name: "CSessionBus"),

    // The bench, beside the engine, not in it (what `confetti bench` and `--bench N` run): Runs
    // (its scenes, plan, runner and GPU timing), Baselines (the CPU and floor renderers the GPU
    // is measured against, each checked to draw the product's pictures), Report (tables,
    // statistics, the sweep's SVG plot).
    .target(
      name: "ConfettiBench",
      dependencies: [
        "ConfettiCore", "ConfettiConfig", "ConfettiPlatform", "ConfettiGL", "ConfettiImage",
        "CEpoxy",
      ]
    ),

    // The tool that writes the commit the program was built from into it, for `confetti version
    // --verbose`: the one file generated at build time.
    .executableTarget(name: "BuildCommitTool"),
    // The build plugin that runs it for the program, again whenever HEAD moves.
    .plugin(
      name: "BuildCommit",
      capability: .buildTool(),
      dependencies: ["BuildCommitTool"]
    ),

    // The program: parsing, help and printing over the library's window, overlay, export and
    // bench.
    .executableTarget(
      name: "ConfettiCLI",
      dependencies: [
        "Confetti", "ConfettiCore", "ConfettiPlatform", "ConfettiConfig", "ConfettiPresets",
        "ConfettiImage",
        "ConfettiGL", "ConfettiBench", "ConfettiExport", "ConfettiDesktop", "ConfettiCelebration",
        "ConfettiTerminal", "ConfettiService", "CCrash", "CMalloc", "CProcess",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      plugins: ["BuildCommit"]
    ),

    // The configuration parser's fuzz harness: what must hold for any input, how inputs are
    // mutated. The product does not link it; the tests replay the corpus through it.
    .target(name: "ConfettiConfigFuzzing", dependencies: ["ConfettiConfig", "ConfettiCore"]),
    // The fuzz target: `swift run confetti-fuzz [ITERATIONS] [SEED]` mutates the presets and
    // the corpus and checks every mutant.
    .executableTarget(
      name: "confetti-fuzz",
      dependencies: ["ConfettiConfig", "ConfettiConfigFuzzing", "ConfettiPresets"]),

    // Examples: small host programs that use the library as any other program would. This one,
    // an effect in a GLFW window of the host's own, over its own scene.
    .executableTarget(
      name: "embed-glfw", dependencies: ["Confetti", "CGLFW"], path: "Examples/embed-glfw"),
    // The same with no window: an effect drawn into a headless context and saved as pictures.
    .executableTarget(name: "headless", dependencies: ["Confetti"], path: "Examples/headless"),

    // The core: the physics against its formulas, emission, the ring, the clock, the look.
    .testTarget(name: "ConfettiCoreTests", dependencies: ["ConfettiCore", "ConfettiPresets"]),
    // The configuration format: the schema, decoding and its messages, the fuzz corpus replayed.
    .testTarget(
      name: "ConfettiConfigTests",
      dependencies: ["ConfettiCore", "ConfettiConfig", "ConfettiConfigFuzzing", "ConfettiPresets"],
      exclude: ["ConfigCorpus"]),
    // The GL layer on a headless EGL context: the shaders against the CPU reference (transform
    // feedback and pixels), the effects' pictures, goldens, the primitives and the atlas.
    .testTarget(
      name: "ConfettiGLTests",
      dependencies: [
        "Confetti", "ConfettiCore", "ConfettiGL", "ConfettiImage", "ConfettiPresets", "CEpoxy",
        "ConfettiTestSupport", "ConfettiGLTestSupport",
      ]),
    // The facade, as a host uses it on its own context: ConfettiSystem's calls, the host's GL
    // state kept whatever it left, other contexts and threads refused, the GL objects released.
    .testTarget(
      name: "ConfettiTests",
      dependencies: ["Confetti", "ConfettiCore", "ConfettiGL", "CEpoxy", "ConfettiGLTestSupport"]),
    // What the tests that draw share: a fresh headless GL context for each test, varied
    // particles, and the transform-feedback probe that reads the vertex shader's outputs back.
    .target(
      name: "ConfettiGLTestSupport",
      dependencies: [
        "ConfettiCore", "ConfettiGL", "ConfettiImage", "ConfettiPresets", "CEpoxy",
        "ConfettiTestSupport",
      ],
      path: "Tests/ConfettiGLTestSupport"),
    // Glyphs from the system's fonts as pictures.
    .testTarget(
      name: "ConfettiTextTests",
      dependencies: ["ConfettiText", "ConfettiImage", "ConfettiTestSupport"]),
    // Pictures in memory and the flash check of an animation's frames.
    .testTarget(name: "ConfettiImageTests", dependencies: ["ConfettiImage"]),
    // The bench: its scenes and plan, its baselines' arithmetic, that every baseline draws the
    // product's picture of every preset, and `confetti bench`'s figures and report.
    .testTarget(
      name: "ConfettiBenchTests",
      dependencies: [
        "Confetti", "ConfettiBench", "ConfettiConfig", "ConfettiCore", "ConfettiGL",
        "ConfettiImage", "ConfettiPresets", "ConfettiGLTestSupport", "ConfettiCLI",
        "ConfettiTestSupport",
      ]),
    // What the tests share: running programs, X displays and session buses of their own, /proc
    // readings, waiting for an event, and the rule that a test CI cannot run is a failure there,
    // not a skip.
    .target(name: "ConfettiTestSupport", path: "Tests/ConfettiTestSupport"),
    // The command line, with no display: arguments, help, completion, hostile input, the
    // documentation's claims, what the build embeds.
    .testTarget(
      name: "ConfettiCLITests",
      dependencies: [
        "ConfettiCLI", "ConfettiTestSupport", "ConfettiImage", "ConfettiCore", "ConfettiPresets",
        "ConfettiGL", "ConfettiConfig", "ConfettiCelebration", "ConfettiPresetFiles",
        "ConfettiShaderFiles",
      ]),
    // Export: `confetti render` as video makers use it (pictures, animations through ffmpeg,
    // sequences, records, every fault of an export, the flash check of every preset) and the
    // library's render, the same files.
    .testTarget(
      name: "ConfettiExportTests",
      dependencies: [
        "ConfettiCLI", "ConfettiTestSupport", "Confetti", "ConfettiCelebration", "ConfettiCore",
        "ConfettiExport", "ConfettiGL", "ConfettiImage", "ConfettiPresets",
      ]),
    // Celebrations as a library starts them (the overlay found, started, waited on, cancelled,
    // refused) and the command line it hands the program.
    .testTarget(
      name: "ConfettiCelebrationTests",
      dependencies: ["ConfettiCLI", "ConfettiTestSupport", "ConfettiCelebration"]),
    // The session service: its rule for floods, its calls' checks, and `confetti service` on a
    // private session bus over a display of its own, called with gdbus.
    .testTarget(
      name: "ConfettiServiceTests",
      dependencies: [
        "ConfettiCLI", "ConfettiTestSupport", "ConfettiService", "ConfettiCelebration",
        "ConfettiImage",
      ]),
    // The desktop: the window, the overlay (X11 and Wayland), `confetti run` and the examples,
    // each on displays of their own.
    .testTarget(
      name: "ConfettiDesktopTests",
      dependencies: [
        "ConfettiCLI", "ConfettiTestSupport", "embed-glfw", "headless", "Confetti",
        "ConfettiImage", "ConfettiCore", "ConfettiPresets", "ConfettiGL", "ConfettiExport",
        "ConfettiCelebration", "ConfettiDesktop",
      ],
      // A Wayland client the tests compile to click through the overlay.
      exclude: ["Hosts"]),
    // The terminal: its replies read, and celebrations in tmux, xterm and kitty.
    .testTarget(
      name: "ConfettiTerminalTests",
      dependencies: [
        "ConfettiCLI", "ConfettiTerminal", "ConfettiTestSupport", "ConfettiImage", "ConfettiCore",
        "ConfettiGL", "CChafa",
      ]),
    // The installed package: its release build, C and Python hosts, CMake, the public surface.
    .testTarget(
      name: "ConfettiInstalledTests",
      dependencies: [
        "ConfettiCLI", "ConfettiTestSupport", "Confetti", "ConfettiImage", "ConfettiPresets",
        "ConfettiService",
      ],
      // C hosts the tests compile against the installed package.
      exclude: ["Hosts"]),
  ],
  swiftLanguageModes: [.v6]
)
