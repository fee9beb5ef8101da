@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiGL
import ConfettiImage

/// The bench's baselines: the same sprites as ``ParticleRenderer``, drawn from ``PlacedSprite``s
/// computed elsewhere (`Shaders/placed.vert` has no physics).
///
/// - `cpu` modes: Swift evaluates the closed form every frame and
///   ``upload(_:phase:)`` sends the sprites (the usual CPU way, moved only as far as the draw).
/// - `floor` mode: the sprites of several moments ("phases") of the scene's loop are sent once,
///   and each frame draws the phase nearest its clock: the cost of merely drawing the sprites
///   the product draws, where it draws them.
package final class PlacedRenderer {
  /// How many sprites each phase holds.
  package let capacity: Int
  /// How many sets of sprites the renderer keeps on the GPU.
  package let phases: Int
  /// What it has sent the GPU since it was made: read it before and after a frame.
  package private(set) var meter = UploadMeter()

  private let sprites: SpriteProgram
  /// One vertex array and buffer per phase, and how many sprites each holds.
  private var phaseArrays: [InstanceArray] = []
  private var phaseBuffers: [GLuint] = []
  private var phaseCounts: [Int]
  /// What the sprites sent so far need the shaders to compute (their shapes).
  private var features = ShaderFeatures()
  /// The GL drawn on: what a draw sets, and so saves of the host's, depends on it.
  private let info: GLInfo

  /// What the sprites are drawn as: the product's choice for the same GL.
  package var primitive: SpritePrimitive { sprites.primitive }

  package init(
    capacity: Int, phases: Int = 1, primitive: SpritePrimitive = .auto, info: GLInfo
  ) throws {
    try ParticleRenderer.check(capacity: capacity)
    precondition(phases >= 1, "at least one set of sprites")
    self.capacity = capacity
    self.phases = phases
    self.info = info
    phaseCounts = Array(repeating: 0, count: phases)
    let host = HostGLState.current(drawingOn: nil)
    defer { host.restore() }
    var made = UploadMeter()
    sprites = try SpriteProgram(
      vertex: .embedded("placed.vert"), attributes: PlacedSprite.attributes,
      primitive: primitive, info: info, meter: &made)
    meter = made
    let stride = MemoryLayout<PlacedSprite>.stride
    for _ in 0..<phases {
      let buffer = try allocateBuffer(
        bytes: capacity * stride, usage: GL_STREAM_DRAW, what: "\(capacity) sprites")
      phaseBuffers.append(buffer)
      phaseArrays.append(
        InstanceArray(
          bindings: [.init(buffer: buffer, stride: stride, attributes: PlacedSprite.attributes)],
          info: info))
    }
    try checkGL("setting up the placed renderer")
  }

  deinit {
    phaseArrays.forEach { $0.release() }
    epoxy_glDeleteBuffers(GLsizei(phaseBuffers.count), &phaseBuffers)
  }

  /// Makes `sprites` the ones `phase` draws.
  package func upload(_ sprites: UnsafeBufferPointer<PlacedSprite>, phase: Int = 0) throws {
    precondition(sprites.count <= capacity, "more sprites than the renderer holds")
    phaseCounts[phase] = sprites.count
    guard !sprites.isEmpty else { return }
    var present = [Bool](repeating: false, count: 256)
    for sprite in sprites { present[Int(sprite.shape)] = true }
    for shape in 0...255 where present[shape] {
      features.formUnion(ParticleShape(rawValue: UInt8(shape)).features)
    }
    let length = sprites.count * MemoryLayout<PlacedSprite>.stride
    try HostGLState.preserving(drawingOn: nil) {
      epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), phaseBuffers[phase])
      epoxy_glBufferSubData(GLenum(GL_ARRAY_BUFFER), 0, GLsizeiptr(length), sprites.baseAddress)
      try checkGL("uploading \(sprites.count) sprites")
    }
    meter.bufferBytes += length
    meter.bufferWrites += 1
  }

  /// Sends the shape table, as ``ParticleRenderer/setShapeTable(_:images:)`` does.
  package func setShapeTable(_ table: ShapeTable, images: [RGBAImage]) throws {
    try HostGLState.preserving(drawingOn: nil) {
      try sprites.setShapeTable(table, images: images, meter: &meter)
    }
  }

  /// Draws `phase`'s sprites (whose shapes and sizes are those of `ring`'s particles), a window
  /// of `window` points spread over `rect`.
  package func draw(_ ring: ParticleRing, phase: Int = 0, in rect: PixelRect, window: Size) throws {
    let count = phaseCounts[phase]
    guard count > 0 else { return }
    try HostGLState.preserving(drawingOn: info) {
      try sprites.prepare(
        for: features, largestDiagonal: ring.largestDiagonal, in: rect, window: window,
        meter: &meter)
      guard sprites.target(rect, window: window, clip: nil, meter: &meter) else { return }
      epoxy_glUseProgram(sprites.program.id)
      epoxy_glBindVertexArray(phaseArrays[phase].name)
      meter.drawCalls += try phaseArrays[phase].draw(sprites.primitive, slots: 0..<count, copies: 1)
      try checkGL("drawing \(count) sprites")
    }
  }
}
