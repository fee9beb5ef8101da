import ConfettiImage
import ConfettiService
import ConfettiTestSupport
import Foundation
import XCTest

/// `confetti service` on a private session bus of its own (dbus-daemon with a session
/// configuration, as dbus-run-session starts one) over an X display with a compositing manager,
/// called with gdbus as any program would call it: D-Bus starts it on the first call, a call is
/// answered once its celebration is on the screen, the signal says when it is over, bad calls
/// and other users are refused, and a flood makes few celebrations.
final class SessionServiceTests: XCTestCase {
  private var display = ""
  private var xvfb: Process?
  private var compositor: Process?
  private var bus: Process?
  private var folder: URL!
  private var address = ""

  override func setUpWithError() throws {
    try requireTools(
      ["/usr/bin/dbus-daemon", "/usr/bin/gdbus", "/usr/bin/xcompmgr", "/usr/bin/ffmpeg"],
      for: "the session service")
    let started = try startXvfb(size: "640x480x24")
    (display, xvfb) = (started.name, started.server)
    compositor = try launchCompositor(display: display)
    folder = try temporaryDirectory()
    let services = folder.appendingPathComponent("services")
    try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
    // D-Bus's file for the service, as the program writes it for itself (the package installs
    // the same for /usr/bin/confetti).
    let file = try confetti(["service", "--print", "dbus-service"])
    XCTAssertEqual(file.status, 0, file.stderr)
    XCTAssertTrue(file.stdout.contains("Exec=\(confettiBinary.path) service"), file.stdout)
    try Data(file.stdout.utf8).write(
      to: services.appendingPathComponent("\(ServiceInterface.busName).service"))
    // Others may reach the bus, so that the service, not the bus, is what refuses them. The bus
    // hands its environment to the service it starts: the display is the test's.
    let session = try SessionBus.start(
      in: folder, services: services, others: true,
      environment: ["DISPLAY": display, "WAYLAND_DISPLAY": nil, "DBUS_SESSION_BUS_ADDRESS": nil])
    (bus, address) = (session.process, session.address)
  }

  override func tearDown() {
    // The bus's end ends the service (it loses its bus), whose overlays end with it.
    let service = self.service()
    let left = service.map { [$0] + StatReader(pid: $0).children().map(\.pid) } ?? []
    for process in [bus, compositor].compactMap({ $0 }) where process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    let ended = waitFor(timeout: 10) { left.allSatisfy { StatReader(pid: $0).hasEnded } }
    for pid in left { kill(pid, SIGKILL) }
    if let xvfb { stopXvfb(xvfb) }
    XCTAssertTrue(ended, "the service and its overlays ended with their bus")
  }

  /// The service on this test's bus, if it runs: the process the bus knows as the owner of its
  /// name (D-Bus starts it detached, not as its own child).
  private func service() -> pid_t? {
    guard let bus, bus.isRunning,
      let asked = try? runProgram(
        URL(fileURLWithPath: "/usr/bin/gdbus"),
        [
          "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
          "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID",
          ServiceInterface.busName,
        ], environment: ["DBUS_SESSION_BUS_ADDRESS": address]),
      asked.status == 0
    else { return nil }
    // "(uint32 1234,)"
    return asked.stdout.split(separator: " ").last.flatMap { pid_t($0.filter(\.isNumber)) }
  }

  /// `gdbus call … Celebrate effect options` on the private bus, as `user` if given.
  private func celebrate(
    _ effect: String, _ options: String = "{}", user: String? = nil
  ) throws -> RunResult {
    try Self.celebrate(effect, options, user: user, address: address)
  }

