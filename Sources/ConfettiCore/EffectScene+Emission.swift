// How an effect's emitters make their pieces as its clock moves on: the grid of each emitter's
// own time, prewarms, tapers, and the bounds on what one advance makes.

extension EffectScene {
  /// Emits what the running emitters owe up to `time` (at most ``longestStep`` of it each) and
  /// frees the records of particles no longer visible (but those ended within ``history`` of
  /// the latest reading). Emitters placed by the configuration follow `window` (a resized
  /// window moves them); those placed at a click stay at its point. A reading earlier than the
  /// latest emits nothing: emission only moves forward, and what was born after it is already
  /// in the ring, unborn at that reading.
  package mutating func advance(to time: Seconds, window: Size) {
    subCellBudget = Self.maximumSubCellBirths
    latest = max(latest, time)
    var budget = Self.maximumBirthsPerStep
    for index in running.indices { moveClock(index, to: time) }
    makePassedSteps(of: Array(running.indices), window: window, budget: &budget)
    // A timed emitter owes nothing after its emission (half its duration, when it tapers); its
    // particles already carry the moment of its fade-out.
    running.removeAll(where: isSpent)
    ring.reclaim(at: min(time, latest - history))
  }

  /// The earliest clock reading drawn exactly: before it, a particle the ring has let go of
  /// would still be visible, or (an hour back) births would wrap into sight. The latest reading
  /// when the ring has let go of something still visible; −infinity before any reading.
  package var earliestExactReading: Seconds {
    min(latest, max(ring.forgottenUntil, latest - Self.longestRewind))
  }

  /// How far before the latest reading a clock may run back at most: half the tick counter's
  /// wrap, less the longest life, so that a particle born later is still unborn there.
  package static let longestRewind: Seconds =
    Double(UInt32.max / 2) / Tick.perSecond - ParticleRecord.maximumLifetime

  func isSpent(_ running: RunningEmitter) -> Bool {
    guard case .timed(let duration, _, let taper) = config.emitters[running.emitter].emission
    else { return false }
    return Double(running.steps) * Self.emissionStep >= (taper ? duration / 2 : duration) - 1e-9
  }

  /// Moves running emitter `index`'s own clock on to reading `time`, at most ``longestStep``.
  mutating func moveClock(_ index: Int, to time: Seconds) {
    let step = min(max(0, time - running[index].lastTime), Self.longestStep)
    running[index].lastTime = max(running[index].lastTime, time)
    running[index].local += step
  }

  /// Makes the births of every grid step (``emissionStep``) that the clocks of running emitters
  /// `indices` have passed, one step at a time in the order of their moments: the same pieces in
  /// the same order, whatever steps the scene was advanced in.
  mutating func makePassedSteps(of indices: [Int], window: Size, budget: inout Int) {
    while true {
      var next: (index: Int, clock: Seconds)?
      for index in indices where !isSpent(running[index]) {
        let end = Double(running[index].steps + 1) * Self.emissionStep
        guard end <= running[index].local + 1e-9 else { continue }
        let clock = running[index].origin + end
        if clock < next?.clock ?? .infinity { next = (index, clock) }
      }
      guard let (index, clock) = next, !stopRequested else { return }
      running[index].steps += 1
      swap(&random, &running[index].random)
      emitStep(
        index, ending: Double(running[index].steps) * Self.emissionStep, at: clock, window: window,
        budget: &budget)
      swap(&random, &running[index].random)
    }
  }

  /// The births of running emitter `index`'s grid step that ends at `end` seconds of its own
  /// time, clock reading `clock`: each cell's due, spread evenly over the step.
  mutating func emitStep(
    _ index: Int, ending end: Seconds, at clock: Seconds, window: Size, budget: inout Int
  ) {
    let emitter = config.emitters[running[index].emitter]
    for (c, cell) in emitter.cells.enumerated() {
      let due = Int(Self.births(of: cell.birthRate, emission: emitter.emission, by: end))
      let owed = due - running[index].born[c]
      running[index].born[c] = due
      let count = min(owed, budget)
      unmade += max(0, owed - count)
      guard count > 0 else { continue }
      budget -= count
      // Spread evenly over the step, each written with its own birth time.
      let from = end - Self.emissionStep
      for k in 0..<count {
        if k % Self.stopCheckInterval == Self.stopCheckInterval - 1, stopRequested { return }
        let local = from + Self.emissionStep * Double(k + 1) / Double(count)
        var fadeAt = Seconds.infinity
        // A fade-out of 0 leaves the particles to live out their own lives.
        if case .timed(let duration, let fadeOut, _) = emitter.emission, fadeOut > 0 {
          fadeAt = duration - local
        }
        let e = running[index].emitter
        let born = particle(
          emitter: e, cell: .emitter(e, c),
          origin: running[index].pointer ?? emitter.origin(in: window), window: window,
          fadeAt: fadeAt)
        ring.append([born], bornAt: clock - (end - local), table: table)
        startSubCells(
          of: [born], cell: .emitter(e, c), bornAt: clock - (end - local), window: window)
      }
    }
  }

