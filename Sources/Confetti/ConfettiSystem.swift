import ConfettiCore
import ConfettiGL
import Glibc

/// An effect running on the host program's GL context: the one object a host needs.
///
/// ```swift
/// let confetti = try ConfettiSystem(effect: .preset("confetti"), size: .init(width: 1280, height: 720))
/// confetti.trigger(.start, time: now)                              // or .click at the pointer
/// try confetti.draw(in: PixelRect(width: fbWidth, height: fbHeight), time: now)  // every frame
/// if !confetti.isAlive(time: now) { … }                             // nothing left to draw
/// confetti.close()                                                  // before the context goes
/// ```
///
/// **The host owns the clock.** Every time is a clock reading in seconds (Double, finite, from
/// 0 to under ``latestReading``) from a clock of the host's choosing; a reading outside that
/// stops the program (a precondition, as for an index out of range). Births are decided on the
/// CPU when the clock passes them, each with its exact time; everything after birth is the
/// vertex shader's closed form at the reading ``draw(in:time:)`` is given. So a reading may go
/// back (paused, slowed, rewound: ``PlaybackClock`` drives one): emission only moves forward,
/// an earlier reading is drawn without new births, and what was born after it is unborn
/// there. Set ``history`` to keep what has ended for as long as the clock may run back.
///
/// **Points and pixels.** The effect lives in an area of ``size`` points (emitter positions,
/// speeds in window heights, the pointer of a click): ``draw(in:time:)`` spreads that area over
/// a rectangle of the framebuffer, so a HiDPI host passes its window size in points and its
/// framebuffer rectangle in pixels.
///
/// **GL state.** Creating, drawing and releasing need the host's GL 3.3 context (core or
/// compatibility profile) current on the calling thread, the one the system was made on: a draw
/// with another current (even one sharing its objects) throws ``GLError/otherContext``, and a
/// release there deletes nothing of that context's. Each call leaves the context's state as it
/// found it, item by item as `confetti.h`'s THE GL STATE CONTRACT lists it (the one place it is
/// written: Sources/CConfetti/confetti.h, /usr/include/confetti.h when installed). It draws into
/// the framebuffer the host has bound, with premultiplied-alpha blending over what is there (an
/// effect's light from a layer of its own, covering what is there as much as it shines), and
/// writes no depth. Saving and restoring takes about fifty GL queries a draw; a host that has the
/// context to itself can set ``glStatePolicy`` to ``GLStatePolicy/cache`` instead, and a steady
/// frame then sends one uniform and one draw (on llvmpipe, one per 16,384 pieces, flushed in
/// between) and asks the GL nothing.
///
/// Instances share nothing: two effects on one context, or on two, run independently.
public final class ConfettiSystem {
  /// The effect this system runs.
  public let effect: Effect
  /// The area the effect lives in, in points (the window's size, for a window). Emitters are
  /// placed in it when triggered, and ``draw(in:time:)`` spreads it over its rectangle. Both
  /// sides from 0 to ``largestSide``; a side of 0 draws nothing. ``resize(to:)`` changes it.
  public private(set) var size: Size

  /// Changes the area the effect lives in (a resized window), in points.
  ///
  /// - Throws: ``EffectError`` when a side is not from 0 to ``largestSide`` (as the initializer
  ///   does); the size is then left as it was.
  public func resize(to size: Size) throws {
    guard Self.isValid(size) else { throw Self.badSize(size) }
    self.size = size
  }

  private static func badSize(_ size: Size) -> EffectError {
    EffectError(
      "the effect's size must be from 0 to \(Int(largestSide)) points a side, not "
        + "\(size.width)×\(size.height)")
  }

  /// A width and a height in points.
  public typealias Size = ConfettiCore.Size
  /// A place in points, from the area's top-left corner, y down.
  public typealias Point = ConfettiCore.Point

  /// The latest clock reading a system takes, in seconds (about 278,000 years): clock readings
  /// are finite, from 0 to under it.
  public static let latestReading: Seconds = Tick.latestHostReading

