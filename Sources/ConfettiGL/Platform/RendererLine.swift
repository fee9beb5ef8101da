extension HeadlessContext {
  /// The renderer a headless context gets here, in one line, or why there is none: "llvmpipe
  /// (LLVM 15.0.7, 256 bits), 4.5 (Core Profile) Mesa 23.2.1 (headless; a window may differ)".
  package static var rendererLine: String {
    do {
      let context = try DriverMessages.silenced { try HeadlessContext() }
      return "\(context.info.renderer), \(context.info.version) (headless; a window may differ)"
    } catch {
      return "none: \(error)"
    }
  }
}