  /// Runs a just-started emitter through its prewarm, from `prewarm` seconds before `time` to
  /// `time` in steps of ``prewarmStep``, as a window would have run it.
  mutating func prewarm(_ index: Int, by prewarm: Seconds, to time: Seconds, window: Size) {
    let start = time - prewarm
    running[index].lastTime = start
    var steps = skippedPrewarmSteps(index, by: prewarm, to: time) + 1
    while running[index].lastTime < time, !stopRequested {
      let next = min(time, start + Double(steps) * Self.emissionStep)
      var budget = Self.maximumBirthsPerStep
      moveClock(index, to: next)
      makePassedSteps(of: [index], window: window, budget: &budget)
      steps += 1
    }
  }

  /// How many of a prewarm's first steps would emit only pieces the ring cannot keep: those
  /// whose births are followed by at least a ring's worth more (the oldest make way). They are
  /// passed over (the emitter's clock and counts moved on as if they had run), so that a rate
  /// far beyond the ring costs what the ring holds, not what the prewarm would emit. Where the
  /// whole prewarm fits the ring, none are.
  mutating func skippedPrewarmSteps(_ index: Int, by prewarm: Seconds, to time: Seconds)
    -> Int
  {
    let emitter = config.emitters[running[index].emitter]
    let local = running[index].local
    let count = Int((prewarm / Self.emissionStep).rounded(.up))
    func due(afterSteps k: Int) -> [Double] {
      let u = local + min(prewarm, Double(k) * Self.emissionStep)
      return emitter.cells.map { Self.births(of: $0.birthRate, emission: emitter.emission, by: u) }
    }
    // From the last step back, what each step appends (at most a step's budget).
    var later = 0
    var after = due(afterSteps: count)
    for k in stride(from: count - 1, through: 0, by: -1) {
      let before = due(afterSteps: k)
      let owed = zip(after, before).map { Int($0) - Int($1) }.reduce(0, +)
      later += min(max(0, owed), Self.maximumBirthsPerStep)
      if later >= ring.capacity {
        guard k > 0 else { return 0 }
        running[index].local = local + Double(k) * Self.emissionStep
        running[index].steps = k
        running[index].lastTime = time - prewarm + Double(k) * Self.emissionStep
        running[index].born = before.map { Int($0) }
        return k
      }
      after = before
    }
    return 0
  }

  /// The grid an emitter's births are decided on, in seconds of its own time, and the steps a
  /// prewarm takes: a frame at 60 Hz.
  package static let emissionStep: Seconds = oneFrame

  /// How many particles an emitter of `rate` per second has owed after `u` seconds of emission:
  /// rate·u; for a timed emission of duration D, rate·min(u, D), or with its taper the integral
  /// of rate·(1 − (u/h)²) with h = D/2, which stops growing at h (rate·D/3 in all).
  package static func births(of rate: PerSecond, emission: Emission, by u: Seconds) -> Double {
    switch emission {
    case .burst: return 0
    case .continuous: return rate * u
    case .timed(let duration, _, let taper):
      guard taper else { return rate * min(u, duration) }
      let h = duration / 2
      let v = min(u, h)
      return rate * (v - v * v * v / (3 * h * h))
    }
  }

  /// The taper: the share of its birth rate a timed emitter of `duration` emits at `u`.
  package static func taper(duration: Seconds, at u: Seconds) -> Double {
    let x = u / (duration / 2)
    return x >= 1 ? 0 : 1 - x * x
  }
}