  /// The longest side an effect's area may have, in points: far past any screen, and short of
  /// where an effect's own arithmetic (spreads across the area) would overflow.
  public static let largestSide: Points = 1_048_576

  package static func isValid(_ size: Size) -> Bool {
    (0...largestSide).contains(size.width) && (0...largestSide).contains(size.height)
  }
  /// The most particles alive at once; beyond it, the oldest make way.
  public var capacity: Int { scene.ring.capacity }

  /// The largest capacity a system may have: as many records as one GL buffer holds (about 31
  /// million).
  public static let maximumCapacity = ParticleRenderer.maximumCapacity

  /// Why `capacity` cannot be a system's, naming the setting as the caller spells it (nil: it
  /// can): "--capacity must be between 1 and 31580641, not 0".
  package static func capacityRefusal(_ capacity: Int, as setting: String) -> String? {
    guard !(1...maximumCapacity).contains(capacity) else { return nil }
    return "\(setting) must be between 1 and \(maximumCapacity), not \(capacity)"
  }

  private var scene: EffectScene
  private var renderer: ParticleRenderer?
  private var lightLayer: LightLayer?
  private var fadePass: FadePass?

  /// How strongly the whole picture is drawn, 0 to 1: below 1, what ``draw(in:time:)`` drew is
  /// faded towards transparent as a whole (``FadePass``), as an overlay's continuous effect
  /// leaves the screen at the end of its duration. For a context the program owns, drawn from
  /// transparent, under ``GLStatePolicy/cache`` only (the pass's state is left set).
  package var fade: Double = 1

  /// Whether an effect with light is drawn into a ``LightLayer`` of its own and laid over the
  /// framebuffer from there, so that its light covers the backdrop as much as it shines: seen
  /// over a host's white scene as over the program's dark window, the same picture as
  /// `confetti render` over the same backdrop. Under ``GLStatePolicy/restore`` the host's state
  /// is saved once around the layer, the draw into it and its laying; under
  /// ``GLStatePolicy/cache`` the layer's state is left set, and the system's own is set anew each
  /// draw that has something to draw (a few dozen calls, one query). Default true; false (the
  /// program's renders onto a transparent backdrop, whose light is made opaque when the file is
  /// written): light adds to the backdrop, in the one draw.
  package var laysLightOverTheBackdrop = true {
    didSet { suitLightToTheBackdrop() }
  }

  /// The process the system was made in: a child forked since cannot draw with it.
  private let madeIn = getpid()

  /// Why the system cannot draw in this process (a child forked since it was made), or nil.
  package var forkedAway: String? { ForkedProcess.whyNotHere("this system", madeIn: madeIn) }

  /// An effect on the current GL context.
  ///
  /// - Parameters:
  ///   - effect: what to run: ``Effect/preset(_:)``, ``Effect/init(path:)``, or a
  ///     configuration value.
  ///   - size: the area the effect lives in, in points (see ``size``); 0 to ``largestSide``.
  ///   - capacity: the most particles alive at once; by default, enough for one firing of
  ///     every emitter with room to spare.
  ///   - seed: every random draw comes from it, so a run can be repeated exactly. Default 1.
  ///   - reduceMotion: each particle appears near where its motion would take it and fades in
  ///     place, for people who are bothered by movement. Default false.
  ///   - primitive: what each piece is drawn as (``SpritePrimitive``): by default the fastest
  ///     on this GL (``SpritePrimitive/auto``). Pieces too big for a point sprite are drawn
  ///     whole either way.
  /// - Throws: a one-line error when the effect cannot be used (a configuration value out of
  ///   its range, as a file's would be; an image that cannot be read, too
  ///   many shapes), the size or capacity is out of range or does not fit the GPU, no context
  ///   is current, or it is older than GL 3.3. Nothing is left behind on the context when
  ///   it throws.
  public convenience init(
    effect: Effect, size: Size, capacity: Int? = nil, seed: UInt64 = 1,
    reduceMotion: Bool = false, primitive: SpritePrimitive = .auto
  ) throws {
    try self.init(
      effect: effect, size: size, capacity: capacity, seed: seed, reduceMotion: reduceMotion,
      primitive: primitive, currentContext: { .current })
  }