  private static func celebrate(
    _ effect: String, _ options: String, user: String?, address: String
  ) throws -> RunResult {
    var arguments = [
      "call", "--session", "--timeout", "150", "--dest", ServiceInterface.busName,
      "--object-path", ServiceInterface.objectPath, "--method",
      "\(ServiceInterface.interface).\(ServiceInterface.celebrate)", effect, options,
    ]
    var program = URL(fileURLWithPath: "/usr/bin/gdbus")
    if let user {
      arguments = ["--reuid", user, "--regid", user, "--clear-groups", program.path] + arguments
      program = URL(fileURLWithPath: "/usr/bin/setpriv")
    }
    return try runProgram(
      program, arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": address], timeout: 180)
  }

  /// Watches the service's signals (gdbus monitor) into a file, returned once it watches.
  private func monitor() throws -> (Process, URL) {
    let log = folder.appendingPathComponent("monitor-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let watcher = try launch(
      "/usr/bin/gdbus", ["monitor", "--session", "--dest", ServiceInterface.busName],
      environment: ["DBUS_SESSION_BUS_ADDRESS": address], output: try FileHandle(forWritingTo: log))
    XCTAssertTrue(
      waitFor(timeout: 20) {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("Monitoring signals")
      }, "gdbus monitor never started")
    return (watcher, log)
  }

  /// How many pixels of the display's screen are not black (Xvfb's screen, with no window).
  private func litPixels() throws -> Int {
    let shot = folder.appendingPathComponent("shot-\(UUID().uuidString).png")
    let grab = try runProgram(
      URL(fileURLWithPath: "/usr/bin/ffmpeg"),
      [
        "-loglevel", "error", "-f", "x11grab", "-video_size", "640x480", "-i", display,
        "-frames:v", "1", shot.path,
      ])
    XCTAssertEqual(grab.status, 0, grab.stderr)
    let image = try PNG.read(shot)
    return image.difference(
      from: RGBAImage(width: 640, height: 480, fill: image[0, 0]), threshold: 24
    )
    .pixels
  }

  func testACallStartsTheServiceShowsTheCelebrationAndSaysWhenItIsOver() throws {
    XCTAssertNil(service(), "no service runs before the first call")
    let call = try celebrate("", "{'seed': <uint64 3>}")
    XCTAssertEqual(call.status, 0, call.stderr)
    XCTAssertEqual(call.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "(uint32 1,)")
    // Answered once on the screen: the overlay shows over the black screen now.
    XCTAssertGreaterThan(try litPixels(), 50, "the celebration is on the screen")
    // (Watched from now: gdbus monitor would start the service itself.)
    let (watcher, log) = try monitor()
    defer { watcher.terminate() }
    XCTAssertTrue(
      waitFor(timeout: 60) {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains(
          "\(ServiceInterface.interface).\(ServiceInterface.over) (uint32 1,)")
      }, "the signal never said it was over")
    // The next is the overlay made ahead, told what to show.
    let second = try celebrate("tap-burst")
    XCTAssertEqual(second.status, 0, second.stderr)
    XCTAssertEqual(second.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "(uint32 2,)")
  }

  func testBetweenCelebrationsTheServiceAndItsOverlayMadeAheadSleepAndStayTheirSize() throws {
    let (watcher, log) = try monitor()  // which starts the service
    defer { watcher.terminate() }
    func celebrated(_ id: Int) throws {
      let call = try celebrate("tap-burst", "{'seed': <uint64 \(id)>}")
      XCTAssertEqual(call.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "(uint32 \(id),)")
      XCTAssertTrue(
        waitFor(timeout: 60) {
          ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("Over (uint32 \(id),)")
        }, "celebration \(id) never ended")
    }
    try celebrated(1)
    let service = try XCTUnwrap(self.service(), "the service runs")
    let stat = StatReader(pid: service)
    // The next overlay is made ahead once one is shown: waited for, then both asleep.
    let standby = try XCTUnwrap(
      waitForValue(timeout: 30) { stat.children().first { $0.command == "confetti" }?.pid },
      "no overlay made ahead")
    try StatReader(pid: standby).assertAsleep(over: 1, "the overlay made ahead")
    try stat.assertAsleep(over: 1, "the service between celebrations")
    let warm = try stat.residentKiB()
    for id in 2...6 { try celebrated(id) }
    try stat.waitUntilIdle()
    let after = try stat.residentKiB()
    XCTAssertLessThan(abs(after - warm), warm / 10, "RSS went from \(warm) to \(after) KiB")
  }

  func testAnOverlayMadeAheadThatEndedIsReplacedByAFreshOne() throws {
    let first = try celebrate("tap-burst")
    XCTAssertEqual(first.status, 0, first.stderr)
    let service = try XCTUnwrap(self.service(), "the service runs")
    // Once the first is over, its one overlay left is the one made ahead.
    let standby = try XCTUnwrap(
      waitForValue(timeout: 30) { () -> pid_t? in
        let overlays = StatReader(pid: service).children().filter { $0.command == "confetti" }
        return overlays.count == 1 ? overlays[0].pid : nil
      }, "no overlay made ahead")
    // Killed while it waits (as an out-of-memory killer or a crashed display would end it).
    kill(standby, SIGKILL)
    XCTAssertTrue(waitFor { StatReader(pid: standby).hasEnded }, "it never ended")
    let next = try celebrate("tap-burst", "{'seed': <uint64 2>}")
    XCTAssertEqual(next.status, 0, "a fresh overlay shows it: \(next.stderr)")
    XCTAssertEqual(next.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "(uint32 2,)")
  }

  /// `gdbus call … Cancel id`.
  private func cancel(_ id: String) throws -> RunResult {
    try runProgram(
      URL(fileURLWithPath: "/usr/bin/gdbus"),
      [
        "call", "--session", "--dest", ServiceInterface.busName, "--object-path",
        ServiceInterface.objectPath, "--method",
        "\(ServiceInterface.interface).\(ServiceInterface.cancel)", id,
      ], environment: ["DBUS_SESSION_BUS_ADDRESS": address])
  }

  func testCallersThatLeaveAreForgottenAndCelebrationsCancelled() throws {
    // Snow for a long time; four different calls wait behind it, and give up after a second.
    let snow = try celebrate("snow", "{'duration': <120.0>}")
    XCTAssertEqual(snow.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "(uint32 1,)")
    let impatient = try (1...4).map { seed in
      try runProgram(
        URL(fileURLWithPath: "/usr/bin/gdbus"),
        [
          "call", "--session", "--timeout", "1", "--dest", ServiceInterface.busName,
          "--object-path", ServiceInterface.objectPath, "--method",
          "\(ServiceInterface.interface).\(ServiceInterface.celebrate)", "tap-burst",
          "{'seed': <uint64 \(seed)>}",
        ], environment: ["DBUS_SESSION_BUS_ADDRESS": address])
    }
    XCTAssertTrue(impatient.allSatisfy { $0.stderr.contains("Timeout") }, "\(impatient)")
    // Forgotten once they left: a fifth waits in their place, not refused as a fifth.
    let (watcher, log) = try monitor()
    defer { watcher.terminate() }
    nonisolated(unsafe) var waiting: RunResult?
    let busAddress = address
    let waiter = Thread {
      // Until the bus has told the service that they left (an event this side cannot see),
      // the fifth is refused as one too many: asked again then.
      let deadline = Date().addingTimeInterval(30)
      repeat {
        waiting = try? Self.celebrate(
          "tap-burst", "{'seed': <uint64 9>}", user: nil, address: busAddress)
      } while waiting?.stderr.contains("Error.Busy") == true && Date() < deadline
    }
    waiter.start()
    // The snow is cancelled: it ends now, the one waiting is shown.
    let cancelled = try cancel("1")
    XCTAssertEqual(cancelled.status, 0, "Cancel(1): \(cancelled.stderr)")
    XCTAssertTrue(
      waitFor(timeout: 30) {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("Over (uint32 1,)")
      }, "the cancelled snow never ended")
    XCTAssertTrue(waitFor(timeout: 60) { waiter.isFinished }, "the waiting call was never answered")
    let answer = try XCTUnwrap(waiting)
    XCTAssertEqual(answer.status, 0, answer.stderr)
    XCTAssertEqual(
      answer.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "(uint32 6,)",
      "shown next, the forgotten ones never")
    XCTAssertFalse(
      ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("Over (uint32 2,)"),
      "a forgotten celebration was shown")
    let unknown = try cancel("99")
    XCTAssertTrue(unknown.stderr.contains("no celebration 99"), unknown.stderr)
  }

  /// `curl` to the webhook: the status and the body.
  private func post(
    _ port: String, _ body: String?, token: String?, method: String = "POST",
    path: String = "/celebrate", host: String? = nil
  ) throws -> (status: String, body: String) {
    var arguments = [
      "-s", "-S", "-o", "-", "-w", "\n%{http_code}", "-X", method, "--max-time", "120",
    ]
    if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
    if let host { arguments += ["-H", "Host: \(host)"] }
    if let body { arguments += ["-H", "Content-Type: application/json", "--data", body] }
    let run = try runProgram(
      URL(fileURLWithPath: "/usr/bin/curl"), arguments + ["http://127.0.0.1:\(port)\(path)"],
      timeout: 150)
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
  }

  func testTheWebhookTakesCallsWithItsTokenAloneOnThisMachineAlone() throws {
    try requireTools(["/usr/bin/curl"], for: "the service's webhook")
    let config = folder.appendingPathComponent("config")
    let log = folder.appendingPathComponent("service.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let environment: [String: String?] = [
      "DBUS_SESSION_BUS_ADDRESS": address, "DISPLAY": display, "XDG_CONFIG_HOME": config.path,
    ]
    let service = try launch(
      confettiBinary.path, ["service", "--webhook", "0"], environment: environment,
      errors: try FileHandle(forWritingTo: log))
    defer {
      service.terminate()
      service.waitUntilExit()
    }
    // It says where it listens, and where its token is, once it does.
    let said = try XCTUnwrap(
      waitForValue(timeout: 30) { () -> [String]? in
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").first(where: { $0.contains("webhook on") })
        else { return nil }
        return line.split(separator: " ").map(String.init)
      }, "the service never said where its webhook is")
    let url = try XCTUnwrap(said.first { $0.hasPrefix("http://127.0.0.1:") }, "\(said)")
    let port = String(url.dropFirst("http://127.0.0.1:".count).prefix { $0.isNumber })
    let file = config.appendingPathComponent("confetti/webhook-token")
    XCTAssertEqual(said.last, file.path)
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600, "the token is the user's alone")
    let token = try String(contentsOf: file, encoding: .utf8)
    XCTAssertEqual(token.count, 64)

    for (status, words, request) in [
      ("401", "Authorization: Bearer", try post(port, "{}", token: nil)),
      (
        "401", "Authorization: Bearer",
        try post(port, "{}", token: String(repeating: "0", count: 64))
      ),
      (
        "403", "the Host must be",
        try post(port, "{}", token: token, host: "rebound.example:\(port)")
      ),
      ("405", "POST /celebrate", try post(port, nil, token: token, method: "GET")),
      ("404", "POST /celebrate", try post(port, "{}", token: token, path: "/other")),
      ("400", "the body", try post(port, "{\"effect\": ", token: token)),
      ("400", "takes the options", try post(port, "{\"loop\": true}", token: token)),
      ("422", "no preset named", try post(port, "{\"effect\": \"nosuch\"}", token: token)),
    ] {
      XCTAssertEqual(request.status, status, request.body)
      XCTAssertTrue(request.body.contains(words), "\(status): \(request.body)")
    }
    let shown = try post(port, "{\"effect\": \"tap-burst\", \"seed\": 3}", token: token)
    XCTAssertEqual(shown.status, "200", shown.body)
    XCTAssertEqual(shown.body.trimmingCharacters(in: .whitespacesAndNewlines), #"{"id": 1}"#)
    // A token others may read is not used: the service says so and does not start.
    service.terminate()
    service.waitUntilExit()
    chmod(file.path, 0o644)
    let refused = try confetti(["service", "--webhook", "0"], environment: environment)
    XCTAssertEqual(refused.status, 1)
    XCTAssertTrue(refused.stderr.contains("chmod 600"), refused.stderr)
  }

  func testBadCallsAreRefusedInALineAndTheServiceGoesOn() throws {
    for (effect, options, error, words) in [
      ("nosuch", "{}", "Error.Effect", "no preset named \"nosuch\""),
      ("{\"emitters\": 5", "{}", "Error.Effect", "JSON"),
      ("", "{'colour': <1>}", "InvalidArgs", "takes the options seed, monitor"),
      ("", "{'seed': <'x'>}", "InvalidArgs", "seed must be a whole number"),
      ("", "{'duration': <0.0>}", "InvalidArgs", "0.1 to 86400"),
      ("", "{'loop': <true>}", "InvalidArgs", "not 'loop'"),
    ] {
      let call = try celebrate(effect, options)
      XCTAssertNotEqual(call.status, 0, "\(effect) \(options) was taken")
      XCTAssertTrue(call.stderr.contains(error), "\(effect) \(options): \(call.stderr)")
      XCTAssertTrue(call.stderr.contains(words), "\(effect) \(options): \(call.stderr)")
    }
    // A call of the wrong shape is refused by the bus's own check of the interface.
    let shape = try runProgram(
      URL(fileURLWithPath: "/usr/bin/gdbus"),
      [
        "call", "--session", "--dest", ServiceInterface.busName, "--object-path",
        ServiceInterface.objectPath, "--method",
        "\(ServiceInterface.interface).\(ServiceInterface.celebrate)", "5",
      ], environment: ["DBUS_SESSION_BUS_ADDRESS": address])
    XCTAssertTrue(shape.stderr.contains("InvalidArgs"), shape.stderr)
    let good = try celebrate("tap-burst")
    XCTAssertEqual(good.status, 0, "the service went on: \(good.stderr)")
  }

  /// Makes every call at once, each from a program of its own; returns each one's answer (its
  /// output, or its error) in the order given.
  private func callAtOnce(_ calls: [(String, String)]) -> [String] {
    let group = DispatchGroup()
    let lock = NSLock()
    nonisolated(unsafe) var answers = Array(repeating: "", count: calls.count)
    let address = address
    for (index, (effect, options)) in calls.enumerated() {
      group.enter()
      Thread.detachNewThread {
        let call = try? Self.celebrate(effect, options, user: nil, address: address)
        let answer =
          call.map {
            $0.status == 0 ? $0.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : $0.stderr
          } ?? "gdbus did not run"
        lock.lock()
        answers[index] = answer
        lock.unlock()
        group.leave()
      }
    }
    XCTAssertEqual(group.wait(timeout: .now() + 240), .success, "every call was answered")
    lock.lock()
    defer { lock.unlock() }
    return answers
  }

  func testAFloodMakesOneCelebrationAndOnlyAFewWait() throws {
    // Twenty programs ask for the same at once: those that come within a second of its showing
    // join it, any later one joins the one celebration waiting behind it. (Snow for ten seconds:
    // however slowly their programs start, all come while it falls.)
    let same = callAtOnce(
      Array(repeating: ("snow", "{'duration': <10.0>, 'seed': <uint64 9>}"), count: 20))
    XCTAssertEqual(same.filter { !$0.hasPrefix("(uint32 ") }, [], "every call is answered")
    XCTAssertLessThanOrEqual(Set(same).count, 2, "twenty calls, at most two celebrations: \(same)")
    XCTAssertTrue(same.contains("(uint32 1,)"), "\(same)")
    // While snow falls, five different ones: four wait their turns, the fifth is refused.
    let snow = try celebrate("snow", "{'duration': <5.0>}")
    XCTAssertEqual(snow.status, 0, snow.stderr)
    let different = callAtOnce(
      (1...5).map { ("tap-burst", "{'seed': <uint64 \($0)>}") })
    let refused = different.filter { $0.contains("Error.Busy") }
    XCTAssertEqual(refused.count, 1, "\(different)")
    XCTAssertTrue(
      refused.first?.contains("4 other celebrations are waiting") == true, "\(different)")
    XCTAssertEqual(
      Set(different.filter { $0.hasPrefix("(uint32 ") }).count, 4,
      "each waiting one is a celebration of its own: \(different)")
  }

  func testOtherUsersAreRefused() throws {
    guard getuid() == 0 else { throw XCTSkip("calls as another user need root to make them") }
    let started = try celebrate("tap-burst")
    XCTAssertEqual(started.status, 0, started.stderr)
    let other = try celebrate("tap-burst", user: "65534")
    XCTAssertNotEqual(other.status, 0, "another user's call was taken")
    XCTAssertTrue(other.stderr.contains("AccessDenied"), other.stderr)
    XCTAssertTrue(other.stderr.contains("not user 65534's"), other.stderr)
  }

  func testASecondServiceAndOneWithoutABusEndSayingWhy() throws {
    let first = try celebrate("tap-burst")
    XCTAssertEqual(first.status, 0, first.stderr)
    let second = try confetti(
      ["service"], environment: ["DBUS_SESSION_BUS_ADDRESS": address, "DISPLAY": display])
    XCTAssertEqual(second.status, 1)
    XCTAssertTrue(second.stderr.contains("owns the service's name"), second.stderr)
    let none = try confetti(["service"], environment: ["DBUS_SESSION_BUS_ADDRESS": nil])
    XCTAssertEqual(none.status, 1)
    XCTAssertTrue(none.stderr.hasPrefix("confetti: no session bus"), none.stderr)
  }
}
