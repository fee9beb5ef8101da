import ConfettiCore
import ConfettiGL
import Dispatch
import FoundationEssentials
import Glibc

/// One sprite as the bench's baselines draw it: everything the product's vertex shader hands its
/// fragment shader, computed on the CPU. 32 bytes; `Shaders/placed.vert` reads it.
package struct PlacedSprite: Equatable, Sendable {
  /// The centre, in points.
  package var x: Float = 0
  package var y: Float = 0
  /// Clockwise, in degrees.
  package var rotation: Float = 0
  package var opacity: Float = 0
  /// The apparent size in points: flip, growth, shrinking and trail applied.
  package var width: Float = 0
  package var height: Float = 0
  /// Straight colour after the emitter's ramp and the back's shading.
  package var red: UInt8 = 0
  package var green: UInt8 = 0
  package var blue: UInt8 = 0
  package var alpha: UInt8 = 0
  package var shape: UInt8 = 0
  /// 1: its light adds to what is behind it; 0: it covers it.
  package var additive: UInt8 = 0
  private var padding: (UInt8, UInt8) = (0, 0)

  package init() {}

  package static func == (a: PlacedSprite, b: PlacedSprite) -> Bool {
    (a.x, a.y, a.rotation, a.opacity, a.width, a.height)
      == (b.x, b.y, b.rotation, b.opacity, b.width, b.height)
      && (a.red, a.green, a.blue, a.alpha, a.shape, a.additive)
        == (b.red, b.green, b.blue, b.alpha, b.shape, b.additive)
  }

  /// The sprite of a particle (or trail copy) in `state`, cut as `shape`, or as a streak.
  init(_ state: ParticleState, shape: UInt8) {
    let box = state.drawnBox
    x = Float(box.centre.x)
    y = Float(box.centre.y)
    rotation = Float(box.rotation)
    opacity = Float(state.opacity)
    width = Float(box.size.width)
    height = Float(box.size.height)
    let c = state.color
    (red, green, blue, alpha) = (Self.byte(c.x), Self.byte(c.y), Self.byte(c.z), Self.byte(c.w))
    self.shape = state.streak == nil ? shape : ParticleShape.streak.rawValue
    additive = state.additive ? 1 : 0
  }

  private static func byte(_ share: Double) -> UInt8 {
    UInt8((min(max(share, 0), 1) * 255).rounded())
  }

  /// The attributes placed.vert reads, by name.
  static let attributes = [
    RecordAttribute(name: "a_place", location: 0, component: .float32, count: 4, offset: 0),
    RecordAttribute(name: "a_size", location: 1, component: .float32, count: 2, offset: 16),
    RecordAttribute(name: "a_rgba", location: 2, component: .normalizedUInt8, count: 4, offset: 24),
    RecordAttribute(name: "a_shape", location: 3, component: .uint8, count: 2, offset: 28),
  ]
}

