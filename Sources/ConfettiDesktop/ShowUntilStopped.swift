import ConfettiPlatform

extension WindowSettings {
  /// Runs the window, or the overlay where these settings have one, as the program does: a
  /// stopping signal (``Interruption``) ends it as if it were closed, the overlay within
  /// ``Interruption/promptEnd`` whatever it waits for (a window manager, the driver), having
  /// run `beforeEnding` first.
  package func showUntilStopped(beforeEnding: @escaping @Sendable () -> Void) throws {
    var settings = self
    settings.shouldStop = { Interruption.caught != nil }
    if settings.overlay != nil {
      Interruption.watch(endingWithin: Interruption.promptEnd, beforeEnding: beforeEnding)
      try Overlay.run(settings)
    } else {
      try WindowApp(settings).run()
    }
  }
}