  /// The same, told which context is current by `currentContext` rather than by the window
  /// system (``ContextIdentity/Source``).
  package init(
    effect: Effect, size: Size, capacity: Int? = nil, seed: UInt64 = 1,
    reduceMotion: Bool = false, primitive: SpritePrimitive = .auto,
    currentContext: @escaping ContextIdentity.Source
  ) throws {
    guard Self.isValid(size) else { throw Self.badSize(size) }
    // A configuration built in code is checked as a file would be: it never traps below.
    var effect = effect
    do {
      effect.config = try effect.config.validated()
    } catch {
      throw EffectError("the effect's configuration: \(error)")
    }
    self.effect = effect
    self.size = size
    let capacity = capacity ?? EffectScene.suggestedCapacity(for: effect.config)
    guard capacity >= 1 else {
      throw EffectError("the capacity must be at least 1 particle, not \(capacity)")
    }
    try ParticleRenderer.check(capacity: capacity)
    scene = try EffectScene(
      config: effect.config, capacity: capacity, seed: seed, reduceMotion: reduceMotion)
    let images = try effect.images(for: scene.shapes)
    let info = try GLInfo.requireCurrent()
    let renderer = try ParticleRenderer(
      capacity: capacity, info: info, primitive: primitive, features: scene.expectedFeatures,
      currentContext: currentContext)
    do {
      renderer.setCellTable(scene.table)
      try renderer.setShapeTable(scene.shapes, images: images)
    } catch {
      renderer.release()
      throw error
    }
    self.renderer = renderer
  }

  /// A preset (see ``Presets/names``) on the current GL context; see
  /// ``init(effect:size:capacity:seed:reduceMotion:primitive:)``.
  public convenience init(
    preset: String, size: Size, capacity: Int? = nil, seed: UInt64 = 1,
    reduceMotion: Bool = false, primitive: SpritePrimitive = .auto
  ) throws {
    try self.init(
      effect: .preset(preset), size: size, capacity: capacity, seed: seed,
      reduceMotion: reduceMotion, primitive: primitive)
  }

  deinit {
    close()
  }

  /// Deletes the system's GL objects now, with the context it was created on current, and
  /// flushes the GL so that the driver frees them at once (deinit does it otherwise, which is
  /// too late if the host has destroyed its context by then). With another context current, or
  /// none, nothing of it is deleted there: its objects are left to their own context, and freed
  /// with it. (A context made after the system's was destroyed is another, even where the
  /// window system gives it the same address: it does not hold the system's objects.) Calling
  /// it again does nothing; drawing afterwards is an error. `confetti_close` in C, `close()`
  /// in Python.
  public func close() {
    guard let renderer else { return }
    // In a forked child the parent's GL is not to be touched: its objects stay the parent's.
    if forkedAway == nil, renderer.mayReleaseHere {
      lightLayer?.release()
      fadePass?.release()
      renderer.release()  // last: it flushes the deletions
      (self.renderer, lightLayer, fadePass) = (nil, nil, nil)
    } else {
      abandon()
    }
  }

  /// Lets go of the system's GL objects without a GL call, for a host whose context is no
  /// longer current: they go with the context. The renderer that names them is kept alive for
  /// good (a few hundred bytes), since deleting it would call the GL; the particles are freed
  /// with the system.
  private func abandon() {
    if let renderer { _ = Unmanaged.passRetained(renderer) }
    if let lightLayer { _ = Unmanaged.passRetained(lightLayer) }
    if let fadePass { _ = Unmanaged.passRetained(fadePass) }
    (renderer, lightLayer, fadePass) = (nil, nil, nil)
  }

