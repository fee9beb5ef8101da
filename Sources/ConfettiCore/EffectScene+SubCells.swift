// Pieces that start pieces: a shell's sparks, their crackle, as deep as three generations,
// bounded in number per trigger or advance.

extension EffectScene {
  /// How many generations of sub-cells a piece may start: a shell, its sparks, their crackle.
  package static let deepestSubCell = 3

  /// The most sub-cell pieces one ``trigger(_:at:window:time:)`` or one
  /// ``advance(to:window:)`` writes, all generations together: more are not written, so that
  /// no configuration can stall the program making them (the ring keeps only its capacity
  /// anyway).
  package static let maximumSubCellBirths = 100_000

  /// Starts the sub-cells of each of `parents` (pieces of `key` born at `time`): those of
  /// ``CellConfig/onDeath`` where and when the piece ends, those of ``CellConfig/alongFlight``
  /// along its way. Everything is known at birth, so the children are written now, each with
  /// its own future birth time: no per-frame tracking, no reading back from the GPU.
  mutating func startSubCells(
    of parents: [ConfettiParticle], cell key: CellKey, bornAt time: Seconds, window: Size,
    generation: Int = 1
  ) {
    let cell = self.cell(key)
    guard !(cell.onDeath.isEmpty && cell.alongFlight.isEmpty),
      generation <= Self.deepestSubCell
    else { return }
    // The first generation of each parent's children, for what the budget leaves unmade.
    let promised =
      cell.onDeath.compactMap { config.subCell(named: $0) }.map { config.subCells[$0].count }
      .reduce(0, +)
      + cell.alongFlight.compactMap { config.subCell(named: $0) }.map { config.subCells[$0].count }
      .reduce(0, +)
    for parent in parents {
      guard subCellBudget > 0 else {
        unmade += promised
        continue
      }
      var made = 0
      defer { unmade += max(0, promised - made) }
      // The piece as the GPU draws it, and its last visible moment.
      let drawn = parent.packed
      let style = table[drawn.emitter]
      let end = drawn.ownLife(style: style)
      // Each sub-cell, the moments it is born at, and how many at each.
      var starts: [(sub: Int, ages: [Seconds], each: Int)] = []
      for name in cell.onDeath {
        guard let sub = config.subCell(named: name) else { continue }
        starts.append((sub, [end.nextDown], config.subCells[sub].count))
      }
      for name in cell.alongFlight {
        guard let sub = config.subCell(named: name) else { continue }
        let count = config.subCells[sub].count
        let ages = (0..<min(count, subCellBudget)).map { end * (Double($0) + 0.5) / Double(count) }
        starts.append((sub, ages, 1))
      }
      for (sub, ages, each) in starts {
        for age in ages where subCellBudget > 0 {
          let count = min(each, subCellBudget)
          subCellBudget -= count
          made += count
          let moment = time + age
          let clock = Tick(moment)
          guard let state = ConfettiPhysics.state(of: drawn, age: age, style: style, now: clock)
          else { continue }
          let velocity = ConfettiPhysics.velocity(of: drawn, age: age, style: style, now: clock)
          let inherited = velocity * config.subCells[sub].inheritVelocity
          let born = (0..<count).map { _ in
            particle(
              emitter: nil, cell: .sub(sub), origin: state.position, window: window,
              fadeAt: .infinity, inherited: inherited)
          }
          ring.append(born, bornAt: moment, table: table)
          startSubCells(
            of: born, cell: .sub(sub), bornAt: moment, window: window,
            generation: generation + 1)
        }
      }
    }
  }
}
