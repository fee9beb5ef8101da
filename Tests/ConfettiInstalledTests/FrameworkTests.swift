import ConfettiImage
import ConfettiTestSupport
import Foundation
import XCTest

/// The examples for the frameworks people draw with (SDL2, Qt 6, GTK 4; pygame runs with the
/// Python tests), built against the unpacked package as their users build them and run under an
/// X display of their own: each draws the moment `confetti render` draws, over its own scene,
/// takes a click where it lands, and refuses a preset it does not know in one line.
extension PackageTests {
  /// Runs a host with `--snapshot` at 0.6 s (seed 5) under an Xvfb of its own, and compares its
  /// picture with `confetti render` of that moment over the same backdrop: within 4/255 a
  /// channel above the stage (the host's core-profile context draws point sprites, render's
  /// whole pixels), with enough confetti there to compare and the host's stage intact. Then a
  /// preset it does not know: status 1 and the library's one line.
  func assertHostDrawsRendersMoment(
    _ program: URL, _ name: String, package: Installed, line: UInt = #line
  ) throws {
    let display = try startXvfb(size: "960x540x24")
    defer { stopXvfb(display.server) }
    let directory = try temporaryDirectory()
    let snapshot = directory.appendingPathComponent("\(name).png")
    let ran = try runInstalled(
      program, ["confetti", "--seed", "5", "--at", "0.6", "--snapshot", snapshot.path], package,
      environment: ["DISPLAY": display.name])
    XCTAssertEqual(ran.status, 0, ran.stderr, line: line)
    XCTAssertEqual(ran.stdout, "saved \(snapshot.path) at 0.6 s\n", line: line)
    let reference = directory.appendingPathComponent("render.png")
    let rendered = try runInstalled(
      package.program,
      [
        "render", "--preset", "confetti", "--size", "960x540", "--seed", "5", "--time", "0.6",
        "--background", "#1a1f33", "--out", reference.path,
      ], package)
    XCTAssertEqual(rendered.status, 0, rendered.stderr, line: line)
    let mine = try PNG.read(snapshot)
    let theirs = try PNG.read(reference)
    XCTAssertEqual([mine.width, mine.height], [960, 540], line: line)
    let stage = 60
    var (worst, confetti) = (0, 0)
    for y in 0..<(540 - stage) {
      for x in 0..<960 {
        let (a, b) = (mine[x, y], theirs[x, y])
        worst = max(
          worst, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)),
          abs(Int(a.blue) - Int(b.blue)))
        let channels = [Int(b.red), Int(b.green), Int(b.blue)]
        if channels.max()! - channels.min()! > 60 { confetti += 1 }
      }
    }
    XCTAssertLessThanOrEqual(worst, 4, "\(name): a channel differs by \(worst)/255", line: line)
    XCTAssertGreaterThan(confetti, 5000, "\(name): there is confetti to compare", line: line)
    let floor = mine[480, 540 - 10]
    XCTAssertEqual(
      [floor.red, floor.green, floor.blue], [200, 160, 60], "\(name): its own stage is drawn",
      line: line)

    let refused = try runInstalled(
      program, ["nope"], package, environment: ["DISPLAY": display.name])
    XCTAssertEqual(refused.status, 1, refused.stdout + refused.stderr, line: line)
    let said = refused.stderr.split(separator: "\n").filter { $0.contains("nope") }
    XCTAssertEqual(said.count, 1, refused.stderr, line: line)
    XCTAssert(
      said.first?.hasPrefix("\(name): ") == true
        && said.first?.contains("no preset named \"nope\"; the presets are confetti") == true,
      refused.stderr, line: line)
  }

  func testTheSDL2HostDrawsWhatConfettiRenderDraws() throws {
    let package = try installed()
    let host = try compileC(
      repository.appendingPathComponent("Examples/sdl2/main.c"),
      packages: ["confetti", "sdl2", "libpng"],
      package: package)
    try assertHostDrawsRendersMoment(host, "sdl2-confetti", package: package)
    try assertWindowHost(
      program: host, arguments: ["--seconds", "60"], title: "Confetti in SDL2", package: package)
  }

  /// A draw with the SDL window's context not current (SDL_GL_MakeCurrent(window, NULL)) is
  /// refused with the library's line and draws nothing; made current again, it draws.
  func testAnSDL2HostsDrawWithoutItsContextIsRefused() throws {
    let package = try installed()
    let host = try compileC(
      repository.appendingPathComponent("Tests/ConfettiInstalledTests/Hosts/sdl2-not-current.c"),
      packages: ["confetti", "sdl2"], package: package)
    let display = try startXvfb(size: "320x240x24")
    defer { stopXvfb(display.server) }
    let ran = try runInstalled(host, [], package, environment: ["DISPLAY": display.name])
    XCTAssertEqual(ran.status, 0, ran.stdout + ran.stderr)
    XCTAssertEqual(
      ran.stdout.split(separator: "\n"),
      [
        "current: status 0: ",
        "none current: status 4: no OpenGL context is current on this thread: make the one the "
          + "system was made on current first",
        "current again: status 0: ", "close: status 0",
      ])
  }

  func testTheGTK4HostDrawsWhatConfettiRenderDraws() throws {
    let package = try installed()
    let host = try compileC(
      repository.appendingPathComponent("Examples/gtk4/main.c"),
      packages: ["confetti", "gtk4", "epoxy"],
      package: package)
    try assertHostDrawsRendersMoment(host, "gtk4-confetti", package: package)
    try assertWindowHost(
      program: host, arguments: ["--seconds", "60"], title: "Confetti in GTK 4", package: package)
  }

  /// Built as its CMakeLists.txt says, against the package's find_package config.
  func testTheQtHostBuiltWithCMakeDrawsWhatConfettiRenderDraws() throws {
    let package = try installed()
    let cmake = try requiredProgram("cmake", for: "the Qt example")
    let build = try temporaryDirectory()
    let configured = try runProgram(
      cmake,
      [
        "-S", repository.appendingPathComponent("Examples/qt").path, "-B", build.path,
        "-DCMAKE_PREFIX_PATH=\(package.usr.path)", "-DCMAKE_BUILD_TYPE=Release",
      ], timeout: 300)
    guard configured.status == 0 else {
      if configured.stderr.contains("Qt6") {
        throw unavailable(
          "needs Qt 6's OpenGL widgets (qt6-base-dev libqt6opengl6-dev): \(configured.stderr)")
      }
      return XCTFail(configured.stdout + configured.stderr)
    }
    let compiled = try runProgram(cmake, ["--build", build.path], timeout: 600)
    XCTAssertEqual(compiled.status, 0, compiled.stdout + compiled.stderr)
    let host = build.appendingPathComponent("qt-confetti")
    try assertHostDrawsRendersMoment(host, "qt-confetti", package: package)
    try assertWindowHost(
      program: host, arguments: ["--seconds", "60"], title: "Confetti in Qt", package: package)
  }

  /// The framework examples are installed beside the others, each as its users build it, and
  /// their page with the documentation.
  func testTheFrameworkExamplesAreInstalledWithTheDocumentation() throws {
    let package = try installed()
    let documentation = package.usr.appendingPathComponent("share/doc/confetti")
    for file in [
      "examples/sdl2/main.c", "examples/qt/main.cpp", "examples/qt/CMakeLists.txt",
      "examples/gtk4/main.c", "examples/python/pygame_window.py", "docs/hosts/frameworks.md",
    ] {
      XCTAssert(
        FileManager.default.fileExists(atPath: documentation.appendingPathComponent(file).path),
        file)
    }
  }
}
