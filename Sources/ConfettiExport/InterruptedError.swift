import Glibc

/// A signal that asks to stop (``Interruption/stopping``) during a render: what was being
/// written is removed.
package struct InterruptedError: Error, CustomStringConvertible {
  /// The signal that asked.
  package var signal: Int32
  /// What became of the files being written, in the library's words.
  package var stopped: RenderStopped

  /// A render stopped by `signal`, its files become what `stopped` says.
  package init(signal: Int32, stopped: RenderStopped) {
    (self.signal, self.stopped) = (signal, stopped)
  }

  /// Which signal, and what became of the files: "interrupted: clip.webm was not written".
  package var description: String {
    "\(signal == SIGINT ? "interrupted" : "stopped by signal \(signal)"): \(stopped)"
  }
}
