/// What a renderer does with the GL state of the context it draws on, between its calls.
public enum GLStatePolicy: Sendable, Equatable {
  /// Each call reads the state it will change (about fifty `glGet`/`glIsEnabled` queries) and
  /// puts it back before returning: the host may set anything between calls, and finds its own
  /// state as it left it. The default.
  case restore
  /// The renderer sets its state once and keeps it between its calls, asking the GL nothing: a
  /// steady frame (nothing born, the same rectangle) sends one uniform and one draw (on
  /// llvmpipe, one per 16,384 pieces). In exchange the host promises to leave the context's
  /// state as the renderer left it, or to say when it did not (`resetGLStateCache()`), after
  /// which the next draw sets it all again. The host's own draws then start from the
  /// renderer's state (blending on, a scissor box, its program bound), and its scissor box no
  /// longer clips the confetti. Renderers sharing a
  /// context know of each other: one sets its whole state again when another drew last. For a
  /// context the host leaves to confetti, as the confetti program's window and overlay do; in a
  /// debug build a steady frame does not ask the GL for errors either.
  case cache
}
