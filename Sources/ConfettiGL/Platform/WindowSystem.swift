import Glibc
import Synchronization

/// The window systems' "which context is current on this thread" functions, those the process
/// has loaded: found in its global scope or in libEGL and libGL/libGLX as loaded by whoever
/// loaded them (libepoxy loads them privately, out of the global scope), never loaded here.
enum WindowSystem {
  /// The context current on this thread, as EGL or GLX names it (nil: neither knows one).
  static var currentContext: UnsafeMutableRawPointer? {
    let (egl, glx) = functions()
    return egl?.context() ?? glx?()
  }

  /// Whether EGL names a context current on this thread that it can no longer answer for (its
  /// display terminated, the context destroyed): EGL_CONTEXT_CLIENT_TYPE cannot be read of it.
  static var eglContextIsDead: Bool {
    guard let egl = functions().egl, let context = egl.context() else { return false }
    var value: Int32 = 0
    return egl.query(egl.display(), context, 0x3097 /* EGL_CONTEXT_CLIENT_TYPE */, &value) == 0
  }

  typealias CurrentContext = @convention(c) () -> UnsafeMutableRawPointer?
  typealias EGLQueryContext =
    @convention(c) (
      UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int32, UnsafeMutablePointer<Int32>
    ) -> UInt32
  typealias EGLFunctions = (
    context: CurrentContext, display: CurrentContext, query: EGLQueryContext
  )

  /// What was found so far: kept once found; looked for again, while missing, whenever
  /// neither found one names a current context (a library loaded since may have it).
  nonisolated(unsafe) private static var found: (egl: EGLFunctions?, glx: CurrentContext?)
  private static let lock = Mutex(())

  /// The EGL and GLX functions the process has loaded. (Once both are found, nothing is asked
  /// here: the caller asks them which context is current.)
  private static func functions() -> (egl: EGLFunctions?, glx: CurrentContext?) {
    lock.withLock { _ in
      if found.egl == nil || found.glx == nil,
        found.egl?.context() == nil, found.glx?() == nil
      {
        if found.egl == nil {
          let names = ["eglGetCurrentContext", "eglGetCurrentDisplay", "eglQueryContext"]
          let symbols = names.map { loadedSymbol($0, in: ["libEGL.so.1", "libEGL.so"]) }
          if let context = symbols[0], let display = symbols[1], let query = symbols[2] {
            found.egl = (
              unsafeBitCast(context, to: CurrentContext.self),
              unsafeBitCast(display, to: CurrentContext.self),
              unsafeBitCast(query, to: EGLQueryContext.self)
            )
          }
        }
        if found.glx == nil,
          let context = loadedSymbol(
            "glXGetCurrentContext", in: ["libGLX.so.0", "libGL.so.1", "libGL.so"])
        {
          found.glx = unsafeBitCast(context, to: CurrentContext.self)
        }
      }
      return found
    }
  }

  /// The function `name` from the process's global scope, or from one of `libraries` if the
  /// process has loaded it (RTLD_NOLOAD: nothing is loaded that was not).
  private static func loadedSymbol(_ name: String, in libraries: [String])
    -> UnsafeMutableRawPointer?
  {
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) { return symbol }
    for library in libraries {
      guard let handle = dlopen(library, RTLD_LAZY | RTLD_NOLOAD) else { continue }
      // Loaded by another, it stays loaded: its functions outlive this handle.
      defer { dlclose(handle) }
      if let symbol = dlsym(handle, name) { return symbol }
    }
    return nil
  }
}
