import ConfettiPlatform
import Glibc

/// Says once, down the descriptor a celebration handed over (``OverlayHandoff/shownDescriptor``;
/// the overlay's `Overlay.Settings.shownDescriptor`), that the first frame is on screen: the
/// overlay says it so, and the terminal's celebration the same way, and the ``Celebration``
/// that started them waits for it (``Celebration/waitUntilShown(timeout:)``).
package struct OverlayShown {
  /// Where to say it; nil once said, or when nothing was handed over.
  private var descriptor: Int32?
  /// Whether a frame has been shown yet: the timings are told of the first one only.
  private var isFirst = true

  /// Says it down `descriptor`, if any (the timings are told either way).
  package init(descriptor: Int32?) { self.descriptor = descriptor }

  /// After a frame is shown: the first time, one byte, and the descriptor closed.
  package mutating func frameShown() {
    if isFirst {
      isFirst = false
      StartTimings.firstFrameShown()
    }
    guard let descriptor else { return }
    self.descriptor = nil
    var byte: UInt8 = 1
    _ = write(descriptor, &byte, 1)
    close(descriptor)
  }
}
