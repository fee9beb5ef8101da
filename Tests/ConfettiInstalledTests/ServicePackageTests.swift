import ConfettiService
import ConfettiTestSupport
import Foundation
import XCTest

/// The session service as the package installs it: the files that start it, written as the
/// program writes them for /usr/bin/confetti, and the installed program answering a call on a
/// bus of its own with no Swift toolchain (GIO loaded from the system when it starts).
extension PackageTests {
  func testThePackageInstallsWhatStartsTheServiceAndItsProgramAnswers() throws {
    let package = try installed()
    for file in ServiceFile.allCases {
      let installed = package.usr.appendingPathComponent(file.installedPath)
      XCTAssertEqual(
        try String(contentsOf: installed, encoding: .utf8),
        file.text(program: "/usr/bin/confetti"), "\(file.installedPath)")
    }
    try requireTools(["/usr/bin/dbus-daemon", "/usr/bin/gdbus"], for: "the session service")
    let started = try SessionBus.start(in: try temporaryDirectory())
    let bus = started.process
    defer { started.stop() }
    let address = started.address
    var answer: RunResult?
    // No display: the call is taken, and refused as a celebration that cannot be shown.
    let service = try runInstalled(
      package.program, ["service"], package,
      environment: ["DBUS_SESSION_BUS_ADDRESS": address, "DISPLAY": ""], timeout: 120,
      whileRunning: {
        let gdbus = URL(fileURLWithPath: "/usr/bin/gdbus")
        let environment = ["DBUS_SESSION_BUS_ADDRESS": address]
        let waited = try runProgram(
          gdbus, ["wait", "--session", "--timeout", "60", ServiceInterface.busName],
          environment: environment, timeout: 90)
        XCTAssertEqual(waited.status, 0, waited.stderr)
        answer = try runProgram(
          gdbus,
          [
            "call", "--session", "--dest", ServiceInterface.busName, "--object-path",
            ServiceInterface.objectPath, "--method",
            "\(ServiceInterface.interface).\(ServiceInterface.celebrate)", "", "{}",
          ], environment: environment, timeout: 90)
        // The bus's end ends the service.
        bus.terminate()
      })
    let call = try XCTUnwrap(answer)
    XCTAssertTrue(call.stderr.contains("Error.Desktop"), call.stderr)
    XCTAssertTrue(call.stderr.contains("DISPLAY"), call.stderr)
    XCTAssertFalse(service.stderr.contains("Swift"), service.stderr)
  }
}
