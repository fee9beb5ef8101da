import CProcess
import Confetti
import ConfettiCelebration
import Glibc

/// What an overlay a celebration started does with what it was handed (``OverlayHandoff``).
extension OverlayHandoff {
  /// Ends this process when `parent` (the `confetti run` that started it) ends, even by
  /// SIGKILL; false when it has ended already, and there is nothing to show.
  package static func endsWith(parent: Int32) -> Bool {
    _ = confetti_end_with_parent()
    return getppid() == parent
  }
}

extension Effect {
  /// The JSON effect at `path`, handed over in a file that is not its home (a celebration's,
  /// ``OverlayHandoff/Effect/jsonFile``): as the library's JSON effects, its relative image
  /// paths are found nowhere, not beside the file.
  package init(handedOver path: String) throws {
    self = try Effect(path: path)
    imageFolder = nil
  }
}

/// A standby overlay's standard input closed with nothing on it: `confetti service` no longer
/// needs it, and it ends quietly, its window never shown.
package struct StandbyDismissed: Error {}

extension WindowSettings {
  /// A standby overlay's settings once it is told what to show (``OverlayHandoff/standby``):
  /// waits for the request on standard input, and takes its effect, seed, duration, loop and
  /// reduced motion (its monitor was the standby's). Throws ``StandbyDismissed`` when the input
  /// closes empty, and the effect's own error when it cannot be loaded.
  package func told() throws -> WindowSettings {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[..<count]
      guard bytes.count <= 1 << 20 else { break }
    }
    guard !bytes.isEmpty else { throw StandbyDismissed() }
    guard let request = OverlayHandoff(request: bytes) else {
      throw WindowError("the standby overlay was told something it cannot read")
    }
    var settings = self
    settings.overlay?.standby = false
    settings.seed = request.seed
    settings.configPath = nil
    switch request.effect {
    case .preset(let name): settings.effect = try .preset(name)
    case .config(let path): (settings.effect, settings.configPath) = (try Effect(path: path), path)
    case .jsonFile(let path): settings.effect = try Effect(handedOver: path)
    case nil: settings.effect = try .preset(Celebration.defaultPreset)
    }
    if request.reduceMotion { settings.reduceMotion = true }
    if let duration = request.duration { settings.overlay?.duration = duration }
    settings.overlay?.loop = request.loop
    return settings
  }
}