/// The bench's CPU baselines: Swift evaluates the closed form for every particle (and every trail
/// copy) every frame and writes the sprites to draw; the GPU only places them.
package enum PlacementEvaluator {
  /// How the CPU evaluates the closed form.
  package enum Evaluation: Sendable {
    /// The Double reference (ConfettiPhysics), one particle at a time, on one core: the usual
    /// way of a CPU particle system.
    case reference
    /// The shader's Float formulas, eight particles at a time in SIMD lanes
    /// (``LaneEvaluator``), on every core, from the ring's records kept as `records` (up to date
    /// with it): a careful CPU path.
    case lanesOnAllCores(LaneRecords)
  }

  /// The most sprites `slots` of `ring` can need: one per particle and trail copy.
  package static func capacity(for ring: ParticleRing, slots: Int) -> Int {
    slots * (Int(ring.longestTrail) + 1)
  }

  /// Evaluates the particles in `slots` of `ring` at clock `now` and writes one sprite per
  /// visible particle and trail copy from the start of `output`, in the order the product draws
  /// them as `primitive`: particle by particle, each from its oldest copy to itself
  /// (instances); or copy by copy, every particle's oldest copy first and every particle itself
  /// last (points fed per vertex). Returns how many it wrote: the dead and unborn are left out,
  /// as a careful CPU renderer would.
  package static func evaluate(
    _ ring: ParticleRing, slots: Range<Int>, at now: Tick, table: CellTable = .plain,
    as primitive: SpritePrimitive = .instancedPoints, by evaluation: Evaluation = .reference,
    into output: UnsafeMutableBufferPointer<PlacedSprite>
  ) -> Int {
    precondition(output.count >= capacity(for: ring, slots: slots.count), "output too small")
    precondition(slots.lowerBound >= 0 && slots.upperBound <= ring.capacity, "slots out of range")
    let run: Run
    switch evaluation {
    case .reference:
      run = { onOneCore(ring, $0, now, table, $1, $2) }
    case .lanesOnAllCores(let records):
      precondition(
        records.capacity == ring.capacity, "the records must be the ring's, slot for slot")
      let lanes = LaneEvaluator(table: table)
      run = { slots, step, output in
        onAllCores(ring, slots, step, output) { part, output in
          lanes.place(records, slots: part, at: now, step: step, into: output)
        }
      }
    }
    guard primitive == .points else {
      return run(slots, nil, output)
    }
    var written = 0
    for step in 0...Int(ring.longestTrail) {
      written += run(slots, step, UnsafeMutableBufferPointer(rebasing: output[written...]))
    }
    return written
  }

  /// Evaluates slots, with a step or none (see ``onOneCore``), into an output; returns how many
  /// sprites it wrote.
  private typealias Run = (Range<Int>, Int?, UnsafeMutableBufferPointer<PlacedSprite>) -> Int

  /// `step` nil: every copy of each particle, oldest first; otherwise the copy `step` places
  /// after each particle's oldest (none where it has fewer).
  private static func onOneCore(
    _ ring: ParticleRing, _ slots: Range<Int>, _ now: Tick, _ table: CellTable, _ step: Int?,
    _ output: UnsafeMutableBufferPointer<PlacedSprite>
  ) -> Int {
    var written = 0
    ring.records.withUnsafeBufferPointer { records in
      for slot in slots {
        let record = records[slot]
        let oldest = Int(record.trail)
        let copies =
          step.map { stride(from: oldest - $0, through: oldest - $0, by: -1) }
          ?? stride(from: oldest, through: 0, by: -1)
        for copy in copies where copy >= 0 {
          guard
            let state = ConfettiPhysics.state(of: record, at: now, table: table, trailCopy: copy)
          else { continue }
          output[written] = PlacedSprite(state, shape: record.shape)
          written += 1
        }
      }
    }
    return written
  }

  /// `evaluate` on every core: `slots` split into one chunk per core, each evaluated into its own
  /// part of `output` (room for `step`'s one copy, or all copies, per slot), then moved together.
  private static func onAllCores(
    _ ring: ParticleRing, _ slots: Range<Int>, _ step: Int?,
    _ output: UnsafeMutableBufferPointer<PlacedSprite>,
    evaluate: @Sendable (Range<Int>, UnsafeMutableBufferPointer<PlacedSprite>) -> Int
  ) -> Int {
    let chunks = min(max(1, slots.count / 1024), ProcessInfo.processInfo.activeProcessorCount)
    let room = step == nil ? Int(ring.longestTrail) + 1 : 1
    var written = [Int](repeating: 0, count: chunks)
    let bounds = (0...chunks).map { slots.lowerBound + slots.count * $0 / chunks }
    written.withUnsafeMutableBufferPointer { counts in
      let (counts, sprites) = (Disjoint(counts), Disjoint(output))
      DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
        let part = bounds[chunk]..<bounds[chunk + 1]
        let start = (part.lowerBound - slots.lowerBound) * room
        counts.buffer[chunk] = evaluate(
          part,
          UnsafeMutableBufferPointer(rebasing: sprites.buffer[start..<(start + part.count * room)]))
      }
    }
    var total = 0
    for chunk in 0..<chunks {
      let start = (bounds[chunk] - slots.lowerBound) * room
      if start != total {
        let base = output.baseAddress!
        (base + total).update(from: base + start, count: written[chunk])
      }
      total += written[chunk]
    }
    return total
  }
}

/// A buffer whose parts are written by different threads, each only its own part.
private struct Disjoint<Element>: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<Element>
  init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
