@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiGL

/// The GPU half of the parity tests: runs a renderer's vertex shader over its records with
/// transform feedback and reads back what it computed for each particle, for comparison with
/// the CPU reference (``ConfettiPhysics``). Nothing is rasterised. It links the renderer's own
/// shaders again, with the outputs transform feedback reads (``capturedOutputs``), which a
/// drawing program leaves out, and runs them over the renderer's own vertex array.
///
/// A testing room of its own: the product never captures. Like the renderer, it leaves the
/// context's state as it found it (the tests check that too).
package final class TransformFeedbackProbe {
  /// The vertex outputs transform feedback captures: fourteen floats per particle.
  package static let capturedOutputs = [
    "v_position", "v_rotation", "v_widthScale", "v_opacity", "v_size", "v_rgba", "v_copy",
    "v_tail",
  ]
  private static let capturedFloats = 14

  /// The renderer whose shaders and records it runs.
  package let renderer: ParticleRenderer
  /// The renderer's shaders, linked for capture; made again when the renderer's change.
  private var probe: SpriteProgram?
  private var feedbackBuffer: GLuint = 0
  private var feedbackBytes = 0

  /// A probe of `renderer`, on its context (current now and at every call).
  package init(_ renderer: ParticleRenderer) {
    self.renderer = renderer
  }

  deinit {
    release()
  }

  /// Deletes its program and buffer, on the current context.
  package func release() {
    if feedbackBuffer != 0 { epoxy_glDeleteBuffers(1, &feedbackBuffer) }
    feedbackBuffer = 0
    probe?.release()
    probe = nil
  }

  /// Its GL names: the capture's program and the feedback buffer (once a capture made them).
  package var objectNames: (programs: [GLuint], buffers: [GLuint]) {
    (probe.map { [$0.program.id] } ?? [], feedbackBuffer == 0 ? [] : [feedbackBuffer])
  }

  /// Runs the vertex shader over `slots` at clock `now` and returns what it computed for each
  /// slot. With `trailCopies` k > 0, every slot is also run as trail copies 1…k: copy c of slot
  /// s is at c · slots.count + s.
  package func capture(slots: Range<Int>, at now: Tick, trailCopies: Int = 0) throws
    -> [CapturedParticle]
  {
    precondition(trailCopies >= 0, "trail copies cannot be negative")
    let host = HostGLState.current(drawingOn: nil)
    defer { host.restore() }
    let stage = try stageProgram()
    let copies = trailCopies + 1
    // Every copy a record can have is run (a draw's copies count from the oldest), and those up
    // to `trailCopies` returned.
    let vertices = renderer.vertexStageVertices(slots: slots.count)
    let bytes = vertices * Self.capturedFloats * MemoryLayout<Float>.stride
    if bytes > feedbackBytes {
      if feedbackBuffer == 0 { epoxy_glGenBuffers(1, &feedbackBuffer) }
      epoxy_glBindBuffer(GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), feedbackBuffer)
      epoxy_glBufferData(
        GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), GLsizeiptr(bytes), nil, GLenum(GL_STREAM_READ))
      feedbackBytes = bytes
    }
    epoxy_glUseProgram(stage.program.id)
    epoxy_glBindBufferBase(GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), 0, feedbackBuffer)
    epoxy_glEnable(GLenum(GL_RASTERIZER_DISCARD))
    epoxy_glBeginTransformFeedback(GLenum(GL_POINTS))
    // Every vertex of a copy computes the same outputs.
    let landing = renderer.runVertexStage(stage, slots: slots, at: now)
    epoxy_glEndTransformFeedback()
    epoxy_glDisable(GLenum(GL_RASTERIZER_DISCARD))
    var floats = [Float](repeating: .nan, count: vertices * Self.capturedFloats)
    epoxy_glBindBuffer(GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), feedbackBuffer)
    epoxy_glGetBufferSubData(GLenum(GL_TRANSFORM_FEEDBACK_BUFFER), 0, GLsizeiptr(bytes), &floats)
    try checkGL("capturing \(slots.count) particles with transform feedback")
    // Captured in drawing order (each particle from its oldest copy to itself); returned copy
    // by copy. A copy the particle does not have stays hidden (opacity 0).
    var captured = [CapturedParticle](repeating: .hidden, count: copies * slots.count)
    let v = floats.map(Double.init)
    for vertex in 0..<vertices {
      let i = vertex * Self.capturedFloats
      let copy = Int(v[i + 11])
      guard copy >= 0, copy < copies else { continue }
      let slot = landing(vertex).slot
      captured[copy * slots.count + slot] = CapturedParticle(
        position: Point(x: v[i], y: v[i + 1]), rotation: v[i + 2], widthScale: v[i + 3],
        opacity: v[i + 4], size: Size(width: v[i + 5], height: v[i + 6]),
        color: SIMD4(v[i + 7], v[i + 8], v[i + 9], v[i + 10]),
        tail: Point(x: v[i + 12], y: v[i + 13]))
    }
    return captured
  }

  /// The renderer's vertex stage with the captured outputs kept, made again whenever the
  /// renderer's shaders changed (more features, another primitive).
  private func stageProgram() throws -> SpriteProgram {
    let stage = try renderer.vertexStage(keeping: Self.capturedOutputs, reusing: probe)
    if stage !== probe {
      probe?.release()
      probe = stage
    }
    return stage
  }
}

extension ParticleRenderer {
  /// What its vertex shader computes for `slots` at `now`, read back by a probe made for the
  /// call (see ``TransformFeedbackProbe/capture(slots:at:trailCopies:)``).
  package func capture(slots: Range<Int>, at now: Tick, trailCopies: Int = 0) throws
    -> [CapturedParticle]
  {
    let probe = TransformFeedbackProbe(self)
    defer { probe.release() }
    return try probe.capture(slots: slots, at: now, trailCopies: trailCopies)
  }
}

/// What the vertex shader computed for one particle, read back by transform feedback.
package struct CapturedParticle: Equatable, Sendable {
  /// A copy that is not drawn.
  static let hidden = CapturedParticle(
    position: Point(x: 0, y: 0), rotation: 0, widthScale: 0, opacity: 0,
    size: Size(width: 0, height: 0), color: .zero, tail: Point(x: 0, y: 0))

  /// The centre, in window points.
  package var position: Point
  /// The angle, in degrees clockwise.
  package var rotation: Degrees
  /// How much the tumble narrows the piece: 1 face on, down to the flip floor.
  package var widthScale: Double
  /// From 0 (gone) to 1.
  package var opacity: Double
  /// The apparent size in points.
  package var size: Size
  /// Red, green, blue, alpha after the emitter's colour ramp.
  package var color: SIMD4<Double>
  /// A streak's tail, in window points: where it was its stretch ago (its centre otherwise).
  package var tail: Point
}