  /// Asked while a burst of many pieces is made and between the batches of a big draw: true
  /// leaves the burst short and gives the draw up, which then throws (a render told to stop,
  /// whose frame of millions of pieces takes seconds to make and draw).
  package var shouldStop: (@Sendable () -> Bool)? {
    get { scene.shouldStop }
    set {
      scene.shouldStop = newValue
      renderer?.shouldStop = newValue
    }
  }

  /// What the system does with the context's GL state between its calls: restores the host's
  /// (``GLStatePolicy/restore``, the default) or keeps its own (``GLStatePolicy/cache``, for a
  /// host that promises to leave it, or calls ``resetGLStateCache()`` when it did not).
  public var glStatePolicy: GLStatePolicy {
    get { renderer?.statePolicy ?? .restore }
    set { renderer?.statePolicy = newValue }
  }

  /// The colour the pieces are drawn over, where the host knows it. Over a light one (a white
  /// page, a light window), additive light (fire, sparks, glows, in effects whose cells blend
  /// additively), which covers it as much as it shines, is also made vivid (its white taken
  /// out), where a pale glow would hardly show: not at all up to a relative luminance of 0.25
  /// (a mid-grey is 0.22), fully from 0.75 (white). nil (the default) or a dark colour: light
  /// adds. `confetti render` sets its background here; the desktop overlay, which cannot know
  /// the desktop, assumes one halfway. Needs no GL context: the next draw sends it.
  public var backdrop: RGBA8? {
    didSet {
      backdropLightness = backdrop.map(ConfettiPhysics.backdropLightness(of:)) ?? 0
    }
  }

  /// How light the backdrop is, 0 (dark, the default) to 1 (white): how vivid additive light is
  /// made, and, with no light layer, how much of the backdrop it covers (``backdrop`` sets it
  /// from a colour).
  package var backdropLightness: Double = 0 {
    didSet { suitLightToTheBackdrop() }
  }
  /// Whether the renderer holds the scene's cell table as it is.
  private var tableIsSent = true

  /// Makes additive light vivid over a light backdrop, and, where no light layer lays it over the
  /// backdrop by its brightness, lets it cover part of it; the next draw sends the table.
  private func suitLightToTheBackdrop() {
    scene.setBackdrop(lightness: backdropLightness, covers: !laysLightOverTheBackdrop)
    tableIsSent = false
  }
  /// Under ``GLStatePolicy/cache``: tells the system the context's state was changed since its
  /// last draw (the host drew with its own state, or resized and cleared without the
  /// scissor), so that its next draw sets all of its own again. Needs no GL context.
  public func resetGLStateCache() {
    renderer?.resetStateCache()
  }

  /// How long, in seconds, particles that have ended are kept after the latest reading, so that
  /// a clock run backwards draws them again (they are drawn, invisible, meanwhile). Finite and
  /// not negative. Default 0: freed as they end.
  public var history: Seconds {
    get { scene.history }
    set {
      precondition(newValue.isFinite && newValue >= 0, "a history is finite and not negative")
      scene.history = newValue
    }
  }

  /// The earliest clock reading drawn exactly: before it, a particle the system has let go of
  /// (ended longer than ``history`` ago, overwritten when the capacity was reached, cleared)
  /// would still be visible. The latest reading when such a particle is visible now. Never
  /// below 0, the earliest valid reading: it can always be drawn.
  public var earliestExactReading: Seconds { max(0, scene.earliestExactReading) }

  /// Whether the effect has emitters that `trigger` starts.
  public func has(_ trigger: EmitterTrigger) -> Bool {
    scene.has(trigger)
  }

  /// Starts every emitter of the effect with `trigger` at clock reading `time`: a click's at
  /// `point` (in points, within ``size``), the others — and a click's when `point` is nil — at
  /// their configured places. Bursts are born at once; timed and continuous emitters start
  /// emitting, and keep doing so as ``draw(in:time:)`` advances the clock. Needs no GL context.
  /// A `point` that is not finite (NaN, infinity) fires nothing: it is no place on any screen.
  /// `time` must be a valid clock reading (see the type's documentation), or the program stops.
  public func trigger(_ trigger: EmitterTrigger = .start, at point: Point? = nil, time: Seconds) {
    precondition(
      Tick.isValid(reading: time),
      "clock readings are \(Tick.validReadings)")
    scene.trigger(trigger, at: point, window: size, time: time)
  }

