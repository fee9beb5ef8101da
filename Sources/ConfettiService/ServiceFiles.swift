import FoundationEssentials

/// The files that start `confetti service`: D-Bus's, which starts it when it is first called,
/// and systemd's user unit, which keeps it running. The package installs both for
/// /usr/bin/confetti; `confetti service --print FILE` writes them for any program's path.
package enum ServiceFile: String, CaseIterable {
  /// `/usr/share/dbus-1/services/org.confetti.Confetti.service`
  case dbusService = "dbus-service"
  /// `/usr/lib/systemd/user/confetti.service`
  case systemdUnit = "systemd-unit"

  /// Where a system package installs it, under the prefix.
  package var installedPath: String {
    switch self {
    case .dbusService: "share/dbus-1/services/\(ServiceInterface.busName).service"
    case .systemdUnit: "lib/systemd/user/\(ServiceInterface.systemdUnit)"
    }
  }

  /// The running program, by its full path.
  package static var thisProgram: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "confetti"
  }

  /// Its text, starting `program` (a full path).
  package func text(program: String) -> String {
    switch self {
    case .dbusService:
      """
      [D-BUS Service]
      Name=\(ServiceInterface.busName)
      Exec=\(program) service
      SystemdService=\(ServiceInterface.systemdUnit)

      """
    case .systemdUnit:
      """
      [Unit]
      Description=Confetti celebrations for any program over D-Bus
      PartOf=graphical-session.target
      After=graphical-session.target

      [Service]
      Type=dbus
      BusName=\(ServiceInterface.busName)
      ExecStart=\(program) service

      [Install]
      WantedBy=graphical-session.target

      """
    }
  }
}
