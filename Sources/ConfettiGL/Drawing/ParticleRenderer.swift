@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiImage

/// Draws a ``ParticleRing`` with the closed-form vertex shader into whatever framebuffer the host
/// has bound: each particle one instance, its record read as instance attributes, drawn as a
/// point sprite or a quad (``SpritePrimitive``).
///
/// The GPU buffer mirrors the ring slot for slot and is allocated once. Per frame the renderer
/// sends new records (only those), sets one uniform (the clock) and issues one instanced draw
/// per contiguous live span: two across the wrap, none when nothing is alive (on llvmpipe, a
/// span of points is sent in flushed batches: ``InstanceArray/batches``).
///
/// Every method that touches the GL leaves the context's state as it found it
/// (``HostGLState``): a host may draw its own scene before and after. Under
/// ``GLStatePolicy/cache`` a draw leaves its own state set instead, for the next one. GL objects are deleted by
/// ``release()`` or deinit, on the context that was current when the renderer was made, which
/// must be current then too.
package final class ParticleRenderer {
  /// How many records the GPU buffer holds.
  package let capacity: Int
  /// What it has sent the GPU since it was made: read it before and after a frame.
  package private(set) var meter = UploadMeter()

  private let sprites: SpriteProgram
  private var program: ShaderProgram { sprites.program }
  private let instances: InstanceArray
  private var recordBuffer: GLuint = 0
  /// The limits of the GL it draws on.
  package let info: GLInfo
  private var nowUniform: GLint
  private var cellTable = CellTable()
  /// What the records sent so far need the shaders to compute (``ParticleRing/features``).
  private var recordFeatures = ShaderFeatures()
  private var released = false
  /// Asked between the batches of a big draw (``InstanceArray/batches``), and at least every
  /// ``pixelsBetweenStopChecks`` pixels filled: true gives the draw up with ``DrawStopped`` (a
  /// render told to stop). Nil: never asked.
  package var shouldStop: (() -> Bool)?
  /// The most pixels a draw that may be stopped fills between two questions to ``shouldStop``:
  /// by default about a tenth of a second on llvmpipe (two cores), far less on a GPU. Smaller
  /// answers a stop sooner, in more draws.
  package var pixelsBetweenStopChecks = 1 << 24
  /// Which context is current, as the renderer asks it: the window system, unless its maker
  /// answers itself (``ContextIdentity/Source``).
  private let currentContext: ContextIdentity.Source
  /// The context current when it was made (nil: unknown).
  package let madeOn: ContextIdentity?
  /// What tells its context from a later one at the same address (``holdsItsObjects``).
  private let mark: VertexArrayMark

  /// Whether the host's GL state is saved and restored around every call, or the renderer's
  /// own kept between calls (``GLStatePolicy``). Changing it sets the whole state again at the
  /// next draw.
  package var statePolicy = GLStatePolicy.restore {
    didSet { resetStateCache() }
  }
  /// Under ``GLStatePolicy/cache``: what the last draw left set, everything a steady frame
  /// needs but the clock; nil when the next draw must set it all.
  private var keptState: KeptState?
  private struct KeptState: Equatable {
    var rect: PixelRect
    var window: Size
    var program: GLuint
  }

  /// The widest and tallest image a shape table may hold, in pixels.
  package static let largestImage = ShapeUniforms.largestImage

  /// The most particles one renderer holds: its records must fit one GL buffer (2 GiB).
  package static let maximumCapacity = Int(Int32.max) / MemoryLayout<ParticleRecord>.stride

  /// Throws unless `capacity` records fit one GL buffer. Call it before building a ring that big.
  package static func check(capacity: Int) throws {
    guard (1...maximumCapacity).contains(capacity) else {
      throw GLError.tooLarge(
        "\(capacity) particles do not fit: the records of 1 to \(maximumCapacity) particles "
          + "fit one GL buffer")
    }
  }

  /// A renderer for rings of `capacity` records, on the current context (GL 3.3, whose
  /// limits `info` holds), drawing `primitive`s (by default the fastest on this GL: see
  /// ``SpritePrimitive/auto``), its shaders compiled for `features` from the start (they gain
  /// any others the records and the cell table need, by building the program again: pass an
  /// effect's ``EffectScene/expectedFeatures`` to have that never happen mid-effect). If it
  /// fails, nothing it created is left behind.
  package convenience init(
    capacity: Int, info: GLInfo, primitive: SpritePrimitive = .auto,
    features: ShaderFeatures = [], currentContext: @escaping ContextIdentity.Source = { .current }
  ) throws {
    try self.init(
      capacity: capacity, info: info, primitive: primitive, features: features,
      vertex: .embedded("particle.vert"), currentContext: currentContext)
  }

  /// The vertex and fragment shaders' text exactly as a renderer drawing `primitive` (not
  /// `auto`, which depends on the GL), compiled for `features`, links them on a GL that draws
  /// points as whole-pixel squares (a compatibility profile) or as sprites: ready to compile on
  /// their own (a port's starting point; `confetti shaders` prints them).
  package static func shaderSources(
    features: ShaderFeatures, primitive: SpritePrimitive, wholePixelPoints: Bool = false
  ) -> (vertex: String, fragment: String) {
    let sources = SpriteProgram.sources(
      .embedded("particle.vert"), features: features, primitive: primitive,
      wholePixelPoints: wholePixelPoints)
    return (sources.vertex.text, sources.fragment.text)
  }

  /// The shaders' text as the renderer's program was last linked from.
  package var linkedSources: (vertex: String, fragment: String) {
    (sprites.sources.vertex.text, sprites.sources.fragment.text)
  }

  /// A renderer as ``init(capacity:info:primitive:features:)`` makes it, with another vertex
  /// shader over the same record (one that does not compile is refused with the compiler's
  /// message, and nothing is left behind).
  package init(
    capacity: Int, info: GLInfo, primitive: SpritePrimitive = .auto,
    features: ShaderFeatures = [], vertex: ShaderSource,
    currentContext: @escaping ContextIdentity.Source = { .current }
  ) throws {
    try Self.check(capacity: capacity)
    self.capacity = capacity
    (self.currentContext, madeOn) = (currentContext, currentContext())
    let host = HostGLState.current(drawingOn: nil)
    defer { host.restore() }
    // The buffers first, then the program: a failure anywhere deletes what came before it.
    let recordBuffer = try allocateBuffer(
      bytes: capacity * MemoryLayout<ParticleRecord>.stride, usage: GL_DYNAMIC_DRAW,
      what: "\(capacity) particles")
    let instances = InstanceArray(
      bindings: [
        .init(
          buffer: recordBuffer, stride: MemoryLayout<ParticleRecord>.stride,
          attributes: ParticleRecord.attributes)
      ], info: info)
    do {
      var made = UploadMeter()
      sprites = try SpriteProgram(
        vertex: vertex, attributes: ParticleRecord.attributes, primitive: primitive,
        features: features, info: info, meter: &made)
      meter = made
      try checkGL("setting up the particle renderer")
    } catch {
      epoxy_glBindVertexArray(0)
      instances.release()
      var buffer = recordBuffer
      epoxy_glDeleteBuffers(1, &buffer)
      throw error
    }
    (self.instances, self.recordBuffer, self.info) = (instances, recordBuffer, info)
    // (Its vertex array is bound; both bindings are the host's again below.)
    mark = VertexArrayMark(buffer: recordBuffer)
    nowUniform = sprites.program.uniform("u_now")
    sendCellTable()
  }

  deinit {
    release()
  }

  /// Deletes every GL object of the renderer now, on the current context (deinit does it
  /// otherwise). The renderer must not be used afterwards; calling this again does nothing.
  package func release() {
    guard !released else { return }
    released = true
    ContextStateOwner.forget(ObjectIdentifier(self))
    instances.release()
    epoxy_glDeleteBuffers(1, &recordBuffer)
    sprites.release()
    recordBuffer = 0
    // Sends the deletions on: llvmpipe frees a deleted program's compiled shaders only once the
    // work queued before them is flushed, so a host that made and destroyed systems with no
    // frame shown between held about 450 KB more each time, up to 130 MB (Hosts/soak.c).
    epoxy_glFlush()
  }

  /// The GL names the renderer owns: what ``release()`` deletes.
  package var objectNames: (vertexArray: GLuint, buffers: [GLuint], programs: [GLuint]) {
    let (vertexArray, indexBuffer) = instances.objectNames
    return (vertexArray, [recordBuffer, indexBuffer].filter { $0 != 0 }, [program.id])
  }

  /// What the renderer draws particles as now: ``SpritePrimitive/points`` or
  /// ``SpritePrimitive/quads`` (which points become for good once a piece is too big for them).
  package var primitive: SpritePrimitive { sprites.primitive }

  /// What the shaders are compiled to compute now (they gain features as the records and the
  /// emitter table need them).
  package var compiledFeatures: ShaderFeatures { sprites.features }

  private func checkUsable() {
    precondition(!released, "the renderer was released")
  }

  /// Whether `current` is the context the renderer was made on, or either is unknown (a window
  /// system other than EGL and GLX).
  private func isOnItsContext(_ current: ContextIdentity?) -> Bool {
    guard let madeOn, let current else { return true }
    return madeOn == current
  }

  /// Whether the context it was made on is current (or cannot be told apart from the current
  /// one): only then may ``release()`` delete its objects, whose names on any other context
  /// are that context's own.
  package var isItsContextCurrent: Bool { isOnItsContext(currentContext()) }

  /// Whether ``release()`` may delete its objects now: a context is current, it is the one the
  /// renderer was made on, and it holds the renderer's objects (``holdsItsObjects``).
  package var mayReleaseHere: Bool {
    GLInfo.isContextCurrent && isItsContextCurrent && holdsItsObjects
  }

  /// Whether the current context holds this renderer's objects, read back from it (a few
  /// queries): false on a context made after the renderer's was destroyed, even at the same
  /// address, where its names are that context's own. Asked where queries are made anyway: a
  /// draw under ``GLStatePolicy/restore`` with something to draw, and ``release()``'s callers.
  package var holdsItsObjects: Bool {
    !released && mark.isOn(instances.objectNames.vertexArray)
  }

  /// Sends the records appended to `ring` since the last upload: one write per contiguous range.
  package func upload(from ring: inout ParticleRing) throws {
    checkUsable()
    precondition(ring.capacity == capacity, "the ring and the GPU buffer must match slot for slot")
    try HostGLState.preserving(drawingOn: nil) { try sendPendingRecords(of: &ring) }
  }

  /// Sends `ring`'s new records and notes what they need the shaders to compute.
  private func sendPendingRecords(of ring: inout ParticleRing) throws {
    try uploadPendingRecords(of: &ring, into: recordBuffer, meter: &meter)
    recordFeatures.formUnion(ring.features)
  }

  /// What the shaders must compute now: for the records sent, and for the cell table.
  private var features: ShaderFeatures { recordFeatures.union(cellTable.features) }

  /// After the sprite program was built again (for more features, or quads): the clock's
  /// location and the cell table, on the new program.
  private func adoptNewProgram() {
    nowUniform = program.uniform("u_now")
    sendCellTable()
  }

  /// Its vertex stage, linked again with `outputs` kept for transform feedback (which a drawing
  /// program leaves out): its shaders as they are now, compiled for what it holds (built again
  /// first if the records sent or the cell table need more), with its cell table set. For a
  /// caller that reads what the vertex shader computes, as the parity tests do. `previous`, one
  /// it made before, is given back (its cell table set anew) while the shaders are the same;
  /// otherwise a new one is linked, and the caller releases the old. The host's state is kept.
  package func vertexStage(keeping outputs: [String], reusing previous: SpriteProgram? = nil)
    throws -> SpriteProgram
  {
    checkUsable()
    let host = HostGLState.current(drawingOn: nil)
    defer { host.restore() }
    resetStateCache()
    if try sprites.rebuild(features: features, meter: &meter) { adoptNewProgram() }
    if let previous, previous.sources.vertex.text == sprites.sources.vertex.text {
      sendCellTable(to: previous.program)
      return previous
    }
    var uncounted = UploadMeter()  // (not sent for a frame)
    let stage = try SpriteProgram(
      vertex: sprites.vertexSource, attributes: ParticleRecord.attributes,
      feedbackVaryings: outputs, primitive: sprites.primitive, features: sprites.features,
      info: info, meter: &uncounted)
    sendCellTable(to: stage.program)
    return stage
  }

  /// How many vertices ``runVertexStage(_:slots:at:)`` runs for `slots`: every copy a record can
  /// have (its trail), each as many vertices as its primitive has corners.
  package func vertexStageVertices(slots: Int) -> Int {
    InstanceArray.maximumCopies * sprites.primitive.verticesPerCopy * slots
  }

  /// Runs `stage` (from ``vertexStage(keeping:)``), bound now, over the records in `slots` at
  /// clock `now` as points, every copy of each: for transform feedback begun by the caller,
  /// with rasterising off. Returns where each vertex's output lands: the slot (from 0) and the
  /// copy in drawing order. Leaves its vertex array bound; the caller keeps the host's state.
  package func runVertexStage(_ stage: SpriteProgram, slots: Range<Int>, at now: Tick)
    -> (Int) -> (slot: Int, copy: Int)
  {
    checkUsable()
    precondition(slots.lowerBound >= 0 && slots.upperBound <= capacity, "slots out of range")
    epoxy_glBindVertexArray(instances.name)
    epoxy_glUniform1ui(stage.program.uniform("u_now"), now.rawValue)
    return instances.drawForCapture(
      sprites.primitive, slots: slots, copies: InstanceArray.maximumCopies)
  }

  /// Sends the shape table (polygons, and the images decoded from its paths, in order) if it
  /// differs from the last one sent.
  package func setShapeTable(_ table: ShapeTable, images: [RGBAImage]) throws {
    checkUsable()
    // A new atlas replaces the texture a kept state binds.
    resetStateCache()
    try HostGLState.preserving(drawingOn: nil) {
      try sprites.setShapeTable(table, images: images, meter: &meter)
    }
  }

  /// Sends the cell table (wind, colour ramps, fade-outs, trail spacing) if it differs from
  /// the last one sent: a steady frame sends nothing.
  package func setCellTable(_ table: CellTable) {
    checkUsable()
    guard table != cellTable else { return }
    cellTable = table
    HostGLState.preserving(drawingOn: nil) { sendCellTable() }
  }

  /// Sets the uniforms of ``cellTable`` on `program` (by default the drawing program's),
  /// leaving it bound.
  private func sendCellTable(to program: ShaderProgram? = nil) {
    let program = program ?? self.program
    let styles = (0..<CellTable.capacity).map { cellTable[UInt8($0)] }
    epoxy_glUseProgram(program.id)
    for uniform in CellTable.uniforms {
      let location = program.uniform(uniform.name)
      switch uniform {
      case .floats(_, _, _, let values):
        let floats = styles.flatMap { values($0).map { GLfloat($0) } }
        epoxy_glUniform4fv(location, GLsizei(CellTable.capacity), floats)
        meter.uniformBytes += 4 * floats.count
      case .whole(_, _, _, let value):
        let words = styles.map { GLuint(value($0)) }
        epoxy_glUniform1uiv(location, GLsizei(CellTable.capacity), words)
        meter.uniformBytes += 4 * words.count
      }
      meter.uniformWrites += 1
    }
  }

  /// Forgets the state the last draw left set, under ``GLStatePolicy/cache``: the next draw
  /// sets it all again. Call it after changing the context's state between draws.
  package func resetStateCache() {
    keptState = nil
  }

  /// Draws every particle of `ring` that may be alive at clock reading `now`, a window of
  /// `window` points spread over `rect` of the bound framebuffer, clipped to `rect` (and, under
  /// ``GLStatePolicy/restore``, to the host's scissor box where the host has scissoring on).
  /// Records appended to the ring since the last upload are sent first. The host's GL state is
  /// left as it was, or, under ``GLStatePolicy/cache``, as the renderer needs it.
  package func draw(
    _ ring: inout ParticleRing, at now: Tick, in rect: PixelRect, window: Size
  ) throws {
    checkUsable()
    precondition(ring.capacity == capacity, "the ring and the GPU buffer must match slot for slot")
    // On another context its names are not its objects (vertex arrays are never shared, even
    // between contexts that share the rest): refused, whether or not anything is alive. Asked
    // once: the window system answers from the thread's own record, not the GL.
    let context = currentContext()
    guard isOnItsContext(context) else { throw GLError.otherContext }
    // Nothing to send or draw: not a GL call, not even a query.
    guard !ring.pendingUploadRanges.isEmpty || !ring.drawnSlotRanges.isEmpty else { return }
    // A context at the same address as its own, made after that was destroyed, is another.
    // (Under the caching policy, whose steady frames ask nothing, it is not looked at.)
    if statePolicy == .restore, !holdsItsObjects { throw GLError.otherContext }
    let host =
      statePolicy == .restore ? HostGLState.current(drawingOn: info) : nil
    defer { host?.restore() }
    // A framebuffer that cannot be drawn into is said, not left as the host's GL error (under
    // the caching policy, whose steady frames ask nothing, it is not looked at).
    if host != nil { try HostGLState.requireCompleteFramebuffer() }
    try sendPendingRecords(of: &ring)
    guard !ring.drawnSlotRanges.isEmpty else { return }
    if try sprites.prepare(
      for: features, largestDiagonal: ring.largestDiagonal, in: rect, window: window,
      meter: &meter)
    {
      adoptNewProgram()
    }
    let wanted = KeptState(rect: rect, window: window, program: program.id)
    // Kept only while no other renderer has drawn on this context since.
    let steady =
      host == nil && keptState == wanted
      && ContextStateOwner.isOwned(by: ObjectIdentifier(self), context: context)
    if !steady {
      keptState = nil
      guard sprites.target(rect, window: window, clip: host?.scissorClip, meter: &meter) else {
        return
      }
    }
    let clock = nowUniform
    defer {
      if host == nil {
        keptState = wanted
        if !steady { ContextStateOwner.claim(for: ObjectIdentifier(self), context: context) }
      }
    }
    // A render that may be stopped asks between parts of at most a bounded fill: a frame of
    // huge pieces with long trails can take minutes.
    let stopEvery = SpriteProjection.pixelsPerPoint(rect, window: window).flatMap {
      particlesBetweenStopChecks(
        diagonal: ring.largestDiagonal * $0, copies: Int(ring.longestTrail) + 1, rect: rect,
        particles: ring.drawnCount, budget: pixelsBetweenStopChecks)
    }
    try drawSprites(
      of: ring, program: program, instances: instances, primitive: sprites.primitive,
      bound: steady, meter: &meter, shouldStop: shouldStop, stopEvery: stopEvery
    ) {
      epoxy_glUniform1ui(clock, now.rawValue)
      return MemoryLayout<UInt32>.size
    }
  }

  /// How the last ``draw(_:at:in:window:)`` of `ring` into `rect` drew, for a port of the
  /// shaders to draw the same with point sprites (`confetti render --records`): every uniform's
  /// value now, the viewport (the rectangle and its margin), and how many copies of each record
  /// (its trail) it drew.
  package func drawState(of ring: ParticleRing, in rect: PixelRect)
    -> (uniforms: [UniformValue], viewport: PixelRect, copies: Int)
  {
    (sprites.uniformsForPoints(), sprites.viewport(for: rect), Int(ring.longestTrail) + 1)
  }
}