  /// The clock reading at which the program's window and its renders open an effect: a second
  /// in, so that the effect's "time 0" has room before it (a prewarm's births). The same moment
  /// of the same effect is then the same picture in both, gusts of wind (a function of the
  /// clock) and all.
  package static let openingReading: Seconds = 1

  /// Fires what opens the effect, as the confetti program's window, overlay and render open it:
  /// its start emitters, or, where it has none, its key ones (or its click ones, at their
  /// configured places). `time` must be a valid clock reading.
  public func fireOpening(time: Seconds) {
    precondition(
      Tick.isValid(reading: time),
      "clock readings are \(Tick.validReadings)")
    scene.fireOpening(window: size, time: time)
  }

  /// Emits what the running emitters owe up to `time` and frees the records of particles
  /// gone by then. ``draw(in:time:)`` does this itself; call it to move an effect on without
  /// drawing it (a minimised window). Needs no GL context. `time` must be a valid clock reading.
  public func advance(to time: Seconds) {
    precondition(
      Tick.isValid(reading: time),
      "clock readings are \(Tick.validReadings)")
    scene.advance(to: time, window: size)
  }

  /// Draws the effect as it is at clock reading `time` into `rect` of the bound framebuffer
  /// (pixels from its bottom-left corner, as glViewport takes them), clipped to `rect` and, if
  /// the host has scissoring on, to its scissor box. Advances emission to `time` first. Leaves
  /// the host's GL state as it was (see the type's documentation).
  ///
  /// `time` must be a valid clock reading (see the type's documentation), or the program stops.
  ///
  /// - Throws: when a coordinate or side of `rect` lies beyond GL's 32-bit integers; when the
  ///   first polygon or image shapes appear and the program built for them does
  ///   not compile or link; and in debug builds, when the GL reports an error after one of
  ///   confetti's steps (which may be one the host left pending: reading the GL's error flag
  ///   clears it), while release builds do not ask. The host's state is restored all the same.
  ///   In a child forked since the system was made, at once: the parent's GL is not the child's.
  public func draw(in rect: PixelRect, time: Seconds) throws {
    guard let renderer else { preconditionFailure("the confetti system was released") }
    if let why = forkedAway { throw GLError.noContext(why) }
    // GL takes 32-bit integers; the renderer's sums of them cannot overflow Int.
    guard [rect.x, rect.y, rect.width, rect.height].allSatisfy({ Int32(exactly: $0) != nil }) else {
      throw EffectError(
        "a rectangle to draw in has its corner and sides within GL's 32-bit integers, not "
          + "\(rect.x), \(rect.y), \(rect.width)×\(rect.height)")
    }
    advance(to: time)
    // The backdrop's cell table, sent where the system's own context (with its objects) is
    // current; else at a later draw that finds it.
    if !tableIsSent, GLInfo.isContextCurrent, renderer.isItsContextCurrent,
      glStatePolicy == .cache || renderer.holdsItsObjects
    {
      renderer.setCellTable(scene.table)
      tableIsSent = true
    }
    // The layer and the fade: on the system's own context (another is refused by the renderer;
    // one at its address is told apart by what it holds, under the restoring policy), when
    // anything may be drawn; the fade under the caching policy only. Asked only when one is
    // wanted: a steady frame of anything else asks the GL nothing.
    func mayDraw() -> Bool {
      rect.width > 0 && rect.height > 0 && renderer.isItsContextCurrent && isAlive(time: time)
        && (glStatePolicy == .cache || renderer.holdsItsObjects)
    }
    if laysLightOverTheBackdrop, scene.table.hasLight, mayDraw() {
      try drawThroughTheLightLayer(renderer, in: rect, time: time)
    } else {
      try renderer.draw(&scene.ring, at: Tick(time), in: rect, window: size)
    }
    if fade < 1, glStatePolicy == .cache, mayDraw() {
      let pass = try fadePass ?? FadePass(info: renderer.info)
      fadePass = pass
      pass.apply(fade, in: rect)
    }
  }

