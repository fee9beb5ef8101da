import Foundation

/// A D-Bus session bus of a test's own (dbus-daemon with a session bus's configuration, as
/// dbus-run-session starts one), listening in `folder`.
package struct SessionBus {
  package let process: Process
  /// Its address, for DBUS_SESSION_BUS_ADDRESS.
  package let address: String

  /// Starts it, and returns once it listens. `services`: a folder of D-Bus service files it
  /// starts services from; `others`: whether other users may connect too (its folder and
  /// socket open to them), for a service to be the one that refuses them. `environment` is
  /// what it hands the services it starts, over this process's.
  package static func start(
    in folder: URL, services: URL? = nil, others: Bool = false,
    environment: [String: String?] = [:]
  ) throws -> SessionBus {
    let socket = folder.appendingPathComponent("bus").path
    let address = "unix:path=\(socket)"
    let configuration = folder.appendingPathComponent("session.conf")
    try Data(
      """
      <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
      <busconfig>
        <type>session</type>
        <listen>\(address)</listen>
        <auth>EXTERNAL</auth>
        \(services.map { "<servicedir>\($0.path)</servicedir>" } ?? "")
        <policy context="default">
          \(others ? "<allow user=\"*\"/>" : "")
          <allow send_destination="*" eavesdrop="true"/>
          <allow eavesdrop="true"/>
          <allow own="*"/>
        </policy>
      </busconfig>
      """.utf8
    ).write(to: configuration)
    if others {
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
    }
    let process = try launch(
      "/usr/bin/dbus-daemon", ["--config-file=\(configuration.path)", "--nofork", "--nopidfile"],
      environment: environment)
    try waitUntil("the session bus to listen", timeout: 20) {
      FileManager.default.fileExists(atPath: socket)
    }
    if others { chmod(socket, 0o777) }
    return SessionBus(process: process, address: address)
  }

  /// Stops it and waits until it has gone.
  package func stop() {
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
  }
}
