@preconcurrency import CEpoxy

/// Every piece of GL state the renderers change, read from the context so that it can be put
/// back: the state contract with a host that draws its own scene on the same context.
///
/// Confetti's GL calls run inside ``preserving(_:)``: whatever they set is restored afterwards,
/// as `confetti.h`'s THE GL STATE CONTRACT lists it item by item (the one place the contract is
/// written; these tables are what keeps it).
package struct HostGLState: Equatable {
  /// Capabilities a draw sets, on or off, each with the host's value.
  package static let capabilities: [GLenum] =
    [
      GL_BLEND, GL_SCISSOR_TEST, GL_PROGRAM_POINT_SIZE, GL_DEPTH_TEST, GL_STENCIL_TEST,
      GL_CULL_FACE, GL_RASTERIZER_DISCARD, GL_COLOR_LOGIC_OP, GL_SAMPLE_ALPHA_TO_COVERAGE,
      GL_SAMPLE_ALPHA_TO_ONE, GL_SAMPLE_COVERAGE, GL_SAMPLE_MASK, GL_PRIMITIVE_RESTART,
    ].map { GLenum($0) } + clipDistances

  /// The clip distances GL 3.3 guarantees: the sprite shaders write none, so enabled ones would
  /// clip at random.
  package static let clipDistances = (0..<8).map { GLenum(GL_CLIP_DISTANCE0) + GLenum($0) }

  /// The capabilities a sprite draw turns off, whatever the host left on.
  package static let disabledForSprites: [GLenum] =
    [
      GL_DEPTH_TEST, GL_STENCIL_TEST, GL_CULL_FACE, GL_RASTERIZER_DISCARD, GL_COLOR_LOGIC_OP,
      GL_SAMPLE_ALPHA_TO_COVERAGE, GL_SAMPLE_ALPHA_TO_ONE, GL_SAMPLE_COVERAGE, GL_SAMPLE_MASK,
      // (A restart index among a quad's corners would cut its triangles short.)
      GL_PRIMITIVE_RESTART,
    ].map { GLenum($0) } + clipDistances

  /// Capabilities a sprite draw turns off on a compatibility profile only
  /// (``GLInfo/drawsWholePixelPoints``): point sprites, point smoothing and multisampling (each
  /// would draw points by another rule than the whole-pixel squares the vertex shader sizes;
  /// the first two exist only there), and the alpha test (only there too; it would drop a
  /// piece's smoothed edge).
  package static let compatibilityCapabilities =
    [GL_POINT_SPRITE, GL_POINT_SMOOTH, GL_MULTISAMPLE, GL_ALPHA_TEST].map { GLenum($0) }

  /// The pixel-unpack settings a texture upload depends on; alignment first.
  package static let unpackSettings = [
    GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_PIXELS,
    GL_UNPACK_IMAGE_HEIGHT, GL_UNPACK_SKIP_IMAGES, GL_UNPACK_SWAP_BYTES, GL_UNPACK_LSB_FIRST,
  ]

  /// Integer state read with glGetIntegerv and put back with its own setter.
  package static let integers: [GLenum] =
    ([
      GL_CURRENT_PROGRAM, GL_VERTEX_ARRAY_BINDING, GL_ARRAY_BUFFER_BINDING,
      GL_PIXEL_UNPACK_BUFFER_BINDING, GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, GL_ACTIVE_TEXTURE,
      GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB, GL_BLEND_SRC_ALPHA, GL_BLEND_DST_ALPHA,
      GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA,
    ] + unpackSettings).map { GLenum($0) }

  package var enabled: [Bool]
  package var values: [GLint]
  package var viewport: [GLint]
  package var scissorBox: [GLint]
  package var colorMask: [GLboolean]
  /// How front and back faces are rasterised (fill, lines, points): a quad's triangles and the
  /// light layer's are drawn filled.
  package var polygonMode: [GLint]
  /// Texture unit 0's 2D texture and sampler: the unit the atlas is bound to.
  package var texture2D: GLint
  package var sampler: GLint
  /// Transform-feedback binding 0 (buffer, offset, size; size 0 for a whole-buffer binding):
  /// where the parity tests' probe binds its own buffer, and a host may have bound one.
  package var feedbackBinding: [Int]
  /// The clip origin and depth mode, read where a draw sets them (``GLInfo/hasClipControl``);
  /// nil where not read.
  package var clipControl: [GLint]? = nil
  /// Whether each of ``compatibilityCapabilities`` was enabled, read where a draw turns them off
  /// (``GLInfo/drawsWholePixelPoints``); nil where not read.
  package var compatibilityEnabled: [Bool]? = nil
  /// The colour masks of draw buffers 1 on (four channels each), read where a draw turns them
  /// off (``GLInfo/otherDrawBuffers``); nil where not read.
  package var otherColorMasks: [GLboolean]? = nil
  /// Texture unit 0's level-of-detail bias (glTexEnv's), read where a draw sets it
  /// (``GLInfo/drawsWholePixelPoints``); nil where not read.
  package var lodBias: GLfloat? = nil
  /// What the GL keeps for each draw buffer and viewport: blending, the colour mask, the
  /// viewport and the scissor test and box are read and put back for the first alone.
  package var target = FirstTarget(version: 33)

  /// The state of the current context now. With `draw`, the GL a sprite draw is about to run
  /// on, the state only such a draw sets there too: the clip origin and depth mode
  /// (``GLInfo/hasClipControl``), the ``compatibilityCapabilities``
  /// (``GLInfo/drawsWholePixelPoints``).
  package static func current(drawingOn draw: GLInfo?) -> HostGLState {
    let enabled = capabilities.map { epoxy_glIsEnabled($0) != 0 }
    let values = integers.map(integer)
    var viewport = [GLint](repeating: 0, count: 4)
    epoxy_glGetIntegerv(GLenum(GL_VIEWPORT), &viewport)
    var scissorBox = [GLint](repeating: 0, count: 4)
    epoxy_glGetIntegerv(GLenum(GL_SCISSOR_BOX), &scissorBox)
    var colorMask = [GLboolean](repeating: 0, count: 4)
    epoxy_glGetBooleanv(GLenum(GL_COLOR_WRITEMASK), &colorMask)
    var polygonMode: [GLint] = [GLint(GL_FILL), GLint(GL_FILL)]
    epoxy_glGetIntegerv(GLenum(GL_POLYGON_MODE), &polygonMode)
    // Unit 0's bindings are read with unit 0 active, then the host's unit is made active again.
    var activeTexture: GLint = 0
    epoxy_glGetIntegerv(GLenum(GL_ACTIVE_TEXTURE), &activeTexture)
    epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
    var texture2D: GLint = 0
    epoxy_glGetIntegerv(GLenum(GL_TEXTURE_BINDING_2D), &texture2D)
    var sampler: GLint = 0
    epoxy_glGetIntegerv(GLenum(GL_SAMPLER_BINDING), &sampler)
    var lodBias: GLfloat = 0
    if draw?.drawsWholePixelPoints == true {
      epoxy_glGetTexEnvfv(GLenum(GL_TEXTURE_FILTER_CONTROL), GLenum(GL_TEXTURE_LOD_BIAS), &lodBias)
    }
    epoxy_glActiveTexture(GLenum(activeTexture))
    var feedbackBuffer: GLint = 0
    epoxy_glGetIntegeri_v(GLenum(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING), 0, &feedbackBuffer)
    var range: [GLint64] = [0, 0]
    epoxy_glGetInteger64i_v(GLenum(GL_TRANSFORM_FEEDBACK_BUFFER_START), 0, &range[0])
    epoxy_glGetInteger64i_v(GLenum(GL_TRANSFORM_FEEDBACK_BUFFER_SIZE), 0, &range[1])
    let clip =
      draw?.hasClipControl == true
      ? [GL_CLIP_ORIGIN, GL_CLIP_DEPTH_MODE].map { integer(GLenum($0)) } : nil
    let compatibility =
      draw?.drawsWholePixelPoints == true
      ? compatibilityCapabilities.map { epoxy_glIsEnabled($0) != 0 } : nil
    return HostGLState(
      enabled: enabled, values: values, viewport: viewport, scissorBox: scissorBox,
      colorMask: colorMask, polygonMode: polygonMode, texture2D: texture2D, sampler: sampler,
      feedbackBinding: [Int(feedbackBuffer), Int(range[0]), Int(range[1])], clipControl: clip,
      compatibilityEnabled: compatibility,
      otherColorMasks: draw.map { info in
        info.otherDrawBuffers.flatMap { index in
          var mask = [GLboolean](repeating: 0, count: 4)
          epoxy_glGetBooleani_v(GLenum(GL_COLOR_WRITEMASK), index, &mask)
          return mask
        }
      },
      lodBias: draw?.drawsWholePixelPoints == true ? lodBias : nil,
      target: draw?.firstTarget ?? .current)
  }

  /// The current context's value of integer state `name`.
  private static func integer(_ name: GLenum) -> GLint {
    var value: GLint = 0
    epoxy_glGetIntegerv(name, &value)
    return value
  }

  /// The host's value of integer state `name` (one of ``integers``).
  package func value(_ name: Int32) -> GLint {
    values[Self.integers.firstIndex(of: GLenum(name))!]
  }

  /// The host's scissor box where it has scissoring on: confetti stays inside it too.
  package var scissorClip: PixelRect? {
    guard isEnabled(GL_SCISSOR_TEST) else { return nil }
    return PixelRect(
      x: Int(scissorBox[0]), y: Int(scissorBox[1]), width: Int(scissorBox[2]),
      height: Int(scissorBox[3]))
  }

  /// Whether capability `name` (one of ``capabilities``) was enabled.
  package func isEnabled(_ name: Int32) -> Bool {
    enabled[Self.capabilities.firstIndex(of: GLenum(name))!]
  }

  /// Throws ``GLError/incompleteFramebuffer(status:)`` unless the bound draw framebuffer can be
  /// drawn into: said, not left as the host's GL error.
  package static func requireCompleteFramebuffer() throws {
    let status = epoxy_glCheckFramebufferStatus(GLenum(GL_DRAW_FRAMEBUFFER))
    guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
      throw GLError.incompleteFramebuffer(status: status)
    }
  }

  /// Puts every saved piece of state back on the current context.
  package func restore() {
    let saved = zip(
      Self.capabilities + Self.compatibilityCapabilities, enabled + (compatibilityEnabled ?? []))
    for (capability, on) in saved {
      switch capability {
      case GLenum(GL_BLEND): target.setBlending(on)
      case GLenum(GL_SCISSOR_TEST): target.setScissorTest(on)
      default: if on { epoxy_glEnable(capability) } else { epoxy_glDisable(capability) }
      }
    }
    // A program the host deleted while it was current lived only as long as it stayed current:
    // once another was used, it is gone, and no program is current for the host either.
    let program = GLuint(value(GL_CURRENT_PROGRAM))
    epoxy_glUseProgram(epoxy_glIsProgram(program) != 0 ? program : 0)
    epoxy_glBindVertexArray(GLuint(value(GL_VERTEX_ARRAY_BINDING)))
    epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), GLuint(value(GL_ARRAY_BUFFER_BINDING)))
    epoxy_glBindBuffer(
      GLenum(GL_PIXEL_UNPACK_BUFFER), GLuint(value(GL_PIXEL_UNPACK_BUFFER_BINDING)))
    // Binding 0 first: binding an indexed point binds the generic one too.
    let (buffer, offset, size) = (feedbackBinding[0], feedbackBinding[1], feedbackBinding[2])
    if size > 0 {
      epoxy_glBindBufferRange(
        GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), 0, GLuint(buffer), GLintptr(offset),
        GLsizeiptr(size))
    } else {
      epoxy_glBindBufferBase(GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), 0, GLuint(buffer))
    }
    epoxy_glBindBuffer(
      GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), GLuint(value(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING)))
    if polygonMode[0] == polygonMode[1] {
      epoxy_glPolygonMode(GLenum(GL_FRONT_AND_BACK), GLenum(polygonMode[0]))
    } else {
      // Only a compatibility profile has the two apart (a core profile sets both at once).
      epoxy_glPolygonMode(GLenum(GL_FRONT), GLenum(polygonMode[0]))
      epoxy_glPolygonMode(GLenum(GL_BACK), GLenum(polygonMode[1]))
    }
    epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
    epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), GLuint(texture2D))
    epoxy_glBindSampler(0, GLuint(sampler))
    if let lodBias {
      epoxy_glTexEnvf(GLenum(GL_TEXTURE_FILTER_CONTROL), GLenum(GL_TEXTURE_LOD_BIAS), lodBias)
    }
    epoxy_glActiveTexture(GLenum(value(GL_ACTIVE_TEXTURE)))
    target.setBlendFunctions(
      sourceRGB: GLenum(value(GL_BLEND_SRC_RGB)), destinationRGB: GLenum(value(GL_BLEND_DST_RGB)),
      sourceAlpha: GLenum(value(GL_BLEND_SRC_ALPHA)),
      destinationAlpha: GLenum(value(GL_BLEND_DST_ALPHA)))
    target.setBlendEquations(
      rgb: GLenum(value(GL_BLEND_EQUATION_RGB)), alpha: GLenum(value(GL_BLEND_EQUATION_ALPHA)))
    for name in Self.unpackSettings { epoxy_glPixelStorei(GLenum(name), value(name)) }
    target.setViewport(x: viewport[0], y: viewport[1], width: viewport[2], height: viewport[3])
    target.setScissor(
      x: scissorBox[0], y: scissorBox[1], width: scissorBox[2], height: scissorBox[3])
    target.setColorMask(colorMask)
    let masks = otherColorMasks ?? []
    for start in stride(from: 0, to: masks.count, by: 4) {
      epoxy_glColorMaski(
        GLuint(start / 4 + 1), masks[start], masks[start + 1], masks[start + 2], masks[start + 3])
    }
    if let clipControl { epoxy_glClipControl(GLenum(clipControl[0]), GLenum(clipControl[1])) }
  }

  /// Runs `body`, then restores the state it found (with `draw`, what a sprite draw on that GL
  /// sets too). The particle renderer's entry points save and restore the host's state, through
  /// here or with ``current(drawingOn:)`` and ``restore()`` directly; the bench's baseline
  /// renderer does so around its draw only.
  package static func preserving<T>(drawingOn draw: GLInfo?, _ body: () throws -> T) rethrows
    -> T
  {
    let host = current(drawingOn: draw)
    defer { host.restore() }
    return try body()
  }

  /// The pixel-transfer settings of a compatibility profile that change pixels on their way to
  /// a texture: the scale and bias of each channel (neutral at 1 and 0).
  package static let pixelTransferScales = [
    GL_RED_SCALE, GL_GREEN_SCALE, GL_BLUE_SCALE, GL_ALPHA_SCALE,
  ].map { GLenum($0) }
  package static let pixelTransferBiases = [
    GL_RED_BIAS, GL_GREEN_BIAS, GL_BLUE_BIAS, GL_ALPHA_BIAS,
  ].map { GLenum($0) }

  /// Runs `body` (a texture upload) with a compatibility profile's pixel transfer neutral (no
  /// scale, bias or colour map), then puts the host's back; on a core profile, which has none,
  /// just runs it.
  package static func withoutPixelTransfer(on info: GLInfo, _ body: () -> Void) {
    guard info.drawsWholePixelPoints else { return body() }
    let names = pixelTransferScales + pixelTransferBiases
    let saved = names.map { name in
      var value: GLfloat = 0
      epoxy_glGetFloatv(name, &value)
      return value
    }
    var mapColor: GLboolean = 0
    epoxy_glGetBooleanv(GLenum(GL_MAP_COLOR), &mapColor)
    for name in pixelTransferScales { epoxy_glPixelTransferf(name, 1) }
    for name in pixelTransferBiases { epoxy_glPixelTransferf(name, 0) }
    epoxy_glPixelTransferi(GLenum(GL_MAP_COLOR), GLint(GL_FALSE))
    body()
    for (name, value) in zip(names, saved) { epoxy_glPixelTransferf(name, value) }
    epoxy_glPixelTransferi(GLenum(GL_MAP_COLOR), GLint(mapColor))
  }

  /// Sets what texture uploads need, whatever the host left: tightly packed rows read from
  /// client memory, not from a pixel-unpack buffer.
  package static func resetUnpacking() {
    epoxy_glBindBuffer(GLenum(GL_PIXEL_UNPACK_BUFFER), 0)
    for name in unpackSettings {
      epoxy_glPixelStorei(GLenum(name), name == GL_UNPACK_ALIGNMENT ? 1 : 0)
    }
  }
}
