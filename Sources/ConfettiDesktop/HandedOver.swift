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
