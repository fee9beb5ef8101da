@preconcurrency import CEpoxy
import Confetti
import ConfettiCore
import ConfettiGL
import ConfettiGLTestSupport
import Foundation
import XCTest

/// The library as a host program uses it: its GL state survives every call, drawing stays
/// inside the rectangle it is given, GL objects go when released (and when set-up fails), two
/// effects share nothing, and the end of an effect is known exactly.
final class LibraryTests: HeadlessGLTestCase {
  let size = Size(width: 320, height: 180)

  /// State a host might plausibly leave set, none of it what confetti needs. The host's own
  /// objects (a program, a vertex array, a texture, a sampler, three buffers) are made by the
  /// first call and deleted by tearDown.
  private func setUnusualHostState() {
    if hostProgram == nil { makeHostObjects() }
    let program = hostProgram!
    epoxy_glUseProgram(program.id)
    epoxy_glBindVertexArray(hostVertexArray)
    for (buffer, target) in zip(hostBuffers, Self.hostBufferTargets) {
      epoxy_glBindBuffer(GLenum(target), buffer)
    }
    epoxy_glViewport(3, 5, 17, 19)
    epoxy_glScissor(1, 2, 30, 40)
    for on in [
      GL_DEPTH_TEST, GL_STENCIL_TEST, GL_CULL_FACE, GL_COLOR_LOGIC_OP, GL_SAMPLE_MASK,
      GL_SAMPLE_COVERAGE, GL_PRIMITIVE_RESTART, GL_CLIP_DISTANCE0, GL_CLIP_DISTANCE3,
    ] {
      epoxy_glEnable(GLenum(on))
    }
    for off in [GL_BLEND, GL_PROGRAM_POINT_SIZE, GL_SCISSOR_TEST] { epoxy_glDisable(GLenum(off)) }
    epoxy_glBlendFuncSeparate(
      GLenum(GL_SRC_COLOR), GLenum(GL_DST_COLOR), GLenum(GL_ZERO), GLenum(GL_CONSTANT_ALPHA))
    epoxy_glBlendEquationSeparate(GLenum(GL_FUNC_SUBTRACT), GLenum(GL_MAX))
    epoxy_glColorMask(
      GLboolean(GL_TRUE), GLboolean(GL_FALSE), GLboolean(GL_TRUE), GLboolean(GL_FALSE))
    // Faces as outlines; on a compatibility profile, the back ones as corner points.
    epoxy_glPolygonMode(GLenum(GL_FRONT_AND_BACK), GLenum(GL_LINE))
    if context.info.drawsWholePixelPoints {
      epoxy_glPolygonMode(GLenum(GL_BACK), GLenum(GL_POINT))
    }
    // The clip origin at the upper left: sprites placed as the host has it would land upside
    // down, away from where the fragment shader looks for them.
    if context.info.hasClipControl {
      epoxy_glClipControl(GLenum(GL_UPPER_LEFT), GLenum(GL_ZERO_TO_ONE))
    }
    // Where the profile has them: round points, sprites (not whole-pixel squares), and an alpha
    // test that drops every smoothed edge. (Multisampling is on from the start.)
    if context.info.drawsWholePixelPoints {
      for on in [GL_POINT_SPRITE, GL_POINT_SMOOTH, GL_ALPHA_TEST] { epoxy_glEnable(GLenum(on)) }
      epoxy_glAlphaFunc(GLenum(GL_GREATER), 0.99)
    }
    epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
    epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), hostTexture)
    epoxy_glBindSampler(0, hostSampler)
    // And a level-of-detail bias on unit 0, which would blur the atlas.
    if context.info.drawsWholePixelPoints {
      epoxy_glTexEnvf(GLenum(GL_TEXTURE_FILTER_CONTROL), GLenum(GL_TEXTURE_LOD_BIAS), 2.5)
    }
    epoxy_glActiveTexture(GLenum(GL_TEXTURE3))
    epoxy_glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 8)
    epoxy_glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 7)
    // Draw buffer 1 and viewport 1 set apart from the first, where the GL keeps them apart.
    epoxy_glEnablei(GLenum(GL_BLEND), 1)
    epoxy_glColorMaski(1, GLboolean(GL_FALSE), GLboolean(GL_TRUE), GLboolean(GL_FALSE), 1)
    if context.info.firstTarget.blendsPerDrawBuffer {
      epoxy_glBlendFuncSeparatei(
        1, GLenum(GL_SRC_ALPHA), GLenum(GL_ONE), GLenum(GL_ZERO), GLenum(GL_DST_ALPHA))
      epoxy_glBlendEquationSeparatei(1, GLenum(GL_MIN), GLenum(GL_FUNC_REVERSE_SUBTRACT))
    }
    if context.info.firstTarget.hasViewportArray {
      epoxy_glViewportIndexedf(1, 2, 3, 40, 50)
      epoxy_glScissorIndexed(1, 6, 7, 80, 90)
      epoxy_glEnablei(GLenum(GL_SCISSOR_TEST), 1)
    }
  }

  /// What the contract says a call does not touch, which a draw through the light layer binds
  /// or could set (the layer's own framebuffer, its clear): the draw and read framebuffers, the
  /// renderbuffer and the clear colour; and draw buffer 1's blending and colour mask and
  /// viewport 1's box and scissor, which the calls that set the whole state would set too.
  private func untouchedState() -> [Float] {
    var bindings: [GLint] = [0, 0, 0]
    for (index, name) in [
      GL_DRAW_FRAMEBUFFER_BINDING, GL_READ_FRAMEBUFFER_BINDING, GL_RENDERBUFFER_BINDING,
    ].enumerated() {
      epoxy_glGetIntegerv(GLenum(name), &bindings[index])
    }
    var clear: [GLfloat] = [0, 0, 0, 0]
    epoxy_glGetFloatv(GLenum(GL_COLOR_CLEAR_VALUE), &clear)
    var second: [GLint] = [GLint(epoxy_glIsEnabledi(GLenum(GL_BLEND), 1))]
    var mask = [GLboolean](repeating: 0, count: 4)
    epoxy_glGetBooleani_v(GLenum(GL_COLOR_WRITEMASK), 1, &mask)
    second += mask.map(GLint.init)
    func indexed(_ names: [Int32], count: Int) {
      for name in names {
        var values = [GLint](repeating: 0, count: count)
        epoxy_glGetIntegeri_v(GLenum(name), 1, &values)
        second += values
      }
    }
    if context.info.firstTarget.blendsPerDrawBuffer {
      indexed(
        [
          GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB, GL_BLEND_SRC_ALPHA, GL_BLEND_DST_ALPHA,
          GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA,
        ], count: 1)
    }
    if context.info.firstTarget.hasViewportArray {
      indexed([GL_VIEWPORT, GL_SCISSOR_BOX], count: 4)
      second.append(GLint(epoxy_glIsEnabledi(GLenum(GL_SCISSOR_TEST), 1)))
    }
    return bindings.map(Float.init) + clear + second.map(Float.init)
  }

  /// The host's state as a draw saves it: its clip origin too, where the GL has one.
  private func hostState() -> HostGLState {
    HostGLState.current(drawingOn: context.info)
  }

  private var hostProgram: ShaderProgram?
  private var hostVertexArray: GLuint = 0
  private var hostTexture: GLuint = 0
  private var hostSampler: GLuint = 0
  private var hostBuffers = [GLuint](repeating: 0, count: 3)
  private static let hostBufferTargets = [
    GL_ARRAY_BUFFER, GL_PIXEL_UNPACK_BUFFER, GL_TRANSFORM_FEEDBACK_BUFFER,
  ]

  private func makeHostObjects() {
    hostProgram = try! ShaderProgram(
      vertex: ShaderSource(
        fileName: "host.vert", text: "#version 330 core\nvoid main() { gl_Position = vec4(0); }"),
      fragment: ShaderSource(
        fileName: "host.frag",
        text: "#version 330 core\nout vec4 c; void main() { c = vec4(1); }"))
    epoxy_glGenVertexArrays(1, &hostVertexArray)
    epoxy_glGenTextures(1, &hostTexture)
    epoxy_glGenSamplers(1, &hostSampler)
    epoxy_glGenBuffers(3, &hostBuffers)
    for (buffer, target) in zip(hostBuffers, Self.hostBufferTargets) {
      epoxy_glBindBuffer(GLenum(target), buffer)
      epoxy_glBufferData(GLenum(target), 64, nil, GLenum(GL_STATIC_DRAW))
    }
  }

  override func tearDown() {
    if context.info.drawsWholePixelPoints {
      epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
      epoxy_glTexEnvf(GLenum(GL_TEXTURE_FILTER_CONTROL), GLenum(GL_TEXTURE_LOD_BIAS), 0)
    }
    if context.info.hasClipControl {
      epoxy_glClipControl(GLenum(GL_LOWER_LEFT), GLenum(GL_NEGATIVE_ONE_TO_ONE))
    }
    hostProgram?.release()
    epoxy_glDeleteVertexArrays(1, &hostVertexArray)
    epoxy_glDeleteTextures(1, &hostTexture)
    epoxy_glDeleteSamplers(1, &hostSampler)
    epoxy_glDeleteBuffers(3, &hostBuffers)
    super.tearDown()
  }

  func testEveryCallLeavesTheHostsGLStateAsItFoundIt() throws {
    setUnusualHostState()
    let before = hostState()
    XCTAssertEqual(before.value(GL_CURRENT_PROGRAM), GLint(hostProgram!.id))
    XCTAssertTrue(before.isEnabled(GL_DEPTH_TEST))
    if context.info.renderer.hasPrefix("llvmpipe") {
      XCTAssertEqual(before.clipControl, [GL_UPPER_LEFT, GL_ZERO_TO_ONE], "llvmpipe has GL 4.5")
      XCTAssertEqual(
        before.compatibilityEnabled, [true, true, true, true],
        "llvmpipe has a compatibility profile")
    }
    XCTAssertEqual(before.texture2D, GLint(hostTexture))
    XCTAssertEqual(
      before.polygonMode,
      [GL_LINE, context.info.drawsWholePixelPoints ? GL_POINT : GL_LINE].map { GLint($0) })
    // Sparkle's glints are light, drawn through the layer: its framebuffer is bound and the
    // host's bound again, and it is cleared without the host's clear colour.
    epoxy_glClearColor(0.25, 0.5, 0.75, 0.125)
    let untouched = untouchedState()

    // Set-up, images and polygons (the atlas upload), triggers, draws with and without
    // scissoring, capture, and release: each must leave the state alone.
    let system = try ConfettiSystem(preset: "sparkle", size: size, seed: 3)
    XCTAssertEqual(hostState(), before, "creating the system changed the host's state")
    XCTAssertEqual(untouchedState(), untouched, "creating the system")
    system.trigger(.start, time: 1)
    system.trigger(.click, at: Point(x: 100, y: 90), time: 1)
    try system.draw(in: PixelRect(x: 8, y: 4, width: 48, height: 40), time: 1.4)
    XCTAssertEqual(hostState(), before, "drawing changed the host's state")
    XCTAssertEqual(untouchedState(), untouched, "drawing changed the framebuffer or clear colour")
    XCTAssertTrue(system.isAlive(time: 1.4))

    context.info.firstTarget.setScissorTest(true)  // (viewport 1's own is on already)
    let scissored = hostState()
    try system.draw(in: PixelRect(width: 64, height: 64), time: 1.5)
    XCTAssertEqual(hostState(), scissored, "drawing with the host's scissor on")
    XCTAssertEqual(untouchedState(), untouched, "drawing with the host's scissor on")
    context.info.firstTarget.setScissorTest(false)

    let renderer = try ParticleRenderer(capacity: 16, info: context.info)
    var ring = ParticleRing(capacity: 16)
    ring.append([ConfettiParticle()], bornAt: 1)
    try renderer.upload(from: &ring)
    _ = try renderer.capture(slots: 0..<1, at: Tick(1.1))
    renderer.setCellTable(motionTable)
    try renderer.setShapeTable(ShapeTable(), images: [])
    renderer.release()
    XCTAssertEqual(hostState(), before, "capture, tables or release changed the state")

    system.close()
    XCTAssertEqual(hostState(), before, "releasing changed the host's state")
    XCTAssertEqual(untouchedState(), untouched, "capture, tables or release")
    XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR))
  }

  /// A host that draws its own scene as lines (`glPolygonMode`), with primitive restart on at
  /// an index a quad's corners use, changes no picture: neither pieces drawn as quads nor light
  /// laid from its layer (each a pair of triangles) are drawn as outlines or cut short, in either
  /// state policy; the host's mode and restart are its own again afterwards.
  func testAHostsPolygonModeAndPrimitiveRestartChangeNoPicture() throws {
    let frame = try OffscreenTarget(width: 160, height: 90, info: context.info)
    defer { frame.release() }
    let area = Size(width: 160, height: 90)
    func mode() -> [GLint] {
      var modes: [GLint] = [0, 0]
      epoxy_glGetIntegerv(GLenum(GL_POLYGON_MODE), &modes)
      return modes
    }
    func picture(
      _ preset: String, _ primitive: SpritePrimitive, _ policy: GLStatePolicy, lines: Bool
    ) throws -> RGBAImage {
      let system = try ConfettiSystem(preset: preset, size: area, seed: 6, primitive: primitive)
      defer { system.close() }
      system.glStatePolicy = policy
      system.fireOpening(time: 1)
      system.trigger(.click, at: Point(x: 80, y: 45), time: 1)
      frame.bind()
      epoxy_glDisable(GLenum(GL_SCISSOR_TEST))
      GLFrame.clear(to: GLFrame.background)
      epoxy_glPolygonMode(GLenum(GL_FRONT_AND_BACK), GLenum(lines ? GL_LINE : GL_FILL))
      epoxy_glPrimitiveRestartIndex(3)
      if lines { epoxy_glEnable(GLenum(GL_PRIMITIVE_RESTART)) }
      try system.draw(in: frame.rect, time: 1.3)
      if lines, policy == .restore {
        XCTAssertEqual(mode(), [GL_LINE, GL_LINE], "the host's mode is its own again")
        XCTAssertTrue(epoxy_glIsEnabled(GLenum(GL_PRIMITIVE_RESTART)) != 0, "and its restart")
      }
      epoxy_glPolygonMode(GLenum(GL_FRONT_AND_BACK), GLenum(GL_FILL))
      epoxy_glDisable(GLenum(GL_PRIMITIVE_RESTART))
      return try frame.read()
    }
    for (preset, primitive) in [("confetti", SpritePrimitive.quads), ("tap-burst", .points)] {
      let filled = try picture(preset, primitive, .restore, lines: false)
      XCTAssertGreaterThan(
        filled.difference(
          from: RGBAImage(width: 160, height: 90, fill: filled[0, 0]), threshold: 24
        ).pixels, 200, "\(preset) drew")
      for policy in [GLStatePolicy.restore, .cache] {
        let off = try picture(preset, primitive, policy, lines: true).difference(from: filled)
        XCTAssertEqual(off.pixels, 0, "\(preset) as \(primitive), \(policy): \(off.pixels) px")
      }
    }
    XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR))
  }

  /// A compatibility profile's pixel transfer (channel scales and biases, colour maps) set by
  /// the host before a system is made, and a level-of-detail bias on texture unit 0, change
  /// neither the emoji atlas nor a picture, in either state policy; the host's settings are
  /// still its own afterwards.
  func testACompatibilityHostsPixelTransferAndLODBiasChangeNoPicture() throws {
    // (The headless context asks for a compatibility profile first; a core profile has
    // neither setting.)
    XCTAssertTrue(context.info.drawsWholePixelPoints, "a compatibility profile")
    guard context.info.drawsWholePixelPoints else { return }
    let frame = try OffscreenTarget(width: 160, height: 90, info: context.info)
    defer { frame.release() }
    let area = Size(width: 160, height: 90)
    /// Red scaled to nothing, green biased to full, every colour mapped through one-entry maps
    /// of 0, and a bias of 4 mip levels; or all of it neutral again.
    func setHostState(hostile: Bool) {
      epoxy_glPixelTransferf(GLenum(GL_RED_SCALE), hostile ? 0 : 1)
      epoxy_glPixelTransferf(GLenum(GL_GREEN_BIAS), hostile ? 1 : 0)
      epoxy_glPixelTransferi(GLenum(GL_MAP_COLOR), GLint(hostile ? GL_TRUE : GL_FALSE))
      epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
      epoxy_glTexEnvf(
        GLenum(GL_TEXTURE_FILTER_CONTROL), GLenum(GL_TEXTURE_LOD_BIAS), hostile ? 4 : 0)
    }
    /// The host's settings now: red scale, green bias, colour mapping, unit 0's bias.
    func hostSettings() -> [Float] {
      var values: [GLfloat] = [0, 0, 0, 0]
      epoxy_glGetFloatv(GLenum(GL_RED_SCALE), &values[0])
      epoxy_glGetFloatv(GLenum(GL_GREEN_BIAS), &values[1])
      epoxy_glGetFloatv(GLenum(GL_MAP_COLOR), &values[2])
      epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
      epoxy_glGetTexEnvfv(
        GLenum(GL_TEXTURE_FILTER_CONTROL), GLenum(GL_TEXTURE_LOD_BIAS), &values[3])
      return values
    }
    /// A frame of the emoji preset, the system made and drawn under the host's settings (hostile
    /// or not), read back with them neutral (they would change the reading too).
    func picture(_ policy: GLStatePolicy, hostile: Bool) throws -> RGBAImage {
      setHostState(hostile: hostile)
      let system = try ConfettiSystem(preset: "emoji", size: area, seed: 5)
      defer { system.close() }
      system.glStatePolicy = policy
      system.trigger(.start, time: 1)
      system.trigger(.click, at: Point(x: 80, y: 45), time: 1)
      frame.bind()
      epoxy_glDisable(GLenum(GL_SCISSOR_TEST))
      GLFrame.clear(to: GLFrame.background)
      try system.draw(in: frame.rect, time: 1.3)
      if hostile {
        // A caching draw keeps its own bias (0) on the context, as it keeps all of its state.
        let expected: [Float] = [0, 1, 1, policy == .restore ? 4 : 0]
        XCTAssertEqual(hostSettings(), expected, "the host's settings after a \(policy) draw")
      }
      setHostState(hostile: false)
      return try frame.read()
    }
    func differences(_ a: RGBAImage, _ b: RGBAImage) -> Int {
      zip(a.bytes, b.bytes).filter { $0 != $1 }.count
    }
    let plain = try picture(.restore, hostile: false)
    XCTAssertGreaterThan(Set(plain.bytes.chunked(4)).count, 50, "the emoji drew in many colours")
    for policy in [GLStatePolicy.restore, .cache] {
      XCTAssertEqual(differences(try picture(policy, hostile: true), plain), 0, "\(policy)")
    }
    XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR))
  }

  func testACachingSystemDrawsWhatARestoringOneDrawsAndKeepsItsOwnState() throws {
    let frame = try OffscreenTarget(width: 160, height: 90, info: context.info)
    defer { frame.release() }
    frame.bind()
    let area = Size(width: 160, height: 90)
    // (Paper: an effect with light sets its state anew every draw, for its layer.)
    let restoring = try ConfettiSystem(preset: "confetti", size: area, seed: 4)
    let caching = try ConfettiSystem(preset: "confetti", size: area, seed: 4)
    defer {
      restoring.close()
      caching.close()
    }
    XCTAssertEqual(restoring.glStatePolicy, .restore, "restoring is the default")
    caching.glStatePolicy = .cache
    for system in [restoring, caching] {
      system.trigger(.start, time: 1)
      system.trigger(.click, at: Point(x: 80, y: 45), time: 1.05)
    }
    func picture(_ system: ConfettiSystem, at time: Double, in rect: PixelRect? = nil) throws
      -> RGBAImage
    {
      GLFrame.clear(to: GLFrame.background)
      try system.draw(in: rect ?? frame.rect, time: time)
      return try frame.read()
    }
    /// How many bytes of two pictures differ.
    func differences(_ a: RGBAImage, _ b: RGBAImage) -> Int {
      zip(a.bytes, b.bytes).filter { $0 != $1 }.count
    }

    // Frame after frame, births and steady frames alike, the same pictures; and a caching
    // draw leaves the state it found once it has set its own.
    for step in 0...12 {
      let time = 1 + Double(step) / 30
      let expected = try picture(restoring, at: time)
      let before = hostState()
      let drawn = try picture(caching, at: time)
      XCTAssertEqual(differences(drawn, expected), 0, "frame \(step)")
      if step > 0 {
        XCTAssertEqual(hostState(), before, "frame \(step) changed the kept state")
      }
    }

    // Its state is kept, not set again: a host that changes it unannounced changes the next
    // picture (a blend that keeps what is there hides every piece) ...
    let time = 1.5
    let expected = try picture(restoring, at: time)
    epoxy_glBlendFunc(GLenum(GL_ZERO), GLenum(GL_ONE))
    XCTAssertGreaterThan(differences(try picture(caching, at: time), expected), 1000)
    // ... and after it says so, every draw is right again, whatever it left.
    setUnusualHostState()
    caching.resetGLStateCache()
    // For the clear: all of the framebuffer, every channel.
    epoxy_glDisable(GLenum(GL_SCISSOR_TEST))
    epoxy_glColorMask(
      GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
    XCTAssertEqual(differences(try picture(caching, at: time), expected), 0, "after a reset")

    // Two caching systems on one context, drawn in turn: each sets its state again when the
    // other drew last, and draws its own picture (it drew the other's), even once the other
    // is released (its vertex array deleted while bound).
    let other = try ConfettiSystem(preset: "confetti", size: area, seed: 9)
    other.glStatePolicy = .cache
    other.trigger(.key, time: 1)
    let otherRestoring = try ConfettiSystem(preset: "confetti", size: area, seed: 9)
    defer { otherRestoring.close() }
    otherRestoring.trigger(.key, time: 1)
    for step in 0...3 {
      let time = 1.6 + Double(step) / 30
      XCTAssertEqual(
        differences(try picture(other, at: time), try picture(otherRestoring, at: time)), 0)
      XCTAssertEqual(
        differences(try picture(caching, at: time), try picture(restoring, at: time)), 0,
        "turn \(step)")
    }
    other.close()
    XCTAssertEqual(differences(try picture(caching, at: 1.8), try picture(restoring, at: 1.8)), 0)
    XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR))

    // A new rectangle (a resized window) is set without a reset; so is the restoring policy,
    // which leaves the host's state alone again from its first draw.
    let corner = PixelRect(x: 10, y: 5, width: 80, height: 45)
    let cornerExpected = try picture(restoring, at: time, in: corner)
    XCTAssertEqual(differences(try picture(caching, at: time, in: corner), cornerExpected), 0)
    caching.glStatePolicy = .restore
    setUnusualHostState()
    let host = hostState()
    try caching.draw(in: frame.rect, time: time)
    XCTAssertEqual(hostState(), host)
    XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR))
  }

  /// The GL objects a host's own context holds, as a fresh one numbers them: vertex arrays,
  /// buffers and textures from 1 on, and programs, the names a system on another context has.
  private struct OwnObjects {
    var arrays = [GLuint](repeating: 0, count: 16)
    var buffers = [GLuint](repeating: 0, count: 32)
    var textures = [GLuint](repeating: 0, count: 16)
    var programs: [GLuint] = []

    init() {
      epoxy_glGenVertexArrays(GLsizei(arrays.count), &arrays)
      for array in arrays { epoxy_glBindVertexArray(array) }
      epoxy_glBindVertexArray(0)
      epoxy_glGenBuffers(GLsizei(buffers.count), &buffers)
      for buffer in buffers { epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer) }
      epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
      epoxy_glGenTextures(GLsizei(textures.count), &textures)
      for texture in textures { epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), texture) }
      epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), 0)
      programs = (0..<8).map { _ in epoxy_glCreateProgram() }
    }

    /// How many of them the context no longer has.
    var missing: Int {
      arrays.filter { epoxy_glIsVertexArray($0) == 0 }.count
        + buffers.filter { epoxy_glIsBuffer($0) == 0 }.count
        + textures.filter { epoxy_glIsTexture($0) == 0 }.count
        + programs.filter { epoxy_glIsProgram($0) == 0 }.count
    }

    mutating func delete() {
      epoxy_glDeleteVertexArrays(GLsizei(arrays.count), &arrays)
      epoxy_glDeleteBuffers(GLsizei(buffers.count), &buffers)
      epoxy_glDeleteTextures(GLsizei(textures.count), &textures)
      for program in programs { epoxy_glDeleteProgram(program) }
    }
  }

  /// A system is drawn and released with the context it was made on current. With another
  /// current, one of its own or one that shares the system's objects (vertex arrays are never
  /// shared), a draw is refused with GLError.otherContext and draws nothing, and a release
  /// deletes nothing there: that context's own objects, of the same names, live on.
  func testAnotherContextIsRefusedAndItsObjectsAreNeverTouched() throws {
    for sharing in [false, true] {
      try checkAnotherContext(sharing: sharing)
    }
    // Its own context still draws what the test case draws, unharmed.
    target.bind()
    XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR))
  }

  /// A context made after the system's was destroyed may be given its address (EGL and GLX
  /// name contexts by address): it is another all the same. What tells them apart is the
  /// renderer's mark on its own vertex array, which no other context has, though that context
  /// has objects of every name the renderer's has, whether or not it shares the rest of them
  /// (vertex arrays it never shares): there the renderer does not hold its objects, so a draw
  /// under the restoring policy is refused and a release deletes nothing. (A hostile test found
  /// the old library drawing with the new context's objects, and its destroy deleting them.)
  func testAContextAtTheAddressOfTheRenderersOwnIsToldApartByItsMark() throws {
    for sharing in [false, true] {
      var ring = ParticleRing(capacity: 4)
      ring.append([ConfettiParticle()], bornAt: 1)
      let renderer = try ParticleRenderer(capacity: 4, info: context.info)
      try renderer.draw(&ring, at: Tick(1.1), in: target.rect, window: size)
      XCTAssertTrue(renderer.holdsItsObjects, "on its own context")
      XCTAssertTrue(renderer.mayReleaseHere)
      let other = sharing ? try HeadlessContext(sharingWith: context) : try HeadlessContext()
      var objects = OwnObjects()
      XCTAssertFalse(renderer.holdsItsObjects, "sharing: \(sharing)")
      XCTAssertFalse(renderer.mayReleaseHere, "sharing: \(sharing)")
      XCTAssertEqual(objects.missing, 0, "that context's objects (sharing: \(sharing))")
      XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR))
      objects.delete()
      _ = other
      try context.makeCurrent()
      XCTAssertTrue(renderer.holdsItsObjects, "on its own context again")
      renderer.release()
    }
    target.bind()
    XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR))
  }

  /// Through the facade: a system told, whichever context is current, that its own is (as the
  /// window system says of a context made at the address of one destroyed) still refuses to
  /// draw on another and spares its objects, by the mark on its vertex array.
  func testAContextAtTheAddressOfTheSystemsOwnIsRefusedAllTheSame() throws {
    for sharing in [false, true] {
      try checkAnotherContext(sharing: sharing, atItsAddress: true)
    }
    target.bind()
    XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR))
  }

  /// A system drawn on its own context, then on another (sharing its objects or not, and
  /// `atItsAddress`: named as the system's own), which holds objects of the same names: the
  /// draw is refused and draws nothing, the release deletes nothing there.
  private func checkAnotherContext(sharing: Bool, atItsAddress: Bool = false) throws {
    let own = try XCTUnwrap(ContextIdentity.current, "EGL names the current context")
    let system = try ConfettiSystem(
      effect: .preset("confetti"), size: size, seed: 2,
      currentContext: atItsAddress ? { own } : { .current })
    system.trigger(.start, time: 1)
    try system.draw(in: target.rect, time: 1.1)  // its objects exist, and records were sent
    let other = sharing ? try HeadlessContext(sharingWith: context) : try HeadlessContext()
    var objects = OwnObjects()
    let about = "sharing: \(sharing), at its address: \(atItsAddress)"
    let frame = try OffscreenTarget(width: 64, height: 64, info: other.info)
    frame.bind()
    GLFrame.clear(to: GLFrame.background)
    let blank = try frame.read()
    XCTAssertThrowsError(try system.draw(in: frame.rect, time: 1.2), about) {
      XCTAssertEqual($0 as? GLError, .otherContext)
      XCTAssert("\($0)".contains("not the one this system was made on"), "\($0)")
    }
    XCTAssert(try frame.read() == blank, "nothing was drawn (\(about))")
    XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR), about)
    // Released there: nothing is deleted (its objects are left to their own context).
    system.close()
    XCTAssertEqual(objects.missing, 0, "that context's objects (\(about))")
    XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR), about)
    objects.delete()
    frame.release()
    try context.makeCurrent()
  }

  /// A host's framebuffer with two draw buffers on: confetti draws into the first and leaves
  /// the second as it was, paper and light alike. (Its shaders write one colour; the other
  /// draw buffer got undefined values, every pixel of the rectangle with light.)
  func testASecondDrawBufferIsLeftAsItWas() throws {
    let side: GLsizei = 64
    var framebuffer: GLuint = 0
    var renderbuffers: [GLuint] = [0, 0]
    epoxy_glGenFramebuffers(1, &framebuffer)
    epoxy_glGenRenderbuffers(2, &renderbuffers)
    defer {
      epoxy_glDeleteFramebuffers(1, &framebuffer)
      epoxy_glDeleteRenderbuffers(2, &renderbuffers)
      target.bind()
    }
    epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
    let attachments = [GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1].map { GLenum($0) }
    for (renderbuffer, attachment) in zip(renderbuffers, attachments) {
      epoxy_glBindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffer)
      epoxy_glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), side, side)
      epoxy_glFramebufferRenderbuffer(
        GLenum(GL_FRAMEBUFFER), attachment, GLenum(GL_RENDERBUFFER), renderbuffer)
    }
    epoxy_glBindRenderbuffer(GLenum(GL_RENDERBUFFER), 0)
    epoxy_glDrawBuffers(2, attachments)
    XCTAssertEqual(
      epoxy_glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)), GLenum(GL_FRAMEBUFFER_COMPLETE))
    /// The pixels of `attachment`.
    func pixels(of attachment: GLenum) -> [UInt8] {
      var bytes = [UInt8](repeating: 0, count: Int(side * side) * 4)
      epoxy_glReadBuffer(attachment)
      epoxy_glReadPixels(0, 0, side, side, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &bytes)
      return bytes
    }
    for (preset, time) in [("confetti", 1.5), ("fireworks", 3.0)] {
      epoxy_glClearBufferfv(GLenum(GL_COLOR), 0, [0, 0, 0, 1])
      epoxy_glClearBufferfv(GLenum(GL_COLOR), 1, [0.5, 0.25, 0.75, 1])
      let second = pixels(of: attachments[1])
      let system = try ConfettiSystem(
        preset: preset, size: Size(width: Double(side), height: Double(side)), seed: 4)
      defer { system.close() }
      system.fireOpening(time: 1)
      try system.draw(in: PixelRect(width: Int(side), height: Int(side)), time: time)
      let first = pixels(of: attachments[0])
      let lit = stride(from: 0, to: first.count, by: 4).filter {
        first[$0..<$0 + 3].contains { $0 > 0 }
      }
      XCTAssertGreaterThan(lit.count, 20, "\(preset) drew into draw buffer 0")
      XCTAssertEqual(pixels(of: attachments[1]), second, "\(preset): draw buffer 1 as it was")
      var mask = [GLboolean](repeating: 0, count: 4)
      epoxy_glGetBooleani_v(GLenum(GL_COLOR_WRITEMASK), 1, &mask)
      XCTAssertEqual(mask, [1, 1, 1, 1], "\(preset): draw buffer 1's mask is the host's again")
    }
    XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR))
  }

  /// A framebuffer with nothing attached, or none at all (a surfaceless context's default), is
  /// refused by a restoring draw with its status named, and no GL error is left for the host.
  func testAnIncompleteFramebufferIsRefusedAndNoErrorIsLeft() throws {
    let system = try ConfettiSystem(preset: "confetti", size: size, seed: 2)
    defer { system.close() }
    system.trigger(.start, time: 1)
    var empty: GLuint = 0
    epoxy_glGenFramebuffers(1, &empty)
    defer { epoxy_glDeleteFramebuffers(1, &empty) }
    for (framebuffer, name) in [
      (empty, "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT"), (0, "GL_FRAMEBUFFER_UNDEFINED"),
    ] {
      epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
      XCTAssertThrowsError(try system.draw(in: PixelRect(width: 64, height: 64), time: 1.2)) {
        guard case .incompleteFramebuffer = $0 as? GLError else {
          return XCTFail("\($0)")
        }
        XCTAssert("\($0)".contains(name), "\($0)")
      }
      XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR), name)
      var bound: GLint = -1
      epoxy_glGetIntegerv(GLenum(GL_DRAW_FRAMEBUFFER_BINDING), &bound)
      XCTAssertEqual(bound, GLint(framebuffer), "the host's framebuffer is still bound")
    }
    target.bind()
    try system.draw(in: target.rect, time: 1.2)
    XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR))
  }

  /// A draw of many points, sent in batches on llvmpipe, asks between batches whether to stop,
  /// and, told to, throws DrawStopped (a render being stopped is not held for seconds).
  func testABigDrawStopsBetweenItsBatchesWhenAsked() throws {
    guard let batch = InstanceArray.batch(for: context.info) else {
      // A GL that takes a draw whole has nothing to stop between (never llvmpipe, CI's GL).
      XCTAssertFalse(context.info.renderer.hasPrefix("llvmpipe"))
      throw XCTSkip("\(context.info.renderer) takes a draw whole: nothing to stop between")
    }
    var cell = CellConfig()
    (cell.count, cell.lifetime) = (3 * batch, Varied(5))
    var emitter = EmitterConfig()
    emitter.cells = [cell]
    var scene = try EffectScene(
      config: EffectConfig(name: "flood", emitters: [emitter]), capacity: 3 * batch, seed: 3)
    scene.trigger(.start, window: size, time: 1)
    XCTAssertEqual(scene.ring.aliveCount(at: 1.5), 3 * batch)
    let renderer = try ParticleRenderer(capacity: scene.ring.capacity, info: context.info)
    defer { renderer.release() }
    renderer.setCellTable(scene.table)
    var asked = 0
    renderer.shouldStop = {
      asked += 1
      return true
    }
    XCTAssertThrowsError(
      try renderer.draw(&scene.ring, at: Tick(1.5), in: target.rect, window: size)
    ) { XCTAssert($0 is DrawStopped, "\($0)") }
    XCTAssertEqual(asked, 1, "asked after the first batch, and stopped there")
    renderer.shouldStop = nil
    try renderer.draw(&scene.ring, at: Tick(1.5), in: target.rect, window: size)
    XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR))
  }

  /// A draw that may be stopped asks at least every so many pixels filled, whatever the
  /// primitive: a frame of huge pieces or long trails is one draw that can take minutes. Given
  /// in parts (here one particle each, and for point sprites a trail copy at a time), it draws
  /// exactly the picture the whole draw does.
  func testADrawThatMayBeStoppedAsksAsItFillsAndDrawsTheSamePicture() throws {
    var cell = CellConfig()
    (cell.count, cell.lifetime, cell.trail) = (40, Varied(5), 3)
    cell.sizes = [Size(width: 30, height: 12)]
    (cell.velocityX, cell.velocityY) = (Varied(0, range: 200), Varied(-150, range: 100))
    var emitter = EmitterConfig()
    emitter.cells = [cell]
    let config = EffectConfig(name: "trails", emitters: [emitter])
    let frame = try OffscreenTarget(width: 320, height: 180, info: context.info)
    defer { frame.release() }
    for primitive in SpritePrimitive.concrete {
      var scene = try EffectScene(config: config, capacity: 64, seed: 9)
      scene.trigger(.start, window: size, time: 1)
      let renderer = try ParticleRenderer(
        capacity: scene.ring.capacity, info: context.info, primitive: primitive)
      defer { renderer.release() }
      renderer.setCellTable(scene.table)
      var asked = 0
      /// The frame drawn whole (`answer` nil), or in parts of one particle, each question to
      /// `shouldStop` answered `answer` (and counted).
      func picture(answering answer: Bool?) throws -> RGBAImage {
        frame.bind()
        GLFrame.clear(to: RGBA8(red: 10, green: 20, blue: 30))
        asked = 0
        renderer.shouldStop = answer.map { answer in
          {
            asked += 1
            return answer
          }
        }
        renderer.pixelsBetweenStopChecks = 1
        try renderer.draw(&scene.ring, at: Tick(1.4), in: frame.rect, window: size)
        return try frame.read()
      }
      let whole = try picture(answering: nil)
      let parts = try picture(answering: false)
      // A part a particle (its copies within it), or for point sprites, a copy of a particle.
      let partsDrawn = primitive == .points ? 4 * 40 : 40
      XCTAssertEqual(asked, partsDrawn - 1, "\(primitive): asked between every two parts")
      XCTAssert(parts.bytes == whole.bytes, "\(primitive): the same picture in parts")
      let drawn = stride(from: 0, to: whole.bytes.count, by: 4).filter {
        whole.bytes[$0..<$0 + 3] != [10, 20, 30]
      }
      XCTAssertGreaterThan(drawn.count, 2000, "\(primitive): pieces and trails drawn")
      // Told to stop, it stops after the first part; then a whole draw is whole again.
      XCTAssertThrowsError(try picture(answering: true)) { XCTAssert($0 is DrawStopped, "\($0)") }
      XCTAssertEqual(asked, 1)
      XCTAssert(try picture(answering: nil).bytes == whole.bytes, "\(primitive): then whole")
      XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR))
    }
  }

  func testDrawingIntoARectangleStaysInsideIt() throws {
    let frame = try OffscreenTarget(width: 200, height: 120, info: context.info)
    defer { frame.release() }
    frame.bind()
    GLFrame.clear(to: RGBA8(red: 0, green: 0, blue: 0))
    // Big pieces everywhere, many with their centre outside the rectangle: their sprites'
    // margins reach past its edges, and the scissor must cut them there.
    var config = try Presets.named("confetti")
    for e in config.emitters.indices {
      config.emitters[e].shape = .rectangle(width: 1.6, height: 1.6)
      for c in config.emitters[e].cells.indices {
        config.emitters[e].cells[c].sizes = [Size(width: 30, height: 30)]
        config.emitters[e].cells[c].count = 400
      }
    }
    let system = try ConfettiSystem(
      effect: Effect(config), size: Size(width: 100, height: 60), seed: 5)
    defer { system.close() }
    for trigger in EmitterTrigger.allCases { system.trigger(trigger, time: 1) }
    let rect = PixelRect(x: 40, y: 30, width: 100, height: 60)
    try system.draw(in: rect, time: 1.2)
    let image = try frame.read()
    var inside = 0
    for y in 0..<image.height {
      for x in 0..<image.width {
        let painted = image[x, y] != RGBAImage.Pixel(red: 0, green: 0, blue: 0)
        // Rows from the top: GL's y = 30…89 are rows 30…89 counted from the bottom.
        let glY = image.height - 1 - y
        let within =
          (rect.x..<rect.x + rect.width).contains(x)
          && (rect.y..<rect.y + rect.height).contains(glY)
        if within {
          inside += painted ? 1 : 0
        } else {
          XCTAssertFalse(painted, "pixel \(x),\(y) is outside the rectangle but painted")
          if painted { return }
        }
      }
    }
    XCTAssertGreaterThan(inside, 1000, "the rectangle should be well covered")
  }

  /// Paper `paper` pt wide and high, turned `turned`°, under a green light 40 pt square in the
  /// middle of the area, and a dim blue light `side` pt square on its own at `lone`.
  private func lights(
    paper: (Int, Int), turned: Int, lone: (x: Double, y: Double, side: Int)
  ) throws -> EffectConfig {
    try EffectConfig.decode(
      """
      {"name": "lights", "emitters": [{"position": {"x": 0.5, "y": 0.5}, "cells": [
        {"count": 1, "lifetime": 5, "gravity": 0, "drag": 0, "rotation": \(turned),
         "sizes": [[\(paper.0), \(paper.1)]], "colors": ["#ff0000"]},
        {"count": 1, "lifetime": 5, "gravity": 0, "drag": 0, "rotation": 0,
         "sizes": [[40, 40]], "colors": ["#00ff00"], "blend": "additive"}]},
        {"position": {"x": \(lone.x), "y": \(lone.y)}, "cells": [
        {"count": 1, "lifetime": 5, "gravity": 0, "drag": 0, "rotation": 0,
         "sizes": [[\(lone.side), \(lone.side)]], "colors": ["#000060"], "blend": "additive"}]}]}
      """)
  }

  func testLightLaidFromItsLayerCoversTheBackdropAsMuchAsItShines() throws {
    // A green light 40 pt square in the middle of the area, over a red paper square twice as
    // big, and a dim blue light on its own to the left.
    let config = try lights(paper: (80, 80), turned: 0, lone: (x: 0.15, y: 0.5, side: 30))
    let frame = try OffscreenTarget(width: 200, height: 120, info: context.info)
    defer { frame.release() }
    frame.bind()
    let rect = PixelRect(x: 30, y: 20, width: 160, height: 90)
    /// The frame after drawing into `rect` over `backdrop`, from the layer or not, twice: the
    /// second draw of a caching system (its state set anew after the layer's) must match.
    func drawn(
      over backdrop: RGBA8, layered: Bool, policy: GLStatePolicy = .cache
    ) throws -> RGBAImage {
      let system = try ConfettiSystem(
        effect: Effect(config), size: Size(width: 160, height: 90), seed: 2)
      defer { system.close() }
      system.glStatePolicy = policy
      system.laysLightOverTheBackdrop = layered
      system.fireOpening(time: 1)
      var pictures: [RGBAImage] = []
      for _ in 0..<2 {
        GLFrame.clear(to: backdrop, whole: true)
        system.resetGLStateCache()  // its scissor box is gone
        try system.draw(in: rect, time: 1.5)
        pictures.append(try frame.read())
      }
      XCTAssertEqual(
        pictures[0].difference(from: pictures[1]).largest, 0, "the second frame is the first")
      return pictures[1]
    }
    let white = RGBA8(red: 255, green: 255, blue: 255)
    // Rows from the top: the area's middle is GL's (110, 65), row 120 - 1 - 65.
    let (middle, lone, outside) = ((110, 54), (30 + 24, 54), (10, 10))
    let added = try drawn(over: white, layered: false)
    XCTAssertEqual(added[middle.0, middle.1], RGBAImage.Pixel(red: 255, green: 255, blue: 0))
    XCTAssertEqual(added[lone.0, lone.1], RGBAImage.Pixel(red: 255, green: 255, blue: 255))
    let laid = try drawn(over: white, layered: true)
    XCTAssertEqual(
      laid[middle.0, middle.1], RGBAImage.Pixel(red: 255, green: 255, blue: 0),
      "light added within the layer")
    XCTAssertEqual(
      laid[lone.0, lone.1], RGBAImage.Pixel(red: 159, green: 159, blue: 255),
      "a dim light covers white as much as it shines: 96/255 of it")
    XCTAssertEqual(laid[outside.0, outside.1], RGBAImage.Pixel(red: 255, green: 255, blue: 255))
    let changed = laid.difference(from: added, threshold: 0).pixels
    XCTAssert((30 * 30...32 * 32).contains(changed), "only the lone light changed: \(changed) px")
    // A host's draw (the restore policy, the library's default) lays it the same way, and
    // within the host's scissor box: one that ends in the middle of the lone light.
    XCTAssertEqual(
      try drawn(over: white, layered: true, policy: .restore).difference(from: laid).largest, 0,
      "a restoring draw lays the light as a caching one does")
    let scissored = try ConfettiSystem(
      effect: Effect(config), size: Size(width: 160, height: 90), seed: 2)
    defer { scissored.close() }
    scissored.fireOpening(time: 1)
    GLFrame.clear(to: white, whole: true)
    epoxy_glEnable(GLenum(GL_SCISSOR_TEST))
    epoxy_glScissor(0, 0, GLsizei(lone.0), 120)
    try scissored.draw(in: rect, time: 1.5)
    epoxy_glDisable(GLenum(GL_SCISSOR_TEST))
    let half = try frame.read()
    XCTAssertEqual(half[lone.0 - 4, lone.1], laid[lone.0 - 4, lone.1], "inside the box: laid")
    XCTAssertEqual(
      half[lone.0 + 4, lone.1], RGBAImage.Pixel(red: 255, green: 255, blue: 255),
      "beyond the host's scissor box: untouched")
    // Over black, the layer is the additive picture exactly; over a transparent backdrop, it
    // is the straight-alpha picture a render writes.
    let black = RGBA8(red: 0, green: 0, blue: 0)
    XCTAssertEqual(
      try drawn(over: black, layered: true).difference(
        from: try drawn(over: black, layered: false)
      ).largest, 0)
    let clear = try drawn(over: .transparent, layered: true)
    XCTAssertEqual(clear[lone.0, lone.1], RGBAImage.Pixel(red: 0, green: 0, blue: 96, alpha: 96))
    XCTAssertEqual(
      clear.unpremultiplied().bytes,
      try drawn(over: .transparent, layered: false).unpremultiplied().bytes)
  }

  /// Told its backdrop is light, a system makes its light vivid (its white taken out, its
  /// brightest channel kept) so that a pale glow shows over white; where no layer lays it over
  /// the backdrop (a render's records' one draw) it also covers it, deepened. Over mid-grey, nothing changes.
  func testOverALightBackdropLightIsMadeVividAndWithoutALayerCoversIt() throws {
    let config = try EffectConfig.decode(
      """
      {"name": "pale", "emitters": [{"position": {"x": 0.5, "y": 0.5}, "cells": [
        {"count": 1, "lifetime": 5, "gravity": 0, "drag": 0, "rotation": 0,
         "sizes": [[40, 40]], "colors": ["#a0c0ff"], "shapes": ["rectangle"],
         "blend": "additive"}]}]}
      """)
    let frame = try OffscreenTarget(width: 160, height: 120, info: context.info)
    defer { frame.release() }
    frame.bind()
    let white = RGBA8(red: 255, green: 255, blue: 255)
    /// The middle pixel; `late`: told the backdrop after a first draw, and drawn again.
    func middle(
      backdrop: RGBA8?, layered: Bool = true, late: Bool = false
    ) throws -> RGBAImage.Pixel {
      let system = try ConfettiSystem(effect: Effect(config), size: Size(width: 160, height: 120))
      defer { system.close() }
      system.laysLightOverTheBackdrop = layered
      if !late { system.backdrop = backdrop }
      system.fireOpening(time: 1)
      GLFrame.clear(to: white, whole: true)
      try system.draw(in: PixelRect(width: 160, height: 120), time: 1.5)
      guard late else { return try frame.read()[80, 60] }
      system.backdrop = backdrop
      GLFrame.clear(to: white, whole: true)
      try system.draw(in: PixelRect(width: 160, height: 120), time: 1.6)
      return try frame.read()[80, 60]
    }
    func assertNear(_ p: RGBAImage.Pixel, _ rgb: (Int, Int, Int), _ what: String) {
      XCTAssertEqual(Int(p.red), rgb.0, accuracy: 2, what)
      XCTAssertEqual(Int(p.green), rgb.1, accuracy: 2, what)
      XCTAssertEqual(Int(p.blue), rgb.2, accuracy: 2, what)
    }
    // (160, 192, 255): its white, 160, taken out, the rest stretched back to 255: (0, 86, 255).
    assertNear(try middle(backdrop: nil), (160, 192, 255), "laid as it shines: pale")
    assertNear(try middle(backdrop: white), (0, 86, 255), "vivid over white")
    assertNear(try middle(backdrop: white, late: true), (0, 86, 255), "told after a draw")
    assertNear(try middle(backdrop: nil, late: true), (160, 192, 255), "and back to none")
    let grey = RGBA8(red: 128, green: 128, blue: 128)
    XCTAssertEqual(try middle(backdrop: grey), try middle(backdrop: nil), "mid-grey: unchanged")
    // With no layer, light adds (white stays white) or, told of white, covers it, deepened by
    // ConfettiPhysics.lightDeepening: (0, 86, 255) × 0.75.
    assertNear(try middle(backdrop: nil, layered: false), (255, 255, 255), "added to white")
    assertNear(try middle(backdrop: white, layered: false), (0, 64, 191), "covering white")
    XCTAssertEqual(ConfettiPhysics.lightDeepening, 0.25)
  }

  /// A rectangle larger than the framebuffer, up to the ends of GL's integers, draws an effect
  /// with light as it draws one without: the light layer covers only what can show. (Fireworks
  /// into a rectangle 10⁸ pixels wide aborted the host inside the GL, which was asked for a
  /// texture that size.)
  func testLightOverARectangleLargerThanTheFramebufferCoversOnlyWhatShows() throws {
    let info = context.info
    let largest = min(info.maxTextureSize, info.maxViewport.width, info.maxViewport.height)
    XCTAssertGreaterThanOrEqual(largest, 1024, "GL 3.3 has textures of 1024 pixels and more")
    let ends = PixelRect(
      x: Int(Int32.min), y: Int(Int32.min), width: Int(Int32.max), height: Int(Int32.max))
    let reaches: [(PixelRect, PixelRect?, PixelRect)] = [
      (ends, nil, PixelRect(width: 0, height: 0)),  // it ends at -1 on both axes
      (
        PixelRect(width: Int(Int32.max), height: Int(Int32.max)), nil,
        PixelRect(width: largest, height: largest)
      ),
      (
        PixelRect(x: -60, y: -40, width: 320, height: 180),
        PixelRect(x: 10, y: 0, width: 50, height: 500),
        PixelRect(x: 10, y: 0, width: 50, height: 140)
      ),
      (
        PixelRect(x: 30, y: 20, width: 160, height: 90), nil,
        PixelRect(x: 30, y: 20, width: 160, height: 90)
      ),
    ]
    for (rect, clip, reach) in reaches {
      XCTAssertEqual(
        ConfettiSystem.lightLayerReach(of: rect, clip: clip, info: info), reach, "\(rect)")
    }
    // Paper and light over black, into a rectangle reaching past the framebuffer on every
    // side: the layer's picture is the additive one exactly, as within the framebuffer.
    let config = try lights(paper: (80, 60), turned: 30, lone: (x: 0.1, y: 0.1, side: 50))
    let frame = try OffscreenTarget(width: 200, height: 120, info: info)
    defer { frame.release() }
    frame.bind()
    let rect = PixelRect(x: -60, y: -40, width: 320, height: 180)
    func drawn(layered: Bool) throws -> RGBAImage {
      let system = try ConfettiSystem(
        effect: Effect(config), size: Size(width: 160, height: 90), seed: 2)
      defer { system.close() }
      system.laysLightOverTheBackdrop = layered
      system.fireOpening(time: 1)
      GLFrame.clear(to: RGBA8(red: 0, green: 0, blue: 0), whole: true)
      try system.draw(in: rect, time: 1.5)
      return try frame.read()
    }
    let laid = try drawn(layered: true)
    XCTAssertEqual(laid.difference(from: try drawn(layered: false)).largest, 0)
    XCTAssertGreaterThan(
      laid.difference(
        from: RGBAImage(width: 200, height: 120, fill: RGBAImage.Pixel(red: 0, green: 0, blue: 0))
      ).pixels, 2000,
      "paper and light were drawn")
    // Fireworks at the ends of GL's integers: drawn, or refused in a line, never an abort.
    let fireworks = try ConfettiSystem(preset: "fireworks", size: Size(width: 200, height: 120))
    defer { fireworks.close() }
    fireworks.fireOpening(time: 1)
    for huge in [
      ends, PixelRect(width: Int(Int32.max), height: Int(Int32.max)),
      PixelRect(width: 100_000_000, height: 1),
      PixelRect(x: 100, y: 50, width: 1 << 30, height: 1 << 30),
    ] {
      try fireworks.draw(in: huge, time: 1.8)
    }
  }

  /// A faded system (how an overlay's snow leaves the screen on time) draws its whole picture
  /// that much fainter, every channel of every pixel, paper and light; at 0 nothing is left;
  /// a caching system's next frame is as strong as asked.
  func testAFadedPictureIsThePictureThatMuchFainter() throws {
    let config = try EffectConfig.decode(
      """
      {"name": "fading", "emitters": [{"position": {"x": 0.5, "y": 0.5}, "cells": [
        {"count": 1, "lifetime": 5, "gravity": 0, "drag": 0, "rotation": 0,
         "sizes": [[80, 80]], "colors": ["#ff8000"]},
        {"count": 1, "lifetime": 5, "gravity": 0, "drag": 0, "rotation": 0,
         "sizes": [[40, 40]], "colors": ["#2040ff"], "blend": "additive"}]}]}
      """)
    let frame = try OffscreenTarget(width: 200, height: 120, info: context.info)
    defer { frame.release() }
    frame.bind()
    let rect = PixelRect(x: 30, y: 20, width: 160, height: 90)
    let system = try ConfettiSystem(
      effect: Effect(config), size: Size(width: 160, height: 90), seed: 2)
    defer { system.close() }
    system.glStatePolicy = .cache
    system.fireOpening(time: 1)
    func drawn(fading fade: Double) throws -> RGBAImage {
      system.fade = fade
      GLFrame.clear(to: .transparent, whole: true)
      system.resetGLStateCache()  // its scissor box is gone
      try system.draw(in: rect, time: 1.5)
      return try frame.read()
    }
    let whole = try drawn(fading: 1)
    let lit = whole.bytes.enumerated().filter { $0.element > 0 }.count
    XCTAssertGreaterThan(lit, 10_000, "the pieces are drawn")
    let half = try drawn(fading: 0.5)
    var worst = 0
    for (index, value) in whole.bytes.enumerated() {
      // Halved, as the GL rounds it: within one level.
      worst = max(worst, abs(Int(half.bytes[index]) * 2 - Int(value)))
    }
    XCTAssertLessThanOrEqual(worst, 2, "every channel halved, alpha too")
    XCTAssertEqual(try drawn(fading: 0).bytes.allSatisfy { $0 == 0 }, true, "nothing is left")
    XCTAssertEqual(
      try drawn(fading: 1).difference(from: whole).largest, 0, "a frame at full strength again")
  }

  func testTwoSystemsOnOneContextRunIndependently() throws {
    let frame = try OffscreenTarget(width: 160, height: 90, info: context.info)
    defer { frame.release() }
    let half = Size(width: 80, height: 90)
    func picture(_ systems: [(ConfettiSystem, PixelRect)], at time: Double) throws -> RGBAImage {
      frame.bind()
      GLFrame.clear(to: GLFrame.background)
      for (system, rect) in systems { try system.draw(in: rect, time: time) }
      return try frame.read()
    }
    let left = PixelRect(x: 0, y: 0, width: 80, height: 90)
    let right = PixelRect(x: 80, y: 0, width: 80, height: 90)
    let snow = try ConfettiSystem(preset: "snow", size: half, seed: 1)
    let burst = try ConfettiSystem(preset: "tap-burst", size: half, seed: 2)
    defer {
      snow.close()
      burst.close()
    }
    snow.trigger(.start, time: 1)
    burst.trigger(.click, at: Point(x: 40, y: 45), time: 1)
    var together: RGBAImage?
    for step in 0...30 {
      together = try picture([(snow, left), (burst, right)], at: 1 + Double(step) / 60)
    }

    // Each alone, from the same seeds and clock readings, draws the same half.
    let snowAlone = try ConfettiSystem(preset: "snow", size: half, seed: 1)
    defer { snowAlone.close() }
    snowAlone.trigger(.start, time: 1)
    var alone: RGBAImage?
    for step in 0...30 { alone = try picture([(snowAlone, left)], at: 1 + Double(step) / 60) }
    let b = GLFrame.background
    let backdrop = RGBAImage.Pixel(red: b.red, green: b.green, blue: b.blue)
    var leftDiffers = 0
    var rightPainted = 0
    for y in 0..<90 {
      for x in 0..<80 where together![x, y] != alone![x, y] { leftDiffers += 1 }
      for x in 80..<160 where together![x, y] != backdrop { rightPainted += 1 }
    }
    XCTAssertEqual(leftDiffers, 0, "the burst beside it changed the snow")
    XCTAssertGreaterThan(rightPainted, 100, "the burst should be drawn on the right")
  }

  func testBadSizesAndCapacitiesAreOneLineErrors() throws {
    let sizes = [
      Size(width: -320, height: 180), Size(width: .nan, height: 10),
      Size(width: 1.5e308, height: 10), Size(width: 10, height: .infinity),
    ]
    for size in sizes {
      XCTAssertThrowsError(try ConfettiSystem(preset: "confetti", size: size)) {
        XCTAssert("\($0)".contains("size must be from 0 to 1048576 points a side"), "\($0)")
      }
    }
    XCTAssertThrowsError(try ConfettiSystem(preset: "confetti", size: size, capacity: 0)) {
      XCTAssertEqual("\($0)", "the capacity must be at least 1 particle, not 0")
    }
    // A click at no place on any screen fires nothing, and leaves nothing alive.
    let clicked = try ConfettiSystem(preset: "tap-burst", size: Size(width: 320, height: 240))
    for point in [Point(x: .nan, y: 10), Point(x: 10, y: .infinity)] {
      clicked.trigger(.click, at: point, time: 1)
    }
    XCTAssertFalse(clicked.isAlive(time: 1), "nothing was born at a NaN or infinite point")
    clicked.trigger(.click, at: Point(x: 100, y: 100), time: 1)
    XCTAssert(clicked.isAlive(time: 1.1))
    clicked.close()
    // Rectangles beyond GL's 32-bit integers are refused in one line, not trapped on; those at
    // their ends are the GL's to clip; a negative or empty one draws nothing.
    let drawing = try ConfettiSystem(preset: "confetti", size: size)
    drawing.trigger(.key, time: 1)
    for rect in [
      PixelRect(x: Int.max, y: 0, width: 10, height: 10),
      PixelRect(x: 0, y: 0, width: Int.max, height: Int.max),
      PixelRect(x: Int.min, y: Int.min, width: 10, height: 10),
      PixelRect(x: 0, y: 0, width: 1 << 31, height: 10),
    ] {
      XCTAssertThrowsError(try drawing.draw(in: rect, time: 1.1)) {
        XCTAssert(
          "\($0)".hasPrefix("a rectangle to draw in has its corner and sides within GL's"), "\($0)")
      }
    }
    try drawing.draw(
      in: PixelRect(
        x: Int(Int32.min), y: Int(Int32.min), width: Int(Int32.max), height: Int(Int32.max)),
      time: 1.1)
    try drawing.draw(in: PixelRect(x: 5, y: 5, width: -100, height: 20), time: 1.1)
    try drawing.draw(
      in: PixelRect(x: 1 << 30, y: -(1 << 30), width: 1 << 30, height: 1 << 30), time: 1.1)
    // The earliest exact reading is one draw takes, before any reading and after some.
    XCTAssertEqual(drawing.earliestExactReading, 0)
    try drawing.draw(in: target.rect, time: drawing.earliestExactReading)
    drawing.close()
    let fresh = try ConfettiSystem(preset: "confetti", size: size)
    XCTAssertEqual(fresh.earliestExactReading, 0, "nothing read yet")
    try fresh.draw(in: target.rect, time: fresh.earliestExactReading)
    fresh.close()
    // A zero size is allowed: nothing is drawn.
    let empty = try ConfettiSystem(preset: "confetti", size: Size(width: 0, height: 0))
    empty.trigger(.key, time: 1)
    try empty.draw(in: target.rect, time: 1.1)
    empty.close()
  }

  func testAConfigurationBuiltInCodeIsCheckedAsAFileIs() throws {
    // Each of these trapped or hung inside the system; now each is one line naming the value.
    let base = try Presets.named("party-popper")
    func changed(_ change: (inout EffectConfig) -> Void) -> EffectConfig {
      var config = base
      change(&config)
      return config
    }
    let cases: [(EffectConfig, String)] = [
      (changed { $0.emitters[0].cells[0].count = -5 }, "$.emitters[0].cells[0].count"),
      (
        changed { $0.emitters[0].cells[0].count = 1_000_000_000_000 },
        "$.emitters[0].cells[0].count"
      ),
      (
        changed { $0.emitters[0].cells[0].lifetime = Varied(.nan) },
        "$.emitters[0].cells[0].lifetime"
      ),
      (changed { $0.emitters[0].cells[0].sizes = [] }, "$.emitters[0].cells[0].sizes"),
      (changed { $0.emitters[0].cells[0].colors = [] }, "$.emitters[0].cells[0].colors"),
      (changed { $0.emitters[0].cells[0].shapes = [] }, "$.emitters[0].cells[0].shapes"),
      (
        changed { $0.emitters[0].cells[0].speed = Varied(.infinity) },
        "$.emitters[0].cells[0].speed"
      ),
      (changed { $0.emitters[1].position.x = .nan }, "$.emitters[1].position.x"),
      (
        changed {
          $0.emitters[0].emission = .timed(duration: 0, fadeOut: 1, taper: true)
          $0.emitters[0].cells[0].birthRate = .nan
        }, "$.emitters[0]"
      ),
      (
        changed { $0.emitters[0].cells = Array(repeating: $0.emitters[0].cells[0], count: 40) },
        "$.emitters"
      ),
      (changed { $0.emitters = [] }, "$.emitters"),
      (
        changed { $0.emitters[0].cells[0].onDeath = ["nothing"] },
        "$.emitters[0].cells[0].onDeath[0]"
      ),
    ]
    for (config, place) in cases {
      XCTAssertThrowsError(try ConfettiSystem(effect: Effect(config), size: size)) {
        let message = "\($0)"
        XCTAssert(message.hasPrefix("the effect's configuration: \(place)"), message)
        XCTAssertFalse(message.contains("\n"), message)
      }
    }
    // The same configuration unchanged runs.
    try ConfettiSystem(effect: Effect(base), size: size).close()
  }

  func testTheEndOfAnEffectIsKnownExactly() throws {
    let system = try ConfettiSystem(preset: "tap-burst", size: size, seed: 9)
    defer { system.close() }
    XCTAssertEqual(system.endTime, -.infinity, "nothing born yet")
    XCTAssertFalse(system.isAlive(time: 0))
    system.trigger(.click, at: Point(x: 160, y: 90), time: 2)
    let end = try XCTUnwrap(system.endTime, "a burst's end is known at once")
    XCTAssertGreaterThan(end, 2)
    XCTAssertTrue(system.isAlive(time: end - 0.01))
    XCTAssertFalse(system.isAlive(time: end))

    // The GPU agrees: a frame before the end still shows pieces, the frame at the end none.
    let frame = try OffscreenTarget(width: 320, height: 180, info: context.info)
    defer { frame.release() }
    func paintedPixels(at time: Double) throws -> Int {
      frame.bind()
      GLFrame.clear(to: RGBA8(red: 0, green: 0, blue: 0))
      try system.draw(in: frame.rect, time: time)
      let bytes = try frame.read().bytes
      return stride(from: 0, to: bytes.count, by: 4).count { i in
        bytes[i] != 0 || bytes[i + 1] != 0 || bytes[i + 2] != 0
      }
    }
    XCTAssertGreaterThan(try paintedPixels(at: end - 0.3), 0, "pieces shortly before the end")
    XCTAssertEqual(try paintedPixels(at: end), 0, "nothing is drawn from the end on")

    // A continuous emitter has no end while it runs; cleared, everything has ended.
    let snow = try ConfettiSystem(preset: "snow", size: size)
    defer { snow.close() }
    snow.trigger(.start, time: 1)
    snow.advance(to: 1.5)
    XCTAssertNil(snow.endTime)
    XCTAssertTrue(snow.isAlive(time: 100))
    snow.clear()
    XCTAssertEqual(snow.endTime, -.infinity)
    XCTAssertFalse(snow.isAlive(time: 1.5))
  }

  // MARK: Lifetimes

  /// The next names the GL will give out, of buffers, vertex arrays, framebuffers and
  /// renderbuffers: made and deleted at once, so a leak among the next few shows as a live name.
  private func nextNames() -> [GLuint] {
    var names = [GLuint](repeating: 0, count: 4)
    epoxy_glGenBuffers(1, &names[0])
    epoxy_glGenVertexArrays(1, &names[1])
    epoxy_glGenFramebuffers(1, &names[2])
    epoxy_glGenRenderbuffers(1, &names[3])
    epoxy_glDeleteBuffers(1, &names[0])
    epoxy_glDeleteVertexArrays(1, &names[1])
    epoxy_glDeleteFramebuffers(1, &names[2])
    epoxy_glDeleteRenderbuffers(1, &names[3])
    return names
  }

  /// Which of the next few names after `first` are live objects.
  private func liveNames(from first: [GLuint]) -> [String] {
    var live: [String] = []
    for offset in 0..<8 {
      let n = first.map { $0 + GLuint(offset) }
      if epoxy_glIsBuffer(n[0]) != 0 { live.append("buffer \(n[0])") }
      if epoxy_glIsVertexArray(n[1]) != 0 { live.append("vertex array \(n[1])") }
      if epoxy_glIsFramebuffer(n[2]) != 0 { live.append("framebuffer \(n[2])") }
      if epoxy_glIsRenderbuffer(n[3]) != 0 { live.append("renderbuffer \(n[3])") }
    }
    return live
  }

  func testReleaseAndDeinitDeleteEveryGLObject() throws {
    var ring = ParticleRing(capacity: 8)
    ring.append([ConfettiParticle()], bornAt: 1)
    func isLive(_ names: (vertexArray: GLuint, buffers: [GLuint], programs: [GLuint])) -> [Bool] {
      [epoxy_glIsVertexArray(names.vertexArray) != 0]
        + names.programs.map { epoxy_glIsProgram($0) != 0 }
        + names.buffers.map { epoxy_glIsBuffer($0) != 0 }
    }
    let released = try ParticleRenderer(capacity: 8, info: context.info)
    XCTAssertEqual(feedbackOutputs(released.objectNames.programs[0]), 0, "a drawing program")
    let names = released.objectNames
    XCTAssertEqual(names.buffers.count, 2, "records, quad indices")
    XCTAssertEqual(names.programs.count, 1, "the drawing program")
    XCTAssertEqual(isLive(names), [Bool](repeating: true, count: 4))
    released.release()
    XCTAssertEqual(
      isLive(names), [Bool](repeating: false, count: 4), "release() left objects behind")
    released.release()  // twice is harmless

    // The parity tests' probe: its own program (with the captured outputs) and buffer.
    let probed = try ParticleRenderer(capacity: 8, info: context.info)
    let probe = TransformFeedbackProbe(probed)
    try probed.upload(from: &ring)
    _ = try probe.capture(slots: 0..<1, at: Tick(1))
    let probeNames = probe.objectNames
    XCTAssertEqual(probeNames.programs.count, 1)
    XCTAssertEqual(probeNames.buffers.count, 1)
    XCTAssertEqual(
      feedbackOutputs(probeNames.programs[0]), TransformFeedbackProbe.capturedOutputs.count,
      "the capture's program")
    probe.release()
    probed.release()
    XCTAssertEqual(
      probeNames.programs.map { epoxy_glIsProgram($0) != 0 }
        + probeNames.buffers.map { epoxy_glIsBuffer($0) != 0 }, [false, false],
      "the probe's release left objects behind")

    var deinitNames: (vertexArray: GLuint, buffers: [GLuint], programs: [GLuint])?
    do {
      let dropped = try ParticleRenderer(capacity: 8, info: context.info)
      deinitNames = dropped.objectNames
    }
    XCTAssertEqual(
      isLive(deinitNames!), [Bool](repeating: false, count: 4), "deinit left objects behind")

    let frame = try OffscreenTarget(width: 8, height: 8, info: context.info)
    let frameNames = frame.objectNames
    XCTAssertTrue(epoxy_glIsFramebuffer(frameNames.framebuffer) != 0)
    frame.release()
    XCTAssertFalse(epoxy_glIsFramebuffer(frameNames.framebuffer) != 0)
    XCTAssertFalse(epoxy_glIsRenderbuffer(frameNames.renderbuffer) != 0)
  }

  /// How many outputs transform feedback reads from `program`.
  private func feedbackOutputs(_ program: GLuint) -> Int {
    var count: GLint = -1
    epoxy_glGetProgramiv(program, GLenum(GL_TRANSFORM_FEEDBACK_VARYINGS), &count)
    return Int(count)
  }

  func testAnInitializerThatFailsHalfWayLeavesNothingBehind() throws {
    let next = nextNames()
    // The renderer makes its vertex array and buffer, then a shader that does not compile.
    let broken = ShaderSource(
      fileName: "broken.vert", text: "#version 330 core\nvoid main() { nope; }")
    XCTAssertThrowsError(try ParticleRenderer(capacity: 64, info: context.info, vertex: broken)) {
      XCTAssertTrue("\($0)".contains("broken.vert"), "the error names the shader: \($0)")
    }
    // The target makes its framebuffer and renderbuffer, then finds it cannot draw into depth.
    XCTAssertThrowsError(
      try OffscreenTarget(width: 16, height: 16, info: context.info, format: GL_DEPTH_COMPONENT24))
    XCTAssertEqual(liveNames(from: next), [], "objects of a failed set-up are still alive")
    var bound: GLint = 0
    epoxy_glGetIntegerv(GLenum(GL_FRAMEBUFFER_BINDING), &bound)
    XCTAssertEqual(
      GLuint(bound), target.objectNames.framebuffer, "the host's framebuffer stays bound")

    // A system whose effect cannot be set up (an image that is not there) leaves nothing either.
    var config = try Presets.named("confetti")
    config.emitters[0].cells[0].shapes = [.image("no-such-picture.png")]
    XCTAssertThrowsError(
      try ConfettiSystem(
        effect: Effect(config, imageFolder: URL(fileURLWithPath: "/nonexistent")), size: size))
    XCTAssertEqual(liveNames(from: next), [])
    XCTAssertEqual(epoxy_glGetError(), GLenum(GL_NO_ERROR))
  }

  // MARK: One source of truth

  func testTheShadersUseTheConstantsSwiftDefines() throws {
    // The shader files define none of the shared constants themselves...
    for file in ["particle.vert", "particle.frag", "placed.vert"] {
      let text = try XCTUnwrap(embeddedShaderText(file))
      for (name, _) in ShaderConstants.values {
        XCTAssertNil(
          text.range(
            of: "(const\\s+\\w+\\s+\(name)\\s*=|#define\\s+\(name)\\b)", options: .regularExpression
          ),
          "\(file) defines \(name) itself")
      }
    }
    // ...and the program the GL linked has the tables Swift sizes.
    let renderer = try ParticleRenderer(capacity: 4, info: context.info)
    defer { renderer.release() }
    var ring = ParticleRing(capacity: 4)
    var polygonal = ConfettiParticle()
    polygonal.shape = .star
    ring.append([polygonal], bornAt: 1)
    try renderer.draw(&ring, at: Tick(1.1), in: target.rect, window: Size(width: 64, height: 64))
    let sizes = activeUniformSizes(renderer.objectNames.programs[0])
    // The cell table, declared only by the GLSL generated from CellTable.uniforms (a shader
    // file declaring one itself would not compile: declared twice).
    for uniform in CellTable.uniforms {
      XCTAssertEqual(sizes["\(uniform.name)[0]"], CellTable.capacity, uniform.name)
    }
    XCTAssertEqual(sizes["u_polygonRange[0]"], ShapeTable.outlineCapacity)
    XCTAssertEqual(sizes["u_polygonPoints[0]"], ShapeTable.pointCapacity)
  }

  private func embeddedShaderText(_ file: String) -> String? {
    // The file as written: ShaderSource.embedded adds the #define lines after #version.
    let lines = ShaderSource.embedded(file).text.split(
      separator: "\n", omittingEmptySubsequences: false)
    return lines.filter { !$0.hasPrefix("#define ") }.joined(separator: "\n")
  }

  private func activeUniformSizes(_ program: GLuint) -> [String: Int] {
    var count: GLint = 0
    epoxy_glGetProgramiv(program, GLenum(GL_ACTIVE_UNIFORMS), &count)
    var sizes: [String: Int] = [:]
    for index in 0..<GLuint(count) {
      var name = [GLchar](repeating: 0, count: 128)
      var length: GLsizei = 0
      var size: GLint = 0
      var type: GLenum = 0
      epoxy_glGetActiveUniform(program, index, 128, &length, &size, &type, &name)
      let text = name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      sizes[String(decoding: text, as: UTF8.self)] = Int(size)
    }
    return sizes
  }
}

extension Array where Element == UInt8 {
  /// The bytes in runs of `size` (a picture's pixels, for size 4).
  fileprivate func chunked(_ size: Int) -> [[UInt8]] {
    stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
  }
}
