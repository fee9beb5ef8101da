import ConfettiImage
import ConfettiTestSupport
import Foundation
import XCTest

/// OBS Studio's "Confetti" source as a streamer uses it: the package's plugin loaded by a real
/// OBS (Debian's 29) on an X server of its own, with a profile and a scene collection made for
/// the test, and fired over obs-websocket as Streamer.bot or Firebot fire it
/// (`Hosts/obs-request.py`, a client in Python's standard library).
extension PackageTests {
  /// The scene: a colour over the whole 640×360 canvas, the Confetti source above it, and a
  /// small colour (the marker) above that.
  private static let canvas = (width: 640, height: 360)
  private static let backdrop = RGBAImage.Pixel(red: 0x12, green: 0x14, blue: 0x1C)
  private static let marker = (x: 16, y: 16, width: 64, height: 48)
  /// OBS draws 30 frames a second here (half the work of 60 for a busy machine's llvmpipe), and
  /// the reference clip has as many: the source's clock is OBS's frame time, so every frame OBS
  /// draws, late or not, is one of the clip's moments.
  private static let fps = 30
  /// Frames of the reference clip searched for the screenshot's moment: 3 s (the screenshot is
  /// taken 15 frames after the firing, half a second on a machine that keeps up).
  private static let referenceFrames = 90

