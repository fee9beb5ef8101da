import Confetti
import ConfettiImage
import ConfettiPresets
import ConfettiTestSupport
import Foundation
import XCTest

/// The Debian package `sh .ci/package` makes, unpacked under a temporary root and used as a
/// machine without Swift would use it: the program, its manual and completions, and C and Python
/// programs that draw through its libconfetti. Nothing from the toolchain is on any path.
final class PackageTests: XCTestCase {
  /// The unpacked package, built once for every test here.
  struct Installed {
    var root: URL
    var usr: URL { root.appendingPathComponent("usr") }
    var program: URL { usr.appendingPathComponent("bin/confetti") }
    var libraries: URL
    var deb: URL
  }

  nonisolated(unsafe) private static var built: Result<Installed, Error>?

  /// Builds the package (a release build, a few minutes the first time) and unpacks it; where
  /// $CONFETTI_PACKAGE names a folder `sh .ci/package` has just made (as .ci/test does, for the
  /// Python tests to use the same wheel), that one.
  func installed() throws -> Installed {
    if let built = Self.built { return try built.get() }
    let result = Result { () throws -> Installed in
      let out: URL
      if let made = ProcessInfo.processInfo.environment["CONFETTI_PACKAGE"], !made.isEmpty {
        out = URL(fileURLWithPath: made)
      } else {
        out = try temporaryDirectory()
        let build = try runProgram(
          URL(fileURLWithPath: "/bin/sh"),
          [repository.appendingPathComponent(".ci/package").path, out.path],
          timeout: 3600)
        guard build.status == 0 else {
          throw PackageError(
            "sh .ci/package failed (\(build.status)): \(build.stderr)\(build.stdout)")
        }
      }
      let debs = try FileManager.default.contentsOfDirectory(atPath: out.path).filter {
        $0.hasSuffix(".deb")
      }
      guard debs.count == 1 else { throw PackageError("no single .deb in \(debs)") }
      let deb = out.appendingPathComponent(debs[0])
      let root = out.appendingPathComponent("unpacked")
      try? FileManager.default.removeItem(at: root)
      let unpack = try runProgram(
        URL(fileURLWithPath: "/usr/bin/dpkg-deb"), ["-x", deb.path, root.path])
      guard unpack.status == 0 else { throw PackageError("dpkg-deb -x: \(unpack.stderr)") }
      let lib = root.appendingPathComponent("usr/lib")
      let multiarch = try FileManager.default.contentsOfDirectory(atPath: lib.path).first {
        $0.hasSuffix("-linux-gnu")
      }
      return Installed(
        root: root, libraries: lib.appendingPathComponent(multiarch ?? "missing"), deb: deb)
    }
    Self.built = result
    return try result.get()
  }

  /// The environment of a machine without Swift: system folders only, and the unpacked
  /// package's libraries where an installed package's would be found.
  func plainEnvironment(_ package: Installed, _ extra: [String: String] = [:]) -> [String: String?]
  {
    var environment: [String: String?] = [:]
    for key in ProcessInfo.processInfo.environment.keys { environment[key] = nil as String? }
    let kept = ["HOME", "DISPLAY", "XDG_RUNTIME_DIR", "LANG", "TMPDIR"]
    for key in kept { environment[key] = ProcessInfo.processInfo.environment[key] }
    environment["PATH"] = "/usr/sbin:/usr/bin:/sbin:/bin"
    environment["LD_LIBRARY_PATH"] = package.libraries.path
    for (key, value) in extra { environment[key] = value }
    return environment
  }

  /// The toolchain's library folder (/opt/swift/usr/lib here): hidden from the installed
  /// programs' runs.
  static let toolchainLibraries: String? = {
    guard
      let found = try? runProgram(
        URL(fileURLWithPath: "/bin/sh"), ["-c", "readlink -f \"$(command -v swift)\""]),
      found.status == 0, !found.stdout.isEmpty
    else { return nil }
    let swift = URL(fileURLWithPath: found.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    return swift.deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("lib").path
  }()

  /// Runs an installed program (or a host built against the package) as on a machine without
  /// Swift: system folders alone on the paths and, where this runs as root (CI does), in a mount
  /// namespace of its own with an empty folder over the toolchain's libraries.
  func runInstalled(
    _ program: URL, _ arguments: [String], _ package: Installed,
    environment extra: [String: String] = [:], timeout: TimeInterval = 120,
    whileRunning: () throws -> Void = {}
  ) throws -> RunResult {
    let environment = plainEnvironment(package, extra)
    guard let hidden = Self.toolchainLibraries, getuid() == 0 else {
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("CI runs as root, to hide the toolchain's libraries from the installed programs")
      }
      return try runProgram(
        program, arguments, environment: environment, timeout: timeout,
        whileRunning: whileRunning)
    }
    return try runProgram(
      URL(fileURLWithPath: "/usr/bin/unshare"),
      [
        "--mount", "/bin/sh", "-c", "mount -t tmpfs none \"$0\" && exec \"$@\"", hidden,
        program.path,
      ] + arguments,
      environment: environment, timeout: timeout, whileRunning: whileRunning)
  }

  func testTheToolchainIsHiddenFromTheInstalledPrograms() throws {
    let package = try installed()
    let hidden = try XCTUnwrap(Self.toolchainLibraries, "the swift that built the package is found")
    let listing = try runInstalled(URL(fileURLWithPath: "/bin/ls"), ["-A", hidden], package)
    XCTAssertEqual(listing.status, 0, listing.stderr)
    if getuid() == 0 { XCTAssertEqual(listing.stdout, "", "\(hidden) is empty for them") }
  }

