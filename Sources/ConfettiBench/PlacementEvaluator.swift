import ConfettiCore

/// The usual CPU way, for the bench's `cpu` baseline: Swift evaluates the closed form for every
/// particle every frame, and the GPU only places the results.
public enum PlacementEvaluator {
  /// Floats written per particle: centre x, y (pt), rotation (°), width scale, opacity.
  public static let floatsPerParticle = 5

  /// Evaluates the records in `slots` of `ring` at clock `now` with the CPU reference, writing
  /// five floats per slot from the start of `output`; a particle not alive gets opacity 0.
  public static func evaluate(
    _ ring: ParticleRing, slots: Range<Int>, at now: Tick, table: EmitterTable = .plain,
    into output: UnsafeMutableBufferPointer<Float>
  ) {
    precondition(output.count >= slots.count * floatsPerParticle, "output too small")
    var i = 0
    for slot in slots {
      if let state = ConfettiPhysics.state(of: ring.records[slot], at: now, table: table) {
        output[i] = Float(state.position.x)
        output[i + 1] = Float(state.position.y)
        output[i + 2] = Float(state.rotation)
        output[i + 3] = Float(state.widthScale)
        output[i + 4] = Float(state.opacity)
      } else {
        output[i + 4] = 0
      }
      i += floatsPerParticle
    }
  }
}
