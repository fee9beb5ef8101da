import ConfettiCore
import ConfettiPlatform
import FoundationEssentials

extension Celebration {
  /// How long ``handOff(_:waits:shouldStop:handing:)`` waits for its celebration to be on the
  /// screen before it leaves it anyway, in seconds.
  package static let showingLimit: Seconds = 10

  /// Throws `options`' celebration over the desktop from this very program, as `confetti run`
  /// does once its command has succeeded; `handing` adds to what the overlay is handed.
  ///
  /// Without `waits`, the celebration an earlier run left on the screen ends, this one starts
  /// over it, and this returns as soon as it is on the screen (or ``showingLimit`` has passed,
  /// or it ended before a frame): it is left to go on by itself, named as the one left
  /// (``LeftCelebration``). With `waits`, this returns once it is over. Either way,
  /// `shouldStop` (asked every 0.1 s) saying true ends it at once. Its first frame on the
  /// screen is marked in ``StartTimings``. Throws ``CelebrationError`` when it cannot be
  /// started or shown (no desktop, no compositor), with the overlay's own reason.
  package static func handOff(
    _ options: CelebrationOptions, waits: Bool, shouldStop: () -> Bool,
    handing: (inout OverlayHandoff) -> Void
  ) throws {
    let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    // One left on the screen by an earlier run ends: this one starts over it.
    if !waits { LeftCelebration.endTheLast() }
    let celebration = try Celebration(
      options, program: me.map { URL(fileURLWithPath: $0) }, environment: nil,
      temporaryFolder: nil, handing: handing, goesOnAlone: !waits)
    if !waits {
      // Back to the caller once it is on the screen (or could not be shown, which is thrown).
      let deadline = Date().addingTimeInterval(showingLimit)
      while !shouldStop() {
        let shown = try celebration.waitUntilShown(timeout: 0.1)
        if shown || Date() >= deadline {
          if shown { StartTimings.firstFrameShown() }
          LeftCelebration.note(celebration.processIdentifier)
          celebration.leave()
          return
        }
        if !celebration.isRunning { return }  // over before a frame: nothing to show
      }
      celebration.close()
      return
    }
    while try !celebration.wait(timeout: 0.1) {
      if shouldStop() { celebration.close() }
      // (Asked only while the stages are to be said: once said, they are not again.)
      if StartTimings.isShown, try celebration.waitUntilShown(timeout: 0) {
        StartTimings.firstFrameShown()
      }
    }
  }
}