  func testTheInstalledProgramRunsWithoutTheSwiftToolchain() throws {
    let package = try installed()
    let environment = plainEnvironment(package)
    for binary in [package.program, package.libraries.appendingPathComponent("libconfetti.so.0")] {
      let ldd = try runProgram(
        URL(fileURLWithPath: "/usr/bin/ldd"), [binary.path], environment: environment)
      XCTAssertEqual(ldd.status, 0, ldd.stderr)
      XCTAssertFalse(ldd.stdout.contains("not found"), "\(binary.lastPathComponent): \(ldd.stdout)")
      XCTAssertFalse(
        ldd.stdout.lowercased().contains("swift"), "\(binary.lastPathComponent): \(ldd.stdout)")
      XCTAssertFalse(ldd.stdout.contains("Foundation"), ldd.stdout)
    }
    let version = try runInstalled(package.program, ["--version"], package)
    XCTAssertEqual(version.status, 0, version.stderr)
    let built = try runProgram(confettiBinary, ["--version"])
    XCTAssertEqual(version.stdout, built.stdout, "the version of this checkout")
    let verbose = try runInstalled(package.program, ["version", "--verbose"], package)
    XCTAssertEqual(verbose.status, 0, verbose.stderr)
    XCTAssert(verbose.stdout.contains("licence: MIT"), verbose.stdout)
    XCTAssert(verbose.stdout.contains("\nrenderer: "), verbose.stdout)
    XCTAssertFalse(
      verbose.stdout.contains("renderer: none"), "a renderer is found here: \(verbose.stdout)")
    let commit = verbose.stdout.split(separator: "\n").first { $0.hasPrefix("commit: ") }
    XCTAssertEqual(commit.map { $0.dropFirst("commit: ".count).count }, 40, verbose.stdout)

    let picture = try temporaryDirectory().appendingPathComponent("shot.png")
    let render = try runInstalled(
      package.program, ["render", "--time", "0.6", "--size", "320x240", "--out", picture.path],
      package)
    XCTAssertEqual(render.status, 0, render.stderr)
    let image = try PNG.read(picture)
    let backdrop = RGBAImage(width: 320, height: 240, fill: image[0, 0])
    XCTAssertGreaterThan(
      image.difference(from: backdrop, threshold: 24).pixels, 200, "pieces drawn")

    // The licence travels with the package.
    let copyright = package.usr.appendingPathComponent("share/doc/confetti/copyright")
    XCTAssert(try String(contentsOf: copyright, encoding: .utf8).hasPrefix("MIT License"))
  }

  /// confetti.h's functions are the library's interface (version CONFETTI_0); the rest of what
  /// it exports (the engine's and Swift runtime's symbols) is what the installed program takes
  /// from it, under a version of its own, and nothing more.
  func testTheLibraryExportsTheHeadersFunctionsAndWhatTheProgramUsesApart() throws {
    let package = try installed()
    let header = try String(
      contentsOf: package.usr.appendingPathComponent("include/confetti.h"), encoding: .utf8)
    let declared = Set(header.matches(of: /\b(confetti_[a-z_]+)\(/).map { String($0.1) })
    func dynamicSymbols(_ file: URL, _ which: String) throws -> [Substring] {
      let symbols = try runProgram(URL(fileURLWithPath: "/usr/bin/nm"), ["-D", which, file.path])
      XCTAssertEqual(symbols.status, 0, symbols.stderr)
      return symbols.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last }
    }
    let exported = try dynamicSymbols(
      package.libraries.appendingPathComponent("libconfetti.so.0"), "--defined-only")
    let interface = exported.filter { $0.hasSuffix("@@CONFETTI_0") }.map {
      String($0.dropLast("@@CONFETTI_0".count))
    }
    XCTAssertEqual(Set(interface), declared)
    XCTAssertGreaterThanOrEqual(declared.count, 13)
    let forProgram = exported.filter { !$0.hasSuffix("@@CONFETTI_0") }
    XCTAssertEqual(
      forProgram.filter { !$0.hasSuffix("@@CONFETTI_PROGRAM_0") }, [],
      "every other symbol is under the program's version")
    let programUses = try dynamicSymbols(package.program, "--undefined-only").filter {
      $0.hasSuffix("@CONFETTI_PROGRAM_0")
    }
    XCTAssertEqual(
      Set(forProgram.map { $0.dropLast("@@CONFETTI_PROGRAM_0".count) }),
      Set(programUses.map { $0.dropLast("@CONFETTI_PROGRAM_0".count) }),
      "the library exports what the program uses, no more")
    XCTAssertFalse(programUses.isEmpty, "the program takes the engine from the library")
    // The library binds its own references to itself (-Bsymbolic): a copy of one of its data
    // symbols in the program would then be a second, different one.
    let relocations = try runProgram(
      URL(fileURLWithPath: "/usr/bin/readelf"), ["-r", "-W", package.program.path])
    XCTAssertEqual(relocations.status, 0, relocations.stderr)
    XCTAssertGreaterThan(relocations.stdout.count, 1000)
    XCTAssertFalse(relocations.stdout.contains("_COPY"), "the program copies none of its data")
  }

  /// What a user downloads and installs stays light: the .deb and the wheel at most 8 MB each,
  /// the installed files at most 25 MB (docs/packaging.md has each step's figures).
  func testThePackagesStayLight() throws {
    let package = try installed()
    func bytes(_ file: URL) throws -> Int {
      try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? Int.max
    }
    XCTAssertLessThanOrEqual(try bytes(package.deb), 8_000_000, "the .deb")
    let folder = package.deb.deletingLastPathComponent()
    let wheels = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasPrefix("confetti_gl-") && $0.hasSuffix(".whl")
    }
    XCTAssertEqual(wheels.count, 1, "the wheel is made beside the .deb")
    for wheel in wheels {
      XCTAssertLessThanOrEqual(
        try bytes(folder.appendingPathComponent(wheel)), 8_000_000, "the wheel")
    }
    var installed = 0
    let files = FileManager.default.enumerator(
      at: package.usr, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
    while let file = files?.nextObject() as? URL {
      let values = try file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
      if values.isRegularFile == true { installed += values.fileSize ?? 0 }
    }
    XCTAssertGreaterThan(installed, 1_000_000, "the layout was found")
    XCTAssertLessThanOrEqual(installed, 25_000_000, "the installed files")
  }

