import CProcess
import ConfettiImage
import ConfettiPlatform
import ConfettiProcess
import FoundationEssentials
import Glibc

/// The desktop's own "reduce animations" setting, which the window and the overlay honour as
/// they do `--reduce-motion`: GNOME's `enable-animations` (read with `gsettings`), GTK's
/// `gtk-enable-animations` in its `settings.ini`, and KDE Plasma's animation speed set to
/// instant (`AnimationDurationFactor=0` in `kdeglobals`). Pictures and videos (`render`) and the
/// bench are the same on every desktop: they do not look.
package enum DesktopMotion {
  /// Whether the desktop asks for no animations, in `environment` (`XDG_CONFIG_HOME`, `HOME`).
  package static func isReduced(in environment: [String: String]) -> Bool {
    if let configHome = configurationFolder(in: environment) {
      for gtk in ["gtk-3.0", "gtk-4.0"] {
        let value = iniValue(
          "gtk-enable-animations", in: "Settings", of: "\(configHome)/\(gtk)/settings.ini")
        if let value, ["false", "0", "no"].contains(value.lowercased()) { return true }
      }
      if let factor = iniValue(
        "AnimationDurationFactor", in: "KDE", of: "\(configHome)/kdeglobals"),
        Double(factor) == 0
      {
        return true
      }
      // GNOME's setting kept by GSettings' keyfile backend: an INI file, read as one.
      if environment["GSETTINGS_BACKEND"] == "keyfile" {
        let value = iniValue(
          "enable-animations", in: "org/gnome/desktop/interface",
          of: "\(configHome)/glib-2.0/settings/keyfile")
        return value == "false"
      }
      // GNOME's settings database: asked only where it exists, since asking may create it
      // (reading the desktop's settings never writes files), and where it does not, nothing
      // has turned animations off.
      guard FileManager.default.fileExists(atPath: "\(configHome)/dconf/user") else {
        return false
      }
    }
    return gnomeAnimationsOff(environment)
  }

  /// The largest settings file read, in bytes.
  static let largestSettingsFile = 1_048_576

  /// The value of `key` in section `section` of the INI file at `path`, if it is there.
  package static func iniValue(_ key: String, in section: String, of path: String) -> String? {
    // A settings file is small: a FIFO, a device or a huge file in its place is not read.
    guard let bytes = SmallFile.read(path, atMost: largestSettingsFile) else { return nil }
    let text = String(decoding: bytes, as: UTF8.self)
    var current = ""
    var found: String?
    for line in text.split(whereSeparator: \.isNewline) {
      let line = line.trimmed
      if line.hasPrefix("[") && line.hasSuffix("]") {
        current = String(line.dropFirst().dropLast())
      } else if current == section, let equals = line.firstIndex(of: "="),
        line[..<equals].trimmed == key
      {
        found = line[line.index(after: equals)...].trimmed
      }
    }
    return found
  }

  /// GNOME's setting, through `gsettings` where it and GNOME's schema are installed; false
  /// when it cannot tell within two seconds (a loaded machine can take one to start it).
  private static func gnomeAnimationsOff(_ environment: [String: String]) -> Bool {
    let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
      .map { "\($0)/gsettings" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let path,
      FileManager.default.fileExists(
        atPath: "/usr/share/glib-2.0/schemas/org.gnome.desktop.interface.gschema.xml")
    else { return false }
    var pipe: [Int32] = [-1, -1]
    guard confetti_private_pipe(&pipe) == 0 else { return false }
    defer { close(pipe[0]) }
    let started = spawnProgram(
      [path, "get", "org.gnome.desktop.interface", "enable-animations"],
      environment: environment, output: pipe[1], closingTheRest: true)
    close(pipe[1])
    guard case .success(let child) = started else { return false }
    let deadline = Date().addingTimeInterval(2)
    var ending: Int32 = 0
    while waitpid(child, &ending, WNOHANG) == 0 {
      guard Date() < deadline else {
        kill(child, SIGKILL)
        waitpid(child, &ending, 0)
        return false
      }
      usleep(10_000)
    }
    // Its answer is a word: what is in the pipe once it has ended.
    var bytes = [UInt8](repeating: 0, count: 64)
    let count = read(pipe[0], &bytes, bytes.count)
    let answer = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
    return confetti_exit_status(ending) == 0
      && answer.trimmed == "false"
  }
}
