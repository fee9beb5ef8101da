/// A fixed-capacity ring of particle records: the CPU's copy of the GPU's instance buffer and
/// the bookkeeping that decides what to upload and what to draw.
///
/// Records are appended at the head and never moved. Each record has a sequence number (how many
/// were appended before it); its slot is that number modulo the capacity. Two more sequence
/// numbers describe the ring:
///
/// - `tail`: every record before it is surely dead. ``reclaim(at:)`` advances it over dead
///   records, so the span from `tail` to `head` is the only part that can hold live particles and
///   the only part drawn (one draw, or two across the wrap; none when it is empty).
/// - `uploadedHead`: every record before it is already on the GPU, so only what lies between it
///   and `head` is uploaded (one sub-upload, or two across the wrap; none on a steady frame).
///
/// When the ring is full, appending overwrites the oldest records: memory never grows.
package struct ParticleRing: Sendable {
  /// How many records the ring holds.
  package let capacity: Int
  /// The records, by slot.
  package private(set) var records: [ParticleRecord]
  /// The clock time, in seconds, from which each slot's particle is surely dead.
  private var deaths: [Seconds]
  /// The clock time each slot's particle is born at: before it, it is not drawn.
  private var births: [Seconds]
  /// Sequence number of the next record appended.
  package private(set) var head = 0
  /// Sequence number of the oldest record that may still be alive.
  package private(set) var tail = 0
  /// Sequence number of the first record not yet uploaded.
  private var uploadedHead = 0
  /// When the record at the tail dies (infinity when the ring is empty): a steady frame's
  /// ``reclaim(at:)`` compares one number and touches no array.
  private var tailDeath = Double.infinity
  /// The longest trail of any record drawn: the copies each draw must make. Forgotten when the
  /// ring empties.
  package private(set) var longestTrail: UInt8 = 0
  /// What the shaders must compute for the records drawn (their shapes, paper shading,
  /// landings; ``ShaderFeatures``): they are compiled without the rest. Forgotten when the ring
  /// empties.
  package private(set) var features = ShaderFeatures()
  /// The largest diagonal, in points, any record drawn reaches over its life
  /// (``ParticleRecord/largestDiagonal``, and a streak's reach): whether every piece fits a
  /// point sprite. Forgotten when the ring empties.
  package private(set) var largestDiagonal: Points = 0
  /// The latest death of any record the ring has let go of (reclaimed, overwritten, skipped or
  /// removed): drawn at an earlier reading, the ring's picture may lack that particle.
  package private(set) var forgottenUntil: Seconds = -.infinity
  /// How many particles were let go of before their end, overwritten by newer ones in a full
  /// ring (or never written, when one batch held more than the ring): the drop-oldest policy's
  /// toll, which a host shows so that a capacity too small is never a silent shortfall.
  package private(set) var displaced = 0
  /// The latest death of any record in the drawn span (−infinity when it is empty), kept as
  /// records are appended; nil when an overwritten record may have held it (see ``lastDeath``).
  private var latestDeath: Seconds? = -.infinity

  package init(capacity: Int) {
    precondition(capacity > 0, "a ring holds at least one record")
    self.capacity = capacity
    let empty = ParticleRecord(ConfettiParticle(), birth: Tick(rawValue: 0))
    records = Array(repeating: empty, count: capacity)
    deaths = Array(repeating: 0, count: capacity)
    births = Array(repeating: 0, count: capacity)
  }

  /// How many records may still be alive: the length of the span that is drawn.
  package var drawnCount: Int { head - tail }

  /// Appends particles born at clock time `time`, overwriting the oldest records if full.
  /// `table` holds their emitters' styles, which say how long each stays visible (fade-out,
  /// trail).
  /// Of a batch larger than the ring only the last `capacity` particles are kept.
  package mutating func append(
    _ particles: [ConfettiParticle], bornAt time: Seconds, table: CellTable = .plain
  ) {
    let birth = Tick(time)
    let skipped = max(0, particles.count - capacity)
    if skipped > 0 {
      // The batch fills the whole ring: every record in it now is let go of.
      for sequence in tail..<head {
        if deaths[sequence % capacity] > time { displaced += 1 }
        forget(until: deaths[sequence % capacity])
      }
      head += skipped
      tail = head
      latestDeath = nil
    }
    displaced += skipped
    for particle in particles.prefix(skipped) {
      forget(until: Self.death(of: particle, bornAt: time, table: table))
    }
    for particle in particles.dropFirst(skipped) {
      let slot = head % capacity
      // The record this one overwrites, if it is still in the drawn span: let go of, before
      // its end if it has not ended by this birth.
      if head - capacity >= tail {
        if deaths[slot] > time { displaced += 1 }
        forget(until: deaths[slot])
        latestDeath = nil
      }
      records[slot] = ParticleRecord(particle, birth: birth)
      longestTrail = max(longestTrail, records[slot].trail)
      // The record's own (rounded) particle, as the shader sees it.
      let packed = records[slot].particle
      features.formUnion(ShaderFeatures(drawing: packed))
      // A streak reaches back its stretch of motion: its capsule is that much longer.
      let style = table[records[slot].emitter]
      let streak =
        style.stretch > 0
        ? style.stretch * ConfettiPhysics.fastestSpeed(of: packed, style: style) : 0
      largestDiagonal = max(largestDiagonal, records[slot].largestDiagonal + streak)
      // Never declared dead before the shader.
      deaths[slot] = Self.death(of: packed, bornAt: time, table: table)
      births[slot] = time
      latestDeath = latestDeath.map { max($0, deaths[slot]) }
      head += 1
    }
    tail = max(tail, head - capacity)
    refreshTailDeath()
  }

  /// Advances the tail over records that are dead at clock time `time`. A record behind a
  /// longer-lived one stays in the drawn span until that one dies too; the shader collapses it.
  package mutating func reclaim(at time: Seconds) {
    // After the ring overwrote records, the latest death is found again once, here.
    if latestDeath == nil { latestDeath = lastDeath }
    guard time >= tailDeath else { return }
    while tail < head, deaths[tail % capacity] <= time {
      forget(until: deaths[tail % capacity])
      tail += 1
    }
    refreshTailDeath()
  }

  /// The slot ranges that may hold live particles: at most two, empty when nothing is alive.
  package var drawnSlotRanges: [Range<Int>] { slotRanges(from: tail, to: head) }

  /// The slot ranges appended since the last ``markUploaded()``: at most two.
  package var pendingUploadRanges: [Range<Int>] {
    slotRanges(from: max(uploadedHead, head - capacity), to: head)
  }

  /// Records that everything appended so far is on the GPU.
  package mutating func markUploaded() {
    uploadedHead = head
  }

  /// The number of particles alive at clock time `time`: born by then and not yet gone (a
  /// scan of the drawn span). One born later, already written by its trigger, is not counted.
  package func aliveCount(at time: Seconds) -> Int {
    (tail..<head).reduce(0) { count, sequence in
      let slot = sequence % capacity
      return count + (births[slot] <= time && deaths[slot] > time ? 1 : 0)
    }
  }

  /// Forgets every particle (they are no longer drawn); what is on the GPU stays valid.
  package mutating func removeAll() {
    forget(until: lastDeath)
    tail = head
    latestDeath = -.infinity
    refreshTailDeath()
  }

  /// The clock time from which every particle in the ring is gone: the latest moment at which
  /// the closed form still draws one (each record's birth, life, fade-out and trail), to a
  /// tick. −infinity when the ring holds none. Constant time, except between an append that
  /// overwrote records and the next ``reclaim(at:)``, which scans the drawn span once.
  package var lastDeath: Seconds {
    if let latestDeath { return latestDeath }
    return (tail..<head).reduce(-.infinity) { max($0, deaths[$1 % capacity]) }
  }

  /// When a particle born at `time` is surely gone: its visible span plus a tick.
  private static func death(
    of particle: ConfettiParticle, bornAt time: Seconds, table: CellTable
  ) -> Seconds {
    time + particle.visibleSpan(style: table[particle.emitter]) + 1 / Tick.perSecond
  }

  private mutating func forget(until death: Seconds) {
    forgottenUntil = max(forgottenUntil, death)
  }

  private mutating func refreshTailDeath() {
    tailDeath = tail < head ? deaths[tail % capacity] : .infinity
    if tail == head {
      (longestTrail, features, largestDiagonal, latestDeath) = (0, [], 0, -.infinity)
    }
  }

  private func slotRanges(from start: Int, to end: Int) -> [Range<Int>] {
    guard end > start else { return [] }
    let first = start % capacity
    let count = end - start
    if first + count <= capacity { return [first..<(first + count)] }
    return [first..<capacity, 0..<(first + count - capacity)]
  }
}