  /// The Fire button and the hotkey (by name, as obs-websocket triggers it, and by the key bound
  /// to it in the collection) each throw the effect over the scene as `confetti render` draws it
  /// over the same colour; the scene's colour is untouched where no piece is and the source above
  /// is drawn as before; a broken effect file draws nothing, is said once in OBS's log, and OBS
  /// goes on answering. OBS is stopped at the end, and nothing it started is left.
  ///
  /// The moment a screenshot shows is not known in advance (a busy machine draws frames late or
  /// skips them), so each screenshot is compared with every frame of a reference clip rendered at
  /// OBS's frame rate (3 s), and the best must match: at most 0.1 % of the pixels differ by more
  /// than 2 levels of 255, none by more than 24. What differs is rounding: OBS draws the
  /// pieces into a transparent 8-bit texture first and then over the scene, where `confetti
  /// render` draws them over the colour at once (measured: 2 pixels off by 3). Not matched:
  /// OBS's colour conversion of its output to video (the screenshot is the scene as OBS holds it,
  /// before that conversion) and which frame it is.
  func testOBSSourceFiresOverTheSceneAsConfettiRenderDrawsIt() throws {
    let package = try installed()
    try requireTools(["/usr/bin/obs", "/usr/bin/python3"], for: "the OBS source")
    let plugins = package.libraries.appendingPathComponent("obs-plugins")
    let pluginData = package.usr.appendingPathComponent("share/obs/obs-plugins")
    XCTAssert(
      FileManager.default.fileExists(atPath: plugins.appendingPathComponent("confetti.so").path),
      "the package installs the plugin into OBS's plugin folder")
    XCTAssert(
      FileManager.default.fileExists(
        atPath: pluginData.appendingPathComponent("confetti/locale/en-US.ini").path))
    // The folders are those where Debian's OBS keeps its own plugins and their data.
    let multiarch = package.libraries.lastPathComponent
    for own in [
      "/usr/lib/\(multiarch)/obs-plugins/image-source.so",
      "/usr/share/obs/obs-plugins/image-source/locale/en-US.ini",
    ] {
      XCTAssert(FileManager.default.fileExists(atPath: own), "OBS's own \(own)")
    }
    try assertThePluginDoesNotWeighOnThePackage(package)

    let folder = try temporaryDirectory()
    let port = try freePort()
    let home = try writeOBSConfiguration(in: folder, port: port)
    let reference = folder.appendingPathComponent("reference.png")
    let render = try runInstalled(
      package.program,
      [
        "render", "--preset", "confetti", "--seed", "7", "--size",
        "\(Self.canvas.width)x\(Self.canvas.height)", "--background", "#12141c", "--time", "0",
        "--frames", "\(Self.referenceFrames)", "--fps", "\(Self.fps)", "--out", reference.path,
      ], package)
    XCTAssertEqual(render.status, 0, render.stderr)
    let clip = try (0..<Self.referenceFrames).map {
      try PNG.read(folder.appendingPathComponent(String(format: "reference-%04d.png", $0)))
    }

    let display = try startXvfb(size: "1280x800x24")
    defer { stopXvfb(display.server) }
    let obs = try startOBS(package, home: home, display: display.name, plugins: plugins)
    defer { stopOBS(obs.process, home: home) }

    // Its websocket answers once OBS has loaded its scenes: asked again and again until then.
    let started = Date()
    let hello = try obsRequests(port, [["requestType": "GetVersion"]], wait: 180, obs: obs)
    let startup = Date().timeIntervalSince(started)
    print("OBS answered on its websocket \(String(format: "%.1f", startup)) s after it started")
    XCTAssertEqual((hello.first as? [String: Any])?["ok"] as? Bool, true, "\(hello)")

    let before = folder.appendingPathComponent("before.png")
    _ = try obsRequests(port, [screenshot(before)], obs: obs)
    let plain = try PNG.read(before)
    XCTAssertEqual(plain.width, Self.canvas.width)
    XCTAssertEqual(plain.height, Self.canvas.height)
    var scene = RGBAImage(width: Self.canvas.width, height: Self.canvas.height, fill: Self.backdrop)
    for y in 0..<Self.marker.height {
      for x in 0..<Self.marker.width {
        scene[Self.marker.x + x, Self.marker.y + y] = RGBAImage.Pixel(
          red: 255, green: 255, blue: 0)
      }
    }
    XCTAssertLessThanOrEqual(
      plain.difference(from: scene).largest, 1, "the scene before: the colour and the marker")

    let settings: [String: Any] = ["effect": "confetti", "seed": 7, "path": ""]
    let fires: [(String, [String: Any])] = [
      (
        "the Fire button",
        [
          "requestType": "PressInputPropertiesButton",
          "requestData": ["inputName": "Confetti", "propertyName": "fire"],
        ]
      ),
      (
        "the hotkey by name",
        ["requestType": "TriggerHotkeyByName", "requestData": ["hotkeyName": "confetti.fire"]]
      ),
      (
        "the hotkey's key",
        ["requestType": "TriggerHotkeyByKeySequence", "requestData": ["keyId": "OBS_KEY_F9"]]
      ),
    ]
    for (index, (how, fire)) in fires.enumerated() {
      // The same settings again make a fresh system: each firing is the effect's first.
      let shot = folder.appendingPathComponent("fired-\(index).png")
      let answers = try obsRequests(
        port,
        [
          [
            "requestType": "SetInputSettings",
            "requestData": ["inputName": "Confetti", "inputSettings": settings],
          ],
          // One request a frame, as OBS draws: fired, then the screenshot half a second later.
          ["batch": [fire, sleep(frames: 15), screenshot(shot)], "executionType": 1],
        ], obs: obs)
      let batch = answers.last as? [[String: Any]] ?? []
      XCTAssertEqual(
        batch.compactMap { $0["ok"] as? Bool }, [true, true, true], "\(how): \(batch)")
      let fired = try PNG.read(shot)
      assertMarkerUnchanged(fired, plain, how)
      XCTAssertGreaterThan(
        fired.difference(from: plain, threshold: 24).pixels, 2000, "\(how): confetti is drawn")
      // The best-matching moment of the reference clip, the marker's rectangle left out.
      var best = (0, offPixels(fired, clip[0]))
      for (frame, picture) in clip.enumerated().dropFirst() {
        let off = offPixels(fired, picture, giveUpAbove: best.1.over2)
        if off.over2 < best.1.over2 { best = (frame, off) }
      }
      let total = Self.canvas.width * Self.canvas.height
      print("\(how): frame \(best.0) of the clip matches: \(best.1)")
      XCTAssertLessThanOrEqual(
        best.1.over2, total / 1000, "\(how): the best frame, \(best.0), is \(best.1) off")
      XCTAssertLessThanOrEqual(
        best.1.largest, 24, "\(how): the best frame, \(best.0), is \(best.1) off")
      XCTAssertGreaterThan(best.0, 0, "\(how): the screenshot is later than the firing")
      // Where the reference shows the colour alone, so does OBS.
      var spoiled = 0
      for y in 0..<fired.height {
        for x in 0..<fired.width where !inMarker(x, y) && clip[best.0][x, y] == Self.backdrop {
          if distance(fired[x, y], Self.backdrop) > 2 { spoiled += 1 }
        }
      }
      XCTAssertLessThanOrEqual(spoiled, total / 1000, "\(how): the colour is intact around pieces")
    }

    // A broken effect file: nothing drawn, fired or not; said once in the log; OBS answers.
    let broken = folder.appendingPathComponent("broken.json")
    try "{\"emitters\": [".write(to: broken, atomically: true, encoding: .utf8)
    let afterBroken = folder.appendingPathComponent("broken.png")
    let answers = try obsRequests(
      port,
      [
        [
          "requestType": "SetInputSettings",
          "requestData": [
            "inputName": "Confetti", "inputSettings": ["effect": ":file", "path": broken.path],
          ],
        ],
        ["batch": [fires[0].1, sleep(frames: 15), screenshot(afterBroken)], "executionType": 1],
        ["requestType": "GetVersion"],
      ], obs: obs)
    XCTAssertEqual(
      (answers.last as? [String: Any])?["ok"] as? Bool, true, "OBS still answers: \(answers)")
    XCTAssertLessThanOrEqual(
      try PNG.read(afterBroken).difference(from: plain).largest, 1,
      "the scene is drawn as before, without confetti")
    XCTAssert(obs.process.isRunning, "OBS still runs")
    let warnings = try obsLog(home).split(separator: "\n").filter {
      $0.contains("[confetti] 'Confetti' draws nothing: \(broken.path)")
    }
    XCTAssertEqual(warnings.count, 1, "one line in OBS's log says why: \(warnings)")

    // A canvas of another size: the source follows it, and its pieces fill it.
    let resized = folder.appendingPathComponent("resized.png")
    let afterResize = try obsRequests(
      port,
      [
        [
          "requestType": "SetVideoSettings",
          "requestData": [
            "baseWidth": 480, "baseHeight": 270, "outputWidth": 480, "outputHeight": 270,
          ],
        ],
        [
          "requestType": "SetInputSettings",
          "requestData": ["inputName": "Confetti", "inputSettings": settings],
        ],
        [
          "batch": [
            fires[0].1, sleep(frames: 15),
            [
              "requestType": "GetSourceScreenshot",
              "requestData": ["sourceName": "Confetti", "imageFormat": "png"],
              "save": resized.path,
            ] as [String: Any],
          ],
          "executionType": 1,
        ],
      ], obs: obs)
    XCTAssertEqual((afterResize.first as? [String: Any])?["ok"] as? Bool, true, "\(afterResize)")
    let source = try PNG.read(resized)
    XCTAssertEqual([source.width, source.height], [480, 270], "the source is the canvas's size")
    // The confetti preset's cannons stand in the canvas's bottom corners, whatever its size:
    // pieces on each side (the source alone is transparent where none is).
    for half in [0..<240, 240..<480] {
      var pieces = 0
      for y in 0..<270 { for x in half where source[x, y].alpha > 24 { pieces += 1 } }
      XCTAssertGreaterThan(pieces, 200, "pieces on each side of the resized canvas")
    }
  }

