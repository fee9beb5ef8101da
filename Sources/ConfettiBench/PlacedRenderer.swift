@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiGL
import ConfettiImage

/// The bench's baselines: the same sprites as ``ParticleRenderer``, but placed by positions
/// computed elsewhere (`Shaders/placed.vert` has no physics).
///
/// - `cpu` mode: Swift evaluates the closed form every frame;
///   ``uploadPlacements(_:slots:phase:)`` sends the results (the usual CPU way, moved only as far
///   as the draw).
/// - `floor` mode: placements for several moments ("phases") of the scene's loop are sent once,
///   and each frame draws the phase nearest its clock: the cost of merely drawing the sprites
///   the product draws, where it draws them.
public final class PlacedRenderer {
  public let capacity: Int
  /// How many sets of placements the renderer keeps on the GPU.
  public let phases: Int
  public private(set) var meter = UploadMeter()

  private let sprites: SpriteProgram
  /// One vertex array per phase: the record attributes, and that phase's placements.
  private var phaseInstances: [InstanceArray] = []
  private var recordBuffer: GLuint = 0
  private var placementBuffers: [GLuint] = []

  /// The per-frame attributes, in a buffer of their own after the record's.
  static let placementAttributes = [
    RecordAttribute(name: "a_placement", location: 11, component: .float32, count: 4, offset: 0),
    RecordAttribute(name: "a_opacity", location: 12, component: .float32, count: 1, offset: 16),
  ]
  private static let placementStride = PlacementEvaluator.floatsPerParticle * 4
  /// The record's attributes placed.vert reads.
  private static let recordAttributes = ParticleRecord.attributes.filter {
    ["a_color", "a_lifeSize", "a_style"].contains($0.name)
  }

  /// What the sprites are drawn as: the product's choice for the same GL.
  public var primitive: SpritePrimitive { sprites.primitive }

  public init(
    capacity: Int, phases: Int = 1, primitive: SpritePrimitive = .auto, info: GLInfo
  ) throws {
    try ParticleRenderer.check(capacity: capacity)
    precondition(phases >= 1, "at least one set of placements")
    self.capacity = capacity
    self.phases = phases
    let host = HostGLState.current()
    defer { host.restore() }
    var setup = UploadMeter()
    sprites = try SpriteProgram(
      vertex: .embedded("placed.vert"),
      attributes: Self.recordAttributes + Self.placementAttributes, primitive: primitive,
      info: info, meter: &setup)
    recordBuffer = try allocateBuffer(
      bytes: capacity * MemoryLayout<ParticleRecord>.stride, usage: GL_DYNAMIC_DRAW,
      what: "\(capacity) particles")
    for _ in 0..<phases {
      let placements = try allocateBuffer(
        bytes: capacity * Self.placementStride, usage: GL_STREAM_DRAW,
        what: "\(capacity) placements")
      placementBuffers.append(placements)
      phaseInstances.append(
        InstanceArray(
          bindings: [
            .init(
              buffer: recordBuffer, stride: MemoryLayout<ParticleRecord>.stride,
              attributes: Self.recordAttributes),
            .init(
              buffer: placements, stride: Self.placementStride,
              attributes: Self.placementAttributes),
          ], info: info))
    }
    try checkGL("setting up the placed renderer")
  }

  deinit {
    phaseInstances.forEach { $0.release() }
    epoxy_glDeleteBuffers(1, &recordBuffer)
    epoxy_glDeleteBuffers(GLsizei(placementBuffers.count), &placementBuffers)
  }

  public func resetMeter() {
    meter = UploadMeter()
  }

  /// Sends the records appended to `ring` since the last upload (colour, size and shape).
  public func upload(from ring: inout ParticleRing) throws {
    precondition(ring.capacity == capacity, "the ring and the GPU buffer must match slot for slot")
    try uploadPendingRecords(of: &ring, into: recordBuffer, meter: &meter)
  }

  /// Sends `phase`'s placements for `slots`, five floats each (``PlacementEvaluator`` writes
  /// them).
  public func uploadPlacements(
    _ placements: UnsafeBufferPointer<Float>, slots: Range<Int>, phase: Int = 0
  ) throws {
    let length = slots.count * Self.placementStride
    precondition(placements.count * 4 >= length, "too few placements")
    epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), placementBuffers[phase])
    epoxy_glBufferSubData(
      GLenum(GL_ARRAY_BUFFER), GLintptr(slots.lowerBound * Self.placementStride),
      GLsizeiptr(length), placements.baseAddress)
    meter.bufferBytes += length
    meter.bufferWrites += 1
    try checkGL("uploading \(slots.count) placements")
  }

  /// Sends the shape table, as ``ParticleRenderer/setShapeTable(_:images:)`` does.
  public func setShapeTable(_ table: ShapeTable, images: [RGBAImage]) throws {
    try sprites.setShapeTable(table, images: images, meter: &meter)
  }

  /// Draws the sprites of `ring`'s live span where `phase`'s placements put them (no trails:
  /// a placement is one moment), a window of `window` points spread over `rect`.
  public func draw(_ ring: ParticleRing, phase: Int = 0, in rect: PixelRect, window: Size) throws {
    try HostGLState.preserving {
      guard !ring.drawnSlotRanges.isEmpty else { return }
      guard rect.width > 0, rect.height > 0, window.width > 0, window.height > 0 else { return }
      try sprites.prepare(
        for: ring,
        pixelsPerPoint: SpriteProjection.pixelsPerPoint(
          width: rect.width, height: rect.height, window: window),
        meter: &meter)
      guard sprites.target(rect, window: window, clip: nil, meter: &meter) else { return }
      try drawSprites(
        of: ring, program: sprites.program, instances: phaseInstances[phase],
        primitive: sprites.primitive, trails: false, meter: &meter
      ) { 0 }
    }
  }
}
