@preconcurrency import CEpoxy

/// A GL 3.3 context with no window and no display, through EGL: a compatibility profile where
/// the driver offers one (its points are whole-pixel squares, which Mesa's llvmpipe draws
/// faster: ``GLInfo/drawsWholePixelPoints``), else a core profile.
///
/// It tries EGL's device platform first (NVIDIA's EGL on a headless server, and Mesa's software
/// device), then Mesa's surfaceless platform. The context is made current without a surface
/// (EGL_KHR_surfaceless_context); draw into an ``OffscreenTarget``.
///
/// A context is current on the thread that made it; use it from that thread only.
public final class HeadlessContext {
  private let display: EGLDisplay
  private let context: EGLContext
  /// Which EGL platform the context came from, e.g. "device" or "surfaceless".
  public let platform: String
  /// The context's renderer, version and limits.
  public let info: GLInfo

  /// Which profile of GL 3.3 a context is asked for.
  public enum Profile: Sendable {
    /// A compatibility profile, falling back to core where the driver has none: the default.
    case compatibility
    /// A core profile only.
    case core
  }

  /// Makes a context of `profile` (by default a compatibility profile where there is one) and
  /// makes it current.
  public init(profile: Profile = .compatibility) throws {
    if let why = ForkedProcess.whyNoGL { throw GLError.noContext(why) }
    ForkedProcess.noteGL()
    var failures: [String] = []
    for candidate in Self.candidateDisplays() {
      do {
        let context = try Self.makeContext(on: candidate.display, profile: profile)
        guard epoxy_eglMakeCurrent(candidate.display, nil, nil, context) != 0 else {
          _ = epoxy_eglDestroyContext(candidate.display, context)
          throw GLError.noContext("eglMakeCurrent failed: \(Self.eglError())")
        }
        do {
          info = try GLInfo.requireCurrent()
        } catch {
          _ = epoxy_eglMakeCurrent(candidate.display, nil, nil, nil)
          _ = epoxy_eglDestroyContext(candidate.display, context)
          throw error
        }
        (display, self.context, platform) = (candidate.display, context, candidate.platform)
        return
      } catch {
        failures.append("\(candidate.platform): \(error)")
      }
    }
    throw GLError.noContext(
      "no headless OpenGL 3.3 context through EGL ("
        + (failures.isEmpty ? "no EGL platform found" : failures.joined(separator: "; "))
        + "); update the graphics driver, or install Mesa's EGL and DRI drivers "
        + "(libegl-mesa0, libgl1-mesa-dri)")
  }

  /// A second context on `other`'s display that shares its objects (buffers, textures,
  /// programs; never vertex arrays), of the same profile, made current: what a host whose
  /// contexts share has.
  package init(sharingWith other: HeadlessContext) throws {
    let profile: Profile = other.info.drawsWholePixelPoints ? .compatibility : .core
    let context = try Self.makeContext(on: other.display, profile: profile, sharing: other.context)
    guard epoxy_eglMakeCurrent(other.display, nil, nil, context) != 0 else {
      _ = epoxy_eglDestroyContext(other.display, context)
      throw GLError.noContext("eglMakeCurrent failed: \(Self.eglError())")
    }
    (display, self.context, platform) = (other.display, context, other.platform)
    info = try GLInfo.requireCurrent()
  }

  deinit {
    if epoxy_eglGetCurrentContext() == context {
      _ = epoxy_eglMakeCurrent(display, nil, nil, nil)
    }
    _ = epoxy_eglDestroyContext(display, context)
  }

  /// Makes this context current on the calling thread.
  public func makeCurrent() throws {
    guard epoxy_eglMakeCurrent(display, nil, nil, context) != 0 else {
      throw GLError.noContext("eglMakeCurrent failed: \(Self.eglError())")
    }
  }

  private static func candidateDisplays() -> [(platform: String, display: EGLDisplay)] {
    guard epoxy_has_egl_extension(nil, "EGL_EXT_platform_base") else { return [] }
    var displays: [(String, EGLDisplay)] = []
    if epoxy_has_egl_extension(nil, "EGL_EXT_platform_device") {
      var devices = [EGLDeviceEXT?](repeating: nil, count: 8)
      var count: EGLint = 0
      if epoxy_eglQueryDevicesEXT(EGLint(devices.count), &devices, &count) != 0 {
        for device in devices.prefix(Int(count)) {
          if let display = epoxy_eglGetPlatformDisplayEXT(
            EGLenum(EGL_PLATFORM_DEVICE_EXT), device, nil)
          {
            displays.append(("device", display))
          }
        }
      }
    }
    if epoxy_has_egl_extension(nil, "EGL_MESA_platform_surfaceless"),
      let display = epoxy_eglGetPlatformDisplayEXT(
        EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil)
    {
      displays.append(("surfaceless", display))
    }
    return displays
  }

  private static func makeContext(
    on display: EGLDisplay, profile: Profile, sharing shared: EGLContext? = nil
  ) throws -> EGLContext {
    var major: EGLint = 0
    var minor: EGLint = 0
    guard epoxy_eglInitialize(display, &major, &minor) != 0 else {
      throw GLError.noContext("eglInitialize failed: \(eglError())")
    }
    guard epoxy_has_egl_extension(display, "EGL_KHR_surfaceless_context") else {
      throw GLError.noContext("EGL_KHR_surfaceless_context is missing")
    }
    guard epoxy_eglBindAPI(EGLenum(EGL_OPENGL_API)) != 0 else {
      throw GLError.noContext("desktop OpenGL is not offered: \(eglError())")
    }
    let configAttributes: [EGLint] = [
      EGLint(EGL_SURFACE_TYPE), 0, EGLint(EGL_RENDERABLE_TYPE), EGLint(EGL_OPENGL_BIT),
      EGLint(EGL_NONE),
    ]
    var config: EGLConfig?
    var configCount: EGLint = 0
    _ = epoxy_eglChooseConfig(display, configAttributes, &config, 1, &configCount)
    let profiles =
      (profile == .compatibility ? [EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT] : [])
      + [EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT]
    for bit in profiles {
      let contextAttributes: [EGLint] = [
        EGLint(EGL_CONTEXT_MAJOR_VERSION), 3, EGLint(EGL_CONTEXT_MINOR_VERSION), 3,
        EGLint(EGL_CONTEXT_OPENGL_PROFILE_MASK), EGLint(bit), EGLint(EGL_NONE),
      ]
      // Without a config, EGL_KHR_no_config_context lets the context be made anyway.
      if let context = epoxy_eglCreateContext(
        display, configCount > 0 ? config : nil, shared, contextAttributes)
      {
        return context
      }
    }
    throw GLError.noContext("no OpenGL 3.3 context: \(eglError())")
  }

  private static func eglError() -> String {
    let code = epoxy_eglGetError()
    let names: [Int32: String] = [
      EGL_NOT_INITIALIZED: "EGL_NOT_INITIALIZED", EGL_BAD_ACCESS: "EGL_BAD_ACCESS",
      EGL_BAD_ALLOC: "EGL_BAD_ALLOC", EGL_BAD_ATTRIBUTE: "EGL_BAD_ATTRIBUTE",
      EGL_BAD_CONFIG: "EGL_BAD_CONFIG", EGL_BAD_CONTEXT: "EGL_BAD_CONTEXT",
      EGL_BAD_DISPLAY: "EGL_BAD_DISPLAY", EGL_BAD_MATCH: "EGL_BAD_MATCH",
      EGL_BAD_PARAMETER: "EGL_BAD_PARAMETER",
    ]
    return names[code] ?? "EGL error 0x" + String(code, radix: 16)
  }
}