  /// The plugin adds no dependency: OBS's library is not in Depends (most users have no OBS),
  /// and the package says it enhances obs-studio.
  private func assertThePluginDoesNotWeighOnThePackage(_ package: Installed) throws {
    for (field, check) in [("Depends", false), ("Enhances", true)] {
      let info = try runProgram(
        URL(fileURLWithPath: "/usr/bin/dpkg-deb"), ["-f", package.deb.path, field])
      XCTAssertEqual(info.status, 0, info.stderr)
      XCTAssertEqual(info.stdout.contains("obs"), check, "\(field): \(info.stdout)")
    }
  }

  private func inMarker(_ x: Int, _ y: Int) -> Bool {
    x >= Self.marker.x && x < Self.marker.x + Self.marker.width && y >= Self.marker.y
      && y < Self.marker.y + Self.marker.height
  }

  private func distance(_ a: RGBAImage.Pixel, _ b: RGBAImage.Pixel) -> Int {
    max(
      abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)),
      abs(Int(a.blue) - Int(b.blue)))
  }

  /// How far a screenshot is from a reference frame outside the marker: the pixels off by more
  /// than 2 levels, and the largest difference; counted only until more than `giveUpAbove` are
  /// off (a frame that is no better than the best so far).
  private func offPixels(_ shot: RGBAImage, _ frame: RGBAImage, giveUpAbove: Int = .max) -> (
    over2: Int, largest: Int
  ) {
    var (over2, largest) = (0, 0)
    for y in 0..<shot.height where over2 <= giveUpAbove {
      for x in 0..<shot.width where !inMarker(x, y) {
        let off = distance(shot[x, y], frame[x, y])
        if off > 2 { over2 += 1 }
        largest = max(largest, off)
      }
    }
    return (over2, largest)
  }

  private func assertMarkerUnchanged(
    _ shot: RGBAImage, _ plain: RGBAImage, _ how: String, line: UInt = #line
  ) {
    var changed = 0
    for y in 0..<Self.marker.height {
      for x in 0..<Self.marker.width
      where shot[x + Self.marker.x, y + Self.marker.y]
        != plain[x + Self.marker.x, y + Self.marker.y]
      {
        changed += 1
      }
    }
    XCTAssertEqual(
      changed, 0, "\(how): the source above the confetti is drawn as before", line: line)
  }

  private func screenshot(_ file: URL) -> [String: Any] {
    [
      "requestType": "GetSourceScreenshot",
      "requestData": ["sourceName": "Scene", "imageFormat": "png"], "save": file.path,
    ]
  }

  private func sleep(frames: Int) -> [String: Any] {
    ["requestType": "Sleep", "requestData": ["sleepFrames": frames]]
  }

  /// A TCP port nobody listens on now: one the system picked for a socket of ours, let go.
  private func freePort() throws -> Int {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw TestFailure("no socket: errno \(errno)") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
      }
    }
    guard bound else { throw TestFailure("no free port: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// OBS's settings under a home of the test's own: no first-run wizard, obs-websocket on
  /// `port` without a password, a profile with a 640×360 canvas at 30 frames a second, and the
  /// scene collection. Returns the home.
  private func writeOBSConfiguration(in folder: URL, port: Int) throws -> URL {
    let home = folder.appendingPathComponent("home")
    let obs = home.appendingPathComponent(".config/obs-studio")
    let profile = obs.appendingPathComponent("basic/profiles/ConfettiTest")
    let scenes = obs.appendingPathComponent("basic/scenes")
    for directory in [profile, scenes] {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    // LastVersion: 29.0.2 as OBS writes it (major << 24 | minor << 16 | patch).
    try """
    [General]
    FirstRun=true
    LastVersion=486539266
    Pre19Defaults=false
    Pre21Defaults=false
    Pre23Defaults=false
    Pre24.1Defaults=false
    EnableAutoUpdates=false

    [Basic]
    Profile=ConfettiTest
    ProfileDir=ConfettiTest
    SceneCollection=ConfettiTest
    SceneCollectionFile=ConfettiTest

    [OBSWebSocket]
    FirstLoad=false
    ServerEnabled=true
    ServerPort=\(port)
    AlertsEnabled=false
    AuthRequired=false

    """.write(to: obs.appendingPathComponent("global.ini"), atomically: true, encoding: .utf8)
    try """
    [General]
    Name=ConfettiTest

    [Video]
    BaseCX=\(Self.canvas.width)
    BaseCY=\(Self.canvas.height)
    OutputCX=\(Self.canvas.width)
    OutputCY=\(Self.canvas.height)
    FPSType=1
    FPSInt=\(Self.fps)

    """.write(
      to: profile.appendingPathComponent("basic.ini"), atomically: true, encoding: .utf8)
    func item(_ name: String, _ id: Int, x: Int, y: Int) -> [String: Any] {
      [
        "name": name, "id": id, "visible": true, "locked": false, "pos": ["x": x, "y": y],
        "scale": ["x": 1, "y": 1], "rot": 0, "align": 5, "bounds_type": 0,
      ]
    }
    // Colours as OBS keeps them: 0xAABBGGRR.
    let collection: [String: Any] = [
      "name": "ConfettiTest", "current_scene": "Scene", "current_program_scene": "Scene",
      "scene_order": [["name": "Scene"]], "transitions": [], "current_transition": "Fade",
      "transition_duration": 300,
      "sources": [
        [
          "id": "scene", "versioned_id": "scene", "name": "Scene",
          "settings": [
            "id_counter": 3, "custom_size": false,
            "items": [
              item("Backdrop", 1, x: 0, y: 0), item("Confetti", 2, x: 0, y: 0),
              item("Marker", 3, x: Self.marker.x, y: Self.marker.y),
            ],
          ],
        ],
        [
          "id": "color_source_v3", "versioned_id": "color_source_v3", "name": "Backdrop",
          "settings": [
            "color": 0xFF1C_1412, "width": Self.canvas.width, "height": Self.canvas.height,
          ],
        ],
        [
          "id": "confetti_source", "versioned_id": "confetti_source", "name": "Confetti",
          "settings": ["effect": "confetti", "seed": 7],
          "hotkeys": ["confetti.fire": [["key": "OBS_KEY_F9"]], "confetti.stop": []],
        ],
        [
          "id": "color_source_v3", "versioned_id": "color_source_v3", "name": "Marker",
          "settings": [
            "color": 0xFF00_FFFF, "width": Self.marker.width, "height": Self.marker.height,
          ],
        ],
      ],
    ]
    try JSONSerialization.data(withJSONObject: collection, options: [.prettyPrinted]).write(
      to: scenes.appendingPathComponent("ConfettiTest.json"))
    return home
  }

  struct RunningOBS {
    var process: Process
    var output: URL
  }

  /// Starts OBS on `display` with the home's settings, the package's plugin folders and
  /// libraries, and (as root, as CI runs) the toolchain's libraries hidden as for every installed
  /// program here; returns at once.
  private func startOBS(_ package: Installed, home: URL, display: String, plugins: URL) throws
    -> RunningOBS
  {
    let output = home.deletingLastPathComponent().appendingPathComponent("obs-output.txt")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let environment = plainEnvironment(
      package,
      [
        "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
        "DISPLAY": display, "OBS_PLUGINS_PATH": plugins.path,
        "OBS_PLUGINS_DATA_PATH": package.usr.appendingPathComponent("share/obs/obs-plugins").path,
      ])
    // Unattended: no warning about another OBS, no missing-files dialog, this collection,
    // profile and scene.
    let arguments = [
      "--multi", "--disable-missing-files-check", "--collection", "ConfettiTest", "--profile",
      "ConfettiTest", "--scene", "Scene",
    ]
    let log = try FileHandle(forWritingTo: output)
    let process: Process
    if let hidden = Self.toolchainLibraries, getuid() == 0 {
      process = try launch(
        "/usr/bin/unshare",
        ["--mount", "/bin/sh", "-c", "mount -t tmpfs none \"$0\" && exec \"$@\"", hidden]
          + ["/usr/bin/obs"] + arguments,
        environment: environment, output: log, errors: log)
    } else {
      process = try launch(
        "/usr/bin/obs", arguments, environment: environment, output: log, errors: log)
    }
    return RunningOBS(process: process, output: output)
  }

  /// Asks OBS to end (SIGTERM), waits for it (killed after 15 s), and checks that no process
  /// with the test's home is left.
  private func stopOBS(_ process: Process, home: URL) {
    XCTAssertFalse(processes(withHome: home).isEmpty, "OBS is found by its home")
    if process.isRunning {
      let asked = Date()
      process.terminate()
      if !waitFor(timeout: 15, { !process.isRunning }) {
        XCTFail("OBS did not end within 15 s of SIGTERM: killed")
        kill(process.processIdentifier, SIGKILL)
      }
      print("OBS ended \(String(format: "%.1f", Date().timeIntervalSince(asked))) s after SIGTERM")
    }
    process.waitUntilExit()
    let left = waitFor(timeout: 10) { processes(withHome: home).isEmpty }
    XCTAssert(left, "processes left with the test's home: \(processes(withHome: home))")
  }

  /// The processes whose environment has HOME set to `home`: OBS and what it started.
  private func processes(withHome home: URL) -> [String] {
    let wanted = Data("\0HOME=\(home.path)\0".utf8)
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.filter { Int($0) != nil }.filter { pid in
      guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
      else { return false }
      return (Data([0]) + environment).range(of: wanted) != nil
    }
  }

  /// What OBS wrote to its log file (obs-studio/logs/ under the home) this run.
  private func obsLog(_ home: URL) throws -> String {
    let logs = home.appendingPathComponent(".config/obs-studio/logs")
    let files = try FileManager.default.contentsOfDirectory(atPath: logs.path).sorted()
    guard let last = files.last else { throw TestFailure("OBS wrote no log in \(logs.path)") }
    return try String(contentsOf: logs.appendingPathComponent(last), encoding: .utf8)
  }

  /// Sends `steps` to OBS's websocket on `port` (Hosts/obs-request.py) and returns each answer;
  /// `wait` is how long to keep trying to connect. Throws, with OBS's output, when it fails.
  private func obsRequests(_ port: Int, _ steps: [[String: Any]], wait: Double = 0, obs: RunningOBS)
    throws -> [Any]
  {
    let input = try temporaryDirectory().appendingPathComponent("requests.json")
    try JSONSerialization.data(withJSONObject: steps).write(to: input)
    let client = repository.appendingPathComponent(
      "Tests/ConfettiInstalledTests/Hosts/obs-request.py")
    let result = try runProgram(
      URL(fileURLWithPath: "/bin/sh"),
      [
        "-c", "exec /usr/bin/python3 \"$0\" \"$1\" --wait \"$2\" < \"$3\"", client.path, "\(port)",
        "\(wait)", input.path,
      ], timeout: wait + 120)
    guard result.status == 0,
      let answers = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Any]
    else {
      let said = (try? String(contentsOf: obs.output, encoding: .utf8)) ?? ""
      throw TestFailure(
        "obs-websocket: \(result.stderr)\(result.stdout)\nOBS said:\n\(said.suffix(3000))")
    }
    return answers
  }
}