  /// Draws into the light layer, then lays it over `rect` of the bound framebuffer. Under the
  /// restore policy the host's state is saved around all of it (the renderer keeps its own
  /// between the two), its framebuffer checked first and its scissor box kept.
  ///
  /// The layer covers only the part of `rect` that can be seen
  /// (``lightLayerReach(of:clip:info:)``): however large the rectangle, no more than the GL's
  /// largest texture (16,384 pixels a side on llvmpipe, a gigabyte), and no more than the
  /// host's scissor box where scissoring is on. (The framebuffer's own size, which GL does not
  /// tell of a window's, is not asked.)
  private func drawThroughTheLightLayer(
    _ renderer: ParticleRenderer, in rect: PixelRect, time: Seconds
  ) throws {
    let host = glStatePolicy == .restore ? HostGLState.current(drawingOn: renderer.info) : nil
    defer { host?.restore() }
    if host != nil { try HostGLState.requireCompleteFramebuffer() }
    let reach = Self.lightLayerReach(of: rect, clip: host?.scissorClip, info: renderer.info)
    guard reach.width > 0, reach.height > 0 else { return }
    let layer = try lightLayer ?? LightLayer(info: renderer.info)
    lightLayer = layer
    let policy = renderer.statePolicy
    renderer.statePolicy = .cache
    defer { renderer.statePolicy = policy }
    // The layer's state is no renderer's: this one sets all of its own again.
    try layer.begin(width: reach.width, height: reach.height)
    do {
      // The whole rectangle, placed so that the part the layer covers lands on it.
      let placed = PixelRect(
        x: rect.x - reach.x, y: rect.y - reach.y, width: rect.width, height: rect.height)
      try renderer.draw(&scene.ring, at: Tick(time), in: placed, window: size)
    } catch {
      layer.cancel()
      throw error
    }
    // With nothing alive yet the renderer set nothing: the host's depth test, culling, clip
    // origin… would still hold.
    applySpriteState(for: renderer.info)
    try layer.lay(in: reach, clip: host?.scissorClip)
  }

  /// The part of `rect` a light layer must cover: where it meets the host's scissor box
  /// (`clip`, where scissoring is on) and the pixels any framebuffer can have, from its origin
  /// up to the GL's largest texture and viewport.
  package static func lightLayerReach(of rect: PixelRect, clip: PixelRect?, info: GLInfo)
    -> PixelRect
  {
    let largest = PixelRect(
      width: min(info.maxTextureSize, info.maxViewport.width),
      height: min(info.maxTextureSize, info.maxViewport.height))
    let reach = rect.intersection(largest)
    return clip.map(reach.intersection) ?? reach
  }

  /// Whether the effect has an emitter that emits until it is stopped (snow, rain, a fire's
  /// flames), emitting now or not: one that would never end by itself.
  package var isContinuous: Bool {
    scene.config.emitters.contains { $0.emission == .continuous }
  }

  /// Draws as ``draw(in:time:)`` does, then says how, for a port of the shaders to draw the same
  /// picture (`confetti records`): the live records in drawing order, each
  /// `MemoryLayout<ParticleRecord>.stride` bytes, every uniform's value, the viewport and the
  /// copies drawn of each record.
  package func drawExported(in rect: PixelRect, time: Seconds) throws
    -> (records: [UInt8], uniforms: [UniformValue], viewport: PixelRect, copies: Int)
  {
    try draw(in: rect, time: time)
    guard let renderer else { preconditionFailure("the confetti system was released") }
    if let why = forkedAway { throw GLError.noContext(why) }
    let state = renderer.drawState(of: scene.ring, in: rect)
    var bytes: [UInt8] = []
    for range in scene.ring.drawnSlotRanges {
      scene.ring.records[range].withUnsafeBytes { bytes += $0 }
    }
    return (bytes, state.uniforms, state.viewport, state.copies)
  }