  func testThePackageDependsOnDebiansLibrariesAlone() throws {
    let package = try installed()
    func field(_ name: String) throws -> Set<String> {
      let info = try runProgram(
        URL(fileURLWithPath: "/usr/bin/dpkg-deb"), ["-f", package.deb.path, name])
      XCTAssertEqual(info.status, 0, info.stderr)
      // "libc6 (>= 2.35), libx11-6": the package names, each checked to be one.
      let names = info.stdout.split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespacesAndNewlines).prefix { $0 != " " }
      }
      for name in names {
        XCTAssertNotNil(
          name.wholeMatch(of: /[a-z0-9][a-z0-9.+-]+/), "\(name) is one package name: \(info.stdout)"
        )
      }
      return Set(names.map(String.init))
    }
    let depends = try field("Depends")
    let runtime: Set = [
      "libc6", "libglfw3", "libepoxy0", "libpng16-16", "libfreetype6", "libfontconfig1",
      "libx11-6", "libxfixes3", "libgl1", "libegl1", "libstdc++6", "libgcc-s1",
      "libwayland-client0", "libwayland-egl1", "libchafa0", "libglib2.0-0",
    ]
    XCTAssertEqual(depends, runtime, "Depends: Debian's runtime libraries, no more, no less")
    XCTAssertEqual(
      try field("Recommends"),
      [
        "ffmpeg", "fonts-noto-color-emoji", "libgl1-mesa-dri", "libegl-mesa0",
        // The completion scripts the package installs are loaded by it.
        "bash-completion",
      ])
  }

  func testTheManualAndCompletionsNameEveryCommandAndPreset() throws {
    let package = try installed()
    let manual = try runProgram(
      URL(fileURLWithPath: "/usr/bin/man"),
      ["-l", package.usr.appendingPathComponent("share/man/man1/confetti.1.gz").path],
      environment: plainEnvironment(
        package, ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100"]))
    XCTAssertEqual(manual.status, 0, manual.stderr)
    let subcommands = [
      "window", "overlay", "run", "render", "bench", "presets", "schema", "version",
    ]
    // The window's controls whole: the manual generator drops characters beyond ASCII.
    for word in subcommands + ["--preset", "--seed", "left, right", "1/8 to 8 times"] {
      XCTAssert(manual.stdout.contains(word), "the manual names \(word)")
    }
    // A page of its own (docs/confetti.1.mdoc): its header, its environment and examples, and
    // nothing a package user does not have.
    let lines = manual.stdout.split(separator: "\n").map(String.init)
    XCTAssert(lines.first?.contains("General Commands Manual") == true, "\(lines.first ?? "")")
    XCTAssertFalse(manual.stdout.contains("BSD"), "no BSD in its header or footer")
    XCTAssert(lines.last?.hasPrefix("Confetti ") == true, "signed by it: \(lines.last ?? "")")
    for section in ["ENVIRONMENT", "EXAMPLES", "EXIT STATUS", "SEE ALSO"] {
      XCTAssert(lines.contains(section), "the manual has \(section)")
    }
    for word in ["CONFETTI_REDUCE_MOTION", "XDG_RUNTIME_DIR", "confetti run -- make -j8"] {
      XCTAssert(manual.stdout.contains(word), "the manual names \(word)")
    }
    XCTAssertFalse(manual.stdout.contains("Presets/"), "no folder of the source tree")
    XCTAssertFalse(
      manual.stdout.contains("-j8 The command"), "an example is not run into a sentence")
    let completions = [
      "share/bash-completion/completions/confetti", "share/zsh/vendor-completions/_confetti",
      "share/fish/vendor_completions.d/confetti.fish",
    ]
    for path in completions {
      let script = try String(
        contentsOf: package.usr.appendingPathComponent(path), encoding: .utf8)
      for word in subcommands + Presets.names {
        XCTAssert(script.contains(word), "\(path) names \(word)")
      }
    }
  }

  /// The header, the pkg-config file and the library, as a C programmer gets them.
  func compileC(_ source: URL, packages: [String], package: Installed) throws -> URL {
    let output = try temporaryDirectory().appendingPathComponent(
      source.deletingLastPathComponent().lastPathComponent)
    let pkgConfig = URL(fileURLWithPath: "/usr/bin/pkg-config")
    // confetti.pc from the unpacked tree; the system's own for the rest, whose paths (SDL2's
    // include folder, libpng's) are the system's and must not be moved under the tree.
    let confetti = try runProgram(
      pkgConfig, ["--cflags", "--libs", "confetti"],
      environment: [
        "PKG_CONFIG_PATH": package.libraries.appendingPathComponent("pkgconfig").path,
        "PKG_CONFIG_SYSROOT_DIR": package.root.path,
      ])
    guard confetti.status == 0 else {
      throw PackageError("pkg-config confetti: \(confetti.stderr)")
    }
    var flags = confetti.stdout
    let others = packages.filter { $0 != "confetti" }
    if !others.isEmpty {
      let system = try runProgram(
        pkgConfig, ["--cflags", "--libs"] + others,
        environment: ["PKG_CONFIG_PATH": nil, "PKG_CONFIG_SYSROOT_DIR": nil])
      guard system.status == 0 else {
        throw unavailable("needs the development files of \(others): \(system.stderr)")
      }
      flags += " " + system.stdout
    }
    let compile = try runProgram(
      URL(fileURLWithPath: "/usr/bin/cc"),
      ["-std=c11", "-Wall", "-Wextra", "-Werror", source.path, "-o", output.path]
        + flags.split(whereSeparator: \.isWhitespace).map(String.init) + ["-lm"],
      // A framework's headers (GTK's) take a while to read on a busy machine.
      timeout: 300)
    guard compile.status == 0 else {
      throw PackageError("cc \(source.lastPathComponent): \(compile.stderr)")
    }
    return output
  }

  /// The ```LANGUAGE blocks of a page in docs/hosts, in order.
  func programs(in page: String, language: String) throws -> [String] {
    let text = try String(
      contentsOf: repository.appendingPathComponent("docs/hosts/\(page)"), encoding: .utf8)
    var found: [String] = []
    var rest = text.startIndex..<text.endIndex
    while let start = text.range(of: "```\(language)\n", range: rest),
      let end = text.range(of: "\n```", range: start.upperBound..<text.endIndex)
    {
      found.append(String(text[start.upperBound..<end.lowerBound]) + "\n")
      rest = end.upperBound..<text.endIndex
    }
    guard !found.isEmpty else { throw PackageError("no \(language) program in docs/hosts/\(page)") }
    return found
  }

  /// Every C program on the C page compiles against the package (the window one with GLFW);
  /// every Python one on the Python page compiles.
  func testTheHostPagesProgramsBuild() throws {
    let package = try installed()
    let directory = try temporaryDirectory()
    for (index, source) in try programs(in: "c.md", language: "c").enumerated() {
      let c = directory.appendingPathComponent("c\(index)/main.c")
      try FileManager.default.createDirectory(
        at: c.deletingLastPathComponent(), withIntermediateDirectories: true)
      try source.write(to: c, atomically: true, encoding: .utf8)
      _ = try compileC(c, packages: ["confetti", "glfw3"], package: package)
    }
    let pythons = try programs(in: "python.md", language: "python")
    XCTAssertGreaterThanOrEqual(pythons.count, 3, "draw, celebrate and render")
    for (index, source) in pythons.enumerated() {
      let python = directory.appendingPathComponent("program\(index).py")
      try source.write(to: python, atomically: true, encoding: .utf8)
      let compiled = try runProgram(
        URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-m", "py_compile", python.path])
      XCTAssertEqual(compiled.status, 0, compiled.stderr)
    }
  }

  func testTheCHeadlessHostDrawsWhatConfettiRenderDraws() throws {
    let package = try installed()
    let host = try compileC(
      repository.appendingPathComponent("Examples/c-headless/main.c"),
      packages: ["confetti", "epoxy", "libpng"], package: package)
    let directory = try temporaryDirectory()
    for preset in ["confetti", "fire"] {
      let prefix = directory.appendingPathComponent("\(preset)-c-").path
      let run = try runInstalled(host, [preset, "3", prefix], package)
      XCTAssertEqual(run.status, 0, run.stderr)
      XCTAssertEqual(run.stderr, "", "the library says nothing on stderr")
      let reference = directory.appendingPathComponent("\(preset)-render.png").path
      let render = try runInstalled(
        package.program,
        [
          "render", "--preset", preset, "--size", "1280x720", "--scale", "2", "--seed", "7",
          "--time", "0.5", "--frames", "3", "--fps", "30", "--out", reference,
        ],
        package)
      XCTAssertEqual(render.status, 0, render.stderr)
      for frame in 0..<3 {
        let drawn = try PNG.read(URL(fileURLWithPath: prefix + String(format: "%03d.png", frame)))
        let rendered = try PNG.read(
          URL(
            fileURLWithPath: directory.appendingPathComponent(
              "\(preset)-render-" + String(format: "%04d.png", frame)
            ).path))
        let backdrop = RGBAImage(width: 1280, height: 720, fill: rendered[0, 0])
        XCTAssertGreaterThan(rendered.difference(from: backdrop, threshold: 24).pixels, 1000)
        // The golden tolerance: every channel within 2/255. The fire's light too: the library
        // lays it over the host's scene from a layer of its own, as the program does.
        let off = drawn.difference(from: rendered, threshold: 2)
        XCTAssertEqual(
          off.pixels, 0,
          "\(preset) frame \(frame): \(off.pixels) pixels differ, by up to \(off.largest)")
      }
    }
  }

  func testTheCLibraryRefusesNonsenseWithAStatusAndAMessage() throws {
    let package = try installed()
    let host = try compileC(
      repository.appendingPathComponent("Tests/ConfettiInstalledTests/Hosts/misuse.c"),
      packages: ["confetti", "epoxy"], package: package)
    let run = try runInstalled(host, [], package)
    XCTAssertEqual(run.status, 0, run.stdout)
    XCTAssertEqual(run.stderr, "", "the library says nothing on stderr")
    let summary = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
    XCTAssert(summary.hasSuffix("passed, 0 failed"), run.stdout)
    XCTAssertGreaterThan(
      summary.split(separator: " ").first.flatMap { Int($0) } ?? 0, 60, run.stdout)
  }

  /// A host that makes, draws and destroys a system 750 times (`Hosts/soak.c`), never waiting
  /// for the GL's work between: after 150, in five blocks of 120, the median block's heap in use
  /// (the least of 60 readings, as llvmpipe holds a block of about 400 KB for some frames) grows
  /// by at most 80 bytes a cycle and its resident size by at most 512 KiB, and the heap read
  /// after every cycle is never 16 MB over the warm cycles'. Measured here beside stress-ng:
  /// +6.7 to +11.1 bytes a cycle, +0 to +16 KiB, the heap at most +0.0 MB; 100 bytes leaked a
  /// cycle reads +122.4, 16 KiB mapped a cycle +1940 KiB, and without the flush as a system is
  /// released the heap rose +27.9 MB. The median ignores the steps llvmpipe now and then keeps
  /// for good (one CI run's 1 MB took the resident size 2.1 MiB up in one block).
  func testTheCLibrarysMemoryIsFlatOverManySystems() throws {
    let package = try installed()
    let host = try compileC(
      repository.appendingPathComponent("Tests/ConfettiInstalledTests/Hosts/soak.c"),
      packages: ["confetti", "epoxy"], package: package)
    // (About 40 s on a quiet machine: each system compiles its shaders.)
    let run = try runInstalled(host, [], package, timeout: 900)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertEqual(run.stderr, "", "the library says nothing on stderr")
    XCTAssert(run.stdout.hasPrefix("soak: 600 cycles after 150"), run.stdout)
  }

  /// A host that destroys its context and terminates its display, then destroys its system:
  /// the handle ends, and the program is not aborted (libepoxy asserts when it cannot find a
  /// context for a GL function it has not looked up yet).
  func testTheCLibrarySurvivesAContextDestroyedUnderIt() throws {
    let package = try installed()
    let host = try compileC(
      repository.appendingPathComponent("Tests/ConfettiInstalledTests/Hosts/destroyed-context.c"),
      packages: ["confetti", "egl"], package: package)
    let run = try runInstalled(host, [], package, environment: ["EGL_PLATFORM": "surfaceless"])
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertEqual(run.stdout, "draw 0\ndestroy 0\n", run.stderr)
  }

  /// A host that forks after a render and a draw (`Hosts/fork.c`): in the child every call
  /// works (a trigger, a destroy that leaves the parent's GL alone) or fails at once saying
  /// fork() is why (a render, twice; a draw of the parent's system), never a hang; the parent
  /// goes on drawing and rendering. (A child's second render once hung for ever.)
  func testAForkedHostsChildFailsAtOnceAndItsParentGoesOn() throws {
    let package = try installed()
    let host = try compileC(
      repository.appendingPathComponent("Tests/ConfettiInstalledTests/Hosts/fork.c"),
      packages: ["confetti", "epoxy"], package: package)
    let folder = try temporaryDirectory()
    let run = try runInstalled(host, [folder.path], package)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertEqual(
      run.stdout.split(separator: "\n").filter { $0.hasSuffix("passed, 0 failed") }.count, 2,
      run.stdout)
    XCTAssertEqual(run.stderr, "", "the library says nothing on stderr")
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
      ["parent-after.png", "parent.png"])
  }

  func testTheCWindowHostThrowsConfettiWhereItIsClicked() throws {
    let package = try installed()
    let host = try compileC(
      repository.appendingPathComponent("Examples/c-glfw/main.c"), packages: ["confetti", "glfw3"],
      package: package)
    try assertWindowHost(
      program: host, arguments: ["--seconds", "60"], title: "Confetti in C", package: package)
  }

  func testThePythonHostThrowsConfettiWhereItIsClicked() throws {
    let package = try installed()
    let site = repository.appendingPathComponent(".build-python")
    if !FileManager.default.fileExists(atPath: site.appendingPathComponent("glfw").path) {
      let pip = try runProgram(
        URL(fileURLWithPath: "/usr/bin/env"),
        ["python3", "-m", "pip", "install", "--quiet", "--target", site.path, "glfw"], timeout: 300)
      XCTAssertEqual(pip.status, 0, "pip install glfw: \(pip.stderr)")
    }
    let python = try runProgram(
      URL(fileURLWithPath: "/usr/bin/env"), ["sh", "-c", "command -v python3"])
    let window = repository.appendingPathComponent("Examples/python/window.py")
    try assertWindowHost(
      program: URL(fileURLWithPath: python.stdout.trimmingCharacters(in: .whitespacesAndNewlines)),
      arguments: [window.path, "--seconds", "60"], title: "Confetti in Python", package: package,
      environment: [
        "PYTHONPATH": site.path + ":" + repository.appendingPathComponent("Sources").path,
        "CONFETTI_LIBRARY": "libconfetti.so.0",
        "PYTHONDONTWRITEBYTECODE": "1",
      ])
    let lines = try String(contentsOf: window, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    XCTAssertLessThan(lines.count, 80, "the Python window is under 80 lines")
  }

  func testThePythonBindingRaisesTheLibrarysErrors() throws {
    let package = try installed()
    let script = """
      import confetti_gl as confetti
      def refused(kind, call):
          try:
              call()
          except kind as error:
              assert error.status == kind.status and str(error), (kind, error.status, str(error))
              return
          raise AssertionError(f"accepted: {call}")
      make = lambda *a, **k: confetti.System(*a, width=k.pop("w", 64), height=64, **k)
      refused(confetti.EffectError, lambda: make("no-such-preset"))
      refused(confetti.EffectError, lambda: make(json='{"emitters": ['))
      refused(confetti.ArgumentError, lambda: make("snow", w=0))
      refused(confetti.ArgumentError, lambda: make("snow", capacity=2**64 + 5))
      refused(confetti.ArgumentError, lambda: make("snow\\0junk"))
      refused(confetti.GLError, lambda: make("snow"))  # no GL context current
      assert confetti.version == "\(try runProgram(confettiBinary, ["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))"
      print("refused as promised")
      """
    let result = try runInstalled(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], package,
      environment: [
        "PYTHONPATH": repository.appendingPathComponent("Sources").path,
        "PYTHONDONTWRITEBYTECODE": "1", "PATH": pythonFolder,
      ])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stdout, "refused as promised\n", result.stderr)
  }

  /// The folder of the python3 the tests run, and the system's.
  var pythonFolder: String {
    let found =
      (try? runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "command -v python3"]))?
      .stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    return URL(fileURLWithPath: found).deletingLastPathComponent().path + ":/usr/bin:/bin"
  }

  /// The C host of the celebrate and render verbs, built against the package.
  func celebrateAndRenderHost(_ package: Installed) throws -> URL {
    try compileC(
      repository.appendingPathComponent("Tests/ConfettiInstalledTests/Hosts/celebrate-render.c"),
      packages: ["confetti"], package: package)
  }

  /// One set of defaults: confetti_render given nothing but the file writes what `confetti
  /// render --out` writes, byte for byte (the seed, the first moment of one picture, the size,
  /// the backdrop), and given a preset and a size, an animation as `confetti render` makes it
  /// (from 0, until the effect is over, at 30 fps). The Python package's tests hold render()
  /// to the same.
  func testTheCLibrarysDefaultsAreTheProgramsByteForByte() throws {
    let package = try installed()
    let host = try celebrateAndRenderHost(package)
    let directory = try temporaryDirectory()
    for (name, given, options) in [
      ("picture.png", ["defaults"], [String]()),
      (
        "clip.gif", ["defaults", "classic-cannon", "160", "120"],
        ["--preset", "classic-cannon", "--size", "160x120"]
      ),
      ("start.png", ["at-zero"], ["--time", "0"]),
    ] {
      let mine = directory.appendingPathComponent("c-\(name)")
      let run = try runInstalled(host, [given[0], mine.path] + given.dropFirst(), package)
      XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
      let theirs = directory.appendingPathComponent("cli-\(name)")
      let render = try runInstalled(
        package.program, ["render"] + options + ["--out", theirs.path], package)
      XCTAssertEqual(render.status, 0, render.stderr)
      let (a, b) = (try Data(contentsOf: mine), try Data(contentsOf: theirs))
      XCTAssertGreaterThan(a.count, 100, name)
      XCTAssertEqual(a, b, "\(name): the library's defaults are the program's")
    }
    // CONFETTI_AT_TIME's 0 is the very start, not the default moment.
    XCTAssertNotEqual(
      try Data(contentsOf: directory.appendingPathComponent("c-start.png")),
      try Data(contentsOf: directory.appendingPathComponent("c-picture.png")))
  }

  /// CONFETTI_CHECK_FLASHES checks a render as `confetti render --check-flashes` does: a strobe
  /// is CONFETTI_FLASHES with the program's line, its clip written all the same; a preset passes.
  func testTheCLibraryChecksFlashesAsTheProgramDoes() throws {
    let package = try installed()
    let host = try celebrateAndRenderHost(package)
    let directory = try temporaryDirectory()
    let strobe = """
      {"name": "strobe", "emitters": [{"trigger": "start", "position": {"x": 0.5, "y": 0.5},
        "shape": {"kind": "rectangle", "width": 1, "height": 1}, "emission": {"mode": "burst"},
        "cells": [{"count": 40, "lifetime": 3, "fade": 0.2, "speed": 0, "gravity": 0, "drag": 0,
          "sizes": [[420, 420]], "colors": ["#ffffff"], "shapes": ["glow"], "twinkle": 1,
          "twinkleFrequency": 31}]}]}
      """
    let clip = directory.appendingPathComponent("strobe.gif")
    let run = try runInstalled(host, ["flashes", clip.path, strobe, "#000000"], package)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssert(
      run.stdout.hasPrefix("flashes: status 9: flashes: fails WCAG 2.3.1: general at most "),
      run.stdout)
    let file = directory.appendingPathComponent("strobe.json")
    try Data(strobe.utf8).write(to: file)
    let said = try runInstalled(
      package.program,
      [
        "render", "--config", file.path, "--size", "512x384", "--fps", "15", "--duration", "auto",
        "--background", "#000000", "--check-flashes", "--out",
        directory.appendingPathComponent("said.gif").path,
      ], package)
    XCTAssertEqual(said.status, 1)
    let verdict = run.stdout.replacingOccurrences(of: "flashes: status 9: ", with: "")
      .trimmingCharacters(in: .newlines)
    XCTAssert(said.stderr.contains(verdict), "\(said.stderr) / \(verdict)")
    let size = try FileManager.default.attributesOfItem(atPath: clip.path)[.size] as? Int
    XCTAssertGreaterThan(size ?? 0, 0, "the clip is written all the same")
    // The classic cannon, over white, passes.
    let shown = try runInstalled(package.program, ["presets", "show", "classic-cannon"], package)
    XCTAssertEqual(shown.status, 0, shown.stderr)
    let calm = try runInstalled(
      host,
      ["flashes", directory.appendingPathComponent("calm.gif").path, shown.stdout, "#ffffff"],
      package)
    XCTAssertEqual(calm.status, 0, calm.stdout)
  }

  /// confetti_render writes what `confetti render` writes, with the same settings: the same
  /// picture, the same numbered sequence, a sequence until the effect is over, and an
  /// animation (at the best quality too), telling its progress frame by frame.
  func testTheCLibraryRendersWhatConfettiRenderRenders() throws {
    let package = try installed()
    let host = try celebrateAndRenderHost(package)
    let directory = try temporaryDirectory()
    // The classic cannon from 0.5 s until it is over is 32 frames at 30 fps, as `--duration
    // auto` counts them (the CLI's files are compared one by one below).
    for (name, frames, given) in [
      ("one.png", 1, "1"), ("seq.png", 3, "3"), ("clip.webm", 4, "4"), ("over.png", 32, "over"),
      ("over.webm", 32, "over"),
    ] {
      let out = directory.appendingPathComponent("c-\(name)").path
      let run = try runInstalled(host, ["render", out, given], package)
      XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
      XCTAssertEqual(run.stderr, "", "the library says nothing on stderr")
      let told = run.stdout.split(separator: "\n").map(String.init).filter {
        $0.hasPrefix("progress ")
      }
      let expected = (1...frames).map { "progress \($0)/\(frames)" }
      XCTAssertEqual(told, expected, run.stdout)
      let reference = directory.appendingPathComponent("cli-\(name)").path
      let render = try runInstalled(
        package.program,
        [
          "render", "--preset", "classic-cannon", "--size", "320x240", "--time", "0.5", "--seed",
          "7",
        ] + (given == "over" ? ["--duration", "auto"] : ["--frames", given]) + [
          "--out", reference,
        ],
        package)
      XCTAssertEqual(render.status, 0, render.stderr)
      if name.hasSuffix(".webm") {
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int ?? 0
        XCTAssertGreaterThan(size, 1000, "the WebM is written")
        continue
      }
      let pictures =
        frames == 1
        ? [(out, reference)]
        : (0..<frames).map {
          (
            out.replacingOccurrences(of: ".png", with: String(format: "-%04d.png", $0)),
            reference.replacingOccurrences(of: ".png", with: String(format: "-%04d.png", $0))
          )
        }
      for (drawn, rendered) in pictures {
        let mine = try Data(contentsOf: URL(fileURLWithPath: drawn))
        XCTAssertEqual(
          mine, try Data(contentsOf: URL(fileURLWithPath: rendered)), "\(drawn) is the same file")
      }
    }
  }

  /// A C host built as CMake builds it: find_package(Confetti CONFIG) from the package's
  /// config file and version file, the window host and the celebrate-and-render host, each run.
  func testCMakeFindsThePackageAndItsHostsRun() throws {
    let package = try installed()
    let cmake = try requiredProgram("cmake", for: "the CMake package")
    let prefix = package.usr.path
    var built: [String: URL] = [:]
    for (name, source) in [
      ("c-glfw", "Examples/c-glfw"), ("celebrate-render", "Tests/ConfettiInstalledTests/Hosts"),
    ] {
      let build = try temporaryDirectory()
      let configured = try runProgram(
        cmake,
        [
          "-S", repository.appendingPathComponent(source).path, "-B", build.path,
          "-DCMAKE_PREFIX_PATH=\(prefix)", "-DCMAKE_BUILD_TYPE=Release",
        ], timeout: 300)
      XCTAssertEqual(configured.status, 0, configured.stdout + configured.stderr)
      let compiled = try runProgram(cmake, ["--build", build.path], timeout: 300)
      XCTAssertEqual(compiled.status, 0, compiled.stdout + compiled.stderr)
      built[name] = build.appendingPathComponent(name)
    }
    /// CMake configuring a project of `lines` after `cmake_minimum_required` and `project`.
    func configure(_ lines: String) throws -> RunResult {
      let project = try temporaryDirectory()
      try "cmake_minimum_required(VERSION 3.16)\nproject(asking C)\n\(lines)\n".write(
        to: project.appendingPathComponent("CMakeLists.txt"), atomically: true, encoding: .utf8)
      return try runProgram(
        cmake,
        [
          "-S", project.path, "-B", project.appendingPathComponent("build").path,
          "-DCMAKE_PREFIX_PATH=\(prefix)",
        ], timeout: 300)
    }
    // A version past the package's is refused, as the version file says.
    let refused = try configure("find_package(Confetti 1.0 CONFIG REQUIRED)")
    XCTAssertNotEqual(refused.status, 0)
    XCTAssert(
      refused.stderr.contains("compatible with requested version \"1.0\"")
        && refused.stderr.contains("version: \(ConfettiVersion.current)"), refused.stderr)

    // Components it does not have are refused when required, each named, and what it has
    // said (none: Confetti::confetti is the whole package); optional ones are only not found.
    let report = "message(STATUS \"found: ${Confetti_FOUND}; static: ${Confetti_static_FOUND}\")"
    let required = try configure(
      "find_package(Confetti 0.5 CONFIG REQUIRED COMPONENTS static nonsense)\n\(report)")
    XCTAssertNotEqual(required.status, 0, required.stdout)
    XCTAssert(
      required.stderr.contains("Confetti has no components static, nonsense")
        && required.stderr.contains("Confetti::confetti"), required.stderr)
    let optional = try configure(
      "find_package(Confetti 0.5 CONFIG OPTIONAL_COMPONENTS static)\n\(report)")
    XCTAssertEqual(optional.status, 0, optional.stderr)
    XCTAssert(optional.stdout.contains("found: 1; static: FALSE"), optional.stdout)

    let picture = try temporaryDirectory().appendingPathComponent("cmake.png").path
    let rendered = try runInstalled(
      try XCTUnwrap(built["celebrate-render"]), ["render", picture, "1"], package)
    XCTAssertEqual(rendered.status, 0, rendered.stdout + rendered.stderr)
    XCTAssert(FileManager.default.fileExists(atPath: picture))
    try assertWindowHost(
      program: try XCTUnwrap(built["c-glfw"]), arguments: ["--seconds", "60"],
      title: "Confetti in C", package: package)
  }

  /// The examples a host's author starts from are installed beside the documentation.
  func testTheExamplesAreInstalledWithTheDocumentation() throws {
    let package = try installed()
    let examples = package.usr.appendingPathComponent("share/doc/confetti/examples")
    for file in [
      "c-glfw/main.c", "c-glfw/CMakeLists.txt", "c-headless/main.c", "python/pyglet_window.py",
      "python/moderngl_window.py", "python/window.py", "learn/confetti.c", "learn/confetti.vert",
      "learn/confetti.frag", "learn/index.html", "webgl2/index.html",
    ] {
      XCTAssert(
        FileManager.default.fileExists(atPath: examples.appendingPathComponent(file).path), file)
    }
  }

  /// A render stopped by its callback, and everything the library refuses: a status and a
  /// one-line message each, nothing written, nothing on stderr.
  func testTheCLibraryStopsAndRefusesRendersAndCelebrations() throws {
    let package = try installed()
    let host = try celebrateAndRenderHost(package)
    let directory = try temporaryDirectory()
    let clip = directory.appendingPathComponent("stopped.webm").path
    let stopped = try runInstalled(host, ["stop", clip], package)
    XCTAssertEqual(stopped.status, 0, stopped.stdout + stopped.stderr)
    XCTAssert(
      stopped.stdout.contains("stop: status 7: stopped by the progress callback"), stopped.stdout)
    XCTAssertFalse(stopped.stdout.contains("progress 4/30"), "it stopped at 3: \(stopped.stdout)")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])

    let refused = try runInstalled(
      host, ["refuse"], package, environment: ["TMPDIR": directory.path])
    XCTAssertEqual(refused.status, 0, refused.stderr)
    XCTAssertEqual(refused.stderr, "", "the library says nothing on stderr")
    let expected = [
      "no options: status 1: the options are null",
      "no out: status 1: the file to write (out) is null",
      "avi: status 1: out must name a .png, .gif, .webm, .mp4 or .mov file, not 'x.avi'",
      "background: status 1: the background is transparent, #rrggbb or #rrggbbaa, not '+fffff'",
      "fps: status 1: fps must be finite and > 0",
      "preset: status 3: no preset named \"nope\"",
      "proc: status 6: cannot write /proc/x.png",
      "frames until over: status 1: give frames or CONFETTI_UNTIL_OVER, not both (frames 3)",
      "snow until over: status 1: snow never ends by itself (it emits until stopped): give "
        + "frames instead of CONFETTI_UNTIL_OVER",
      "render flags: status 1: unknown flags 0x10000",
      "monitor: status 1: monitor counts from 1, not -1",
      "celebrate preset: status 3: no preset named \"nope\"",
      "flags: status 1: unknown flags 0x40",
      "loop: status 1: CONFETTI_LOOP never ends by itself: start it with "
        + "confetti_celebration_start",
      "wait null: status 2: the celebration is null",
      "cancel made-up: status 2: not a celebration made by confetti_celebration_start",
    ]
    let lines = refused.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, expected.count, refused.stdout)
    for (line, start) in zip(lines, expected) {
      XCTAssert(line.hasPrefix(start), "\(line) should start \(start)")
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
  }

  /// A C program celebrates over a desktop and returns when it is over; cancels a looping one;
  /// and is told, without a crash or a hang, where there is no desktop.
  func testTheCLibraryCelebratesOverTheDesktop() throws {
    let package = try installed()
    let host = try celebrateAndRenderHost(package)
    let nowhere = try runInstalled(host, ["celebrate"], package, environment: ["DISPLAY": ""])
    XCTAssertEqual(nowhere.status, 1, nowhere.stdout)
    XCTAssert(
      nowhere.stdout.hasPrefix("celebrate: status 5: no desktop to show the overlay on"),
      nowhere.stdout)
    XCTAssertEqual(nowhere.stderr, "")
    // A program that ends well without ever showing a frame is no celebration.
    let unshown = try runInstalled(
      host, ["celebrate"], package, environment: ["CONFETTI_PROGRAM": "/bin/true"])
    XCTAssertEqual(unshown.status, 1, unshown.stdout)
    XCTAssert(
      unshown.stdout.hasPrefix(
        "celebrate: status 5: the celebration was never shown: /bin/true ended without a frame"),
      unshown.stdout)

    let display = try compositedDisplay()
    var shown = ""
    let started = Date()
    let celebrated = try runInstalled(
      host, ["celebrate"], package, environment: ["DISPLAY": display.name]
    ) {
      shown = try xdotool(["search", "--sync", "--name", "^Confetti"], display: display.name)
    }
    XCTAssertEqual(celebrated.status, 0, celebrated.stdout + celebrated.stderr)
    XCTAssertEqual(celebrated.stdout, "celebrate: status 0: \n")
    XCTAssertFalse(shown.isEmpty, "the overlay's window appeared")
    XCTAssertGreaterThan(Date().timeIntervalSince(started), 2, "it returned once it was over")

    let cancelled = try runInstalled(
      host, ["cancel"], package, environment: ["DISPLAY": display.name])
    XCTAssertEqual(cancelled.status, 0, cancelled.stdout + cancelled.stderr)
    XCTAssertEqual(
      cancelled.stdout.split(separator: "\n"),
      [
        "start: status 0: ", "wait: status 0: ", "over after 1.5 s: no", "cancel: status 0: ",
        "wait: status 0: ", "over after cancel: yes", "destroy: status 0: ",
        "destroyed: status 2: the celebration was destroyed: start a new one with "
          + "confetti_celebration_start",
      ])
  }

  /// Runs a window host under Xvfb, clicks the middle of its 960×540 window, and checks the
  /// click reached the library and the last frame shows the host's backdrop with confetti on it.
  func assertWindowHost(
    program: URL, arguments: [String], title: String, package: Installed,
    environment extra: [String: String] = [:], line: UInt = #line
  ) throws {
    let display = try startXvfb(size: "960x540x24")
    defer { stopXvfb(display.server) }
    let shot = try temporaryDirectory().appendingPathComponent("window.png")
    var environment = extra
    environment["DISPLAY"] = display.name
    // The host's pixels (its backdrop) and the confetti's (saturated colours) in a screenshot.
    func census(_ image: RGBAImage) -> (host: Int, confetti: Int) {
      let backdrop = RGBAImage.Pixel(red: 26, green: 31, blue: 51)
      var (host, confetti) = (0, 0)
      for y in 0..<image.height {
        for x in 0..<image.width {
          let p = image[x, y]
          if abs(Int(p.red) - Int(backdrop.red)) <= 2, abs(Int(p.blue) - Int(backdrop.blue)) <= 2 {
            host += 1
          }
          let channels = [Int(p.red), Int(p.green), Int(p.blue)]
          if channels.max()! - channels.min()! > 80 { confetti += 1 }
        }
      }
      return (host, confetti)
    }
    var (host, confetti) = (0, 0)
    let result = try runInstalled(program, arguments, package, environment: environment) {
      let window =
        try xdotool(["search", "--sync", "--name", title], display: display.name)
        .split(separator: "\n").first.map(String.init) ?? ""
      // The window is found by name as soon as it exists, before it is on the screen: a click
      // then goes to the root window and is lost (seen beside stress-ng). So it is clicked once
      // it is viewable: the click then waits in the window's queue until the host polls.
      try waitForMapState(of: window, on: display.name, "IsViewable", line: line)
      _ = try xdotool(
        ["mousemove", "--window", window, "480", "270", "click", "1"], display: display.name)
      // Screenshots until the burst shows, not after a fixed wait: while the host runs, for
      // 20 s at most. (Each takes its own time: no pause between them.)
      let shown = try waitFor(timeout: 20, poll: 0) {
        let grab = try runProgram(
          URL(fileURLWithPath: "/usr/bin/ffmpeg"),
          [
            "-v", "error", "-f", "x11grab", "-draw_mouse", "0", "-video_size", "960x540", "-i",
            "\(display.name)+0,0", "-frames:v", "1", "-y", shot.path,
          ])
        guard grab.status == 0 else {
          XCTAssertGreaterThan(confetti, 1000, "the host ended first: \(grab.stderr)", line: line)
          return true  // nothing more to see
        }
        (host, confetti) = census(try PNG.read(shot))
        return confetti > 1000
      }
      XCTAssert(shown, "no burst on the screen within 20 s", line: line)
      // Then closed with Escape, as a person would (its --seconds is only a safety net): a
      // host that ran for a fixed time had ended on a busy machine before its burst was seen.
      // (Pressed only: the window is gone before a release could reach it.)
      _ = try runProgram(
        URL(fileURLWithPath: "/usr/bin/xdotool"), ["keydown", "--window", window, "Escape"],
        environment: ["DISPLAY": display.name])
    }
    XCTAssertEqual(result.status, 0, result.stderr, line: line)
    let clicked = result.stdout.split(separator: "\n").first { $0.hasPrefix("click at 480,270: ") }
    let alive = clicked.flatMap { Int($0.split(separator: " ")[3]) } ?? 0
    XCTAssertGreaterThan(alive, 80, "the click threw a burst: \(result.stdout)", line: line)
    XCTAssertGreaterThan(
      host, 960 * 540 / 2, "the host's scene is drawn", line: line)
    XCTAssertGreaterThan(confetti, 1000, "confetti is drawn over it", line: line)
  }
}

struct PackageError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