  /// Whether anything is, or may yet be, drawn at or after clock reading `time`: a particle
  /// still visible, or an emitter still emitting.
  public func isAlive(time: Seconds) -> Bool {
    scene.isEmitting || scene.ring.lastDeath > time
  }

  /// The clock reading from which nothing is drawn any more, exact to the clock's tick
  /// (2⁻²⁰ s): the closed form knows when each particle's life, fade and trail end. nil while
  /// an emitter is still emitting (a continuous one never stops; a timed one has births to
  /// come); −infinity when nothing was born, or everything was cleared.
  public var endTime: Seconds? {
    scene.isEmitting ? nil : scene.ring.lastDeath
  }

  /// How many particles are visible at clock reading `time`: born by then (a trigger writes some
  /// that are born later, a shell's sparks) and not yet gone (a scan of the live records).
  public func aliveCount(time: Seconds) -> Int {
    scene.ring.aliveCount(at: time)
  }

  /// How many pieces the effect promised but this system does not show, since it was made: those
  /// its full ring let go of before their end, to make way for newer ones (the capacity is too
  /// small for what the effect emits: raise it), and those owed beyond the 20,000 one advance
  /// makes. 0 while everything promised is drawn. The window shows it in its title. One advance
  /// covers at most a second of emission, as after a stall; time it skips beyond that is not
  /// counted.
  public var droppedCount: Int { scene.dropped }

  /// Stops every emitter (a continuous one too); the particles already born live out their
  /// lives, so ``endTime`` becomes known.
  public func stopEmitting() {
    scene.stopEmitting()
  }

  /// Forgets every particle and stops every emitter, or, `keepingStartEmitters`, only those
  /// ``trigger(_:at:time:)`` started for clicks and keys: the effect's own start emitters (a
  /// fire's flames, snow) go on. Default: stop them all. `confetti_clear` in C, `clear()` in
  /// Python.
  public func clear(keepingStartEmitters: Bool = false) {
    scene.removeAll(keepingStartEmitters: keepingStartEmitters)
  }

  /// ``close()``, by its name before 0.6.
  @available(*, deprecated, renamed: "close()")
  public func release() { close() }

  /// ``clear(keepingStartEmitters:)``, by its name before 0.6.
  @available(*, deprecated, renamed: "clear(keepingStartEmitters:)")
  public func removeAll(keepingStartEmitters: Bool = false) {
    clear(keepingStartEmitters: keepingStartEmitters)
  }
}

extension ConfettiSystem {
  /// How long a continuous effect takes to leave the screen at the end of a celebration's
  /// duration: its last second (a quarter of a shorter duration).
  package static func leaving(within duration: Seconds) -> Seconds { min(1, duration / 4) }

  /// After this system advanced to `time`, `elapsed` seconds after a celebration started
  /// (over the desktop or in a terminal): a continuous effect (snow, rain) is on the screen for
  /// `duration`, no longer: it stops emitting as it begins to leave (``leaving(within:)``),
  /// what is left of it fades out (``fade``), and the celebration ends on time. Another
  /// effect's emitters stop at the duration, as they always have, and what they threw lands;
  /// it ends by itself, and is fired again when the celebration loops. False once it is over.
  package func goesOn(
    at time: Seconds, elapsed: Seconds, duration: Seconds, loop: Bool
  ) -> Bool {
    if !loop {
      let left = duration - elapsed
      if isContinuous {
        let leaving = Self.leaving(within: duration)
        if left <= leaving {
          stopEmitting()
          fade = max(0, left / leaving)
        }
        if left <= 0 { return false }
      } else if left <= 0 {
        stopEmitting()
      }
    }
    if !isAlive(time: time) {
      guard loop else { return false }
      fireOpening(time: time)  // a one-off effect, thrown again
    }
    return true
  }
}
