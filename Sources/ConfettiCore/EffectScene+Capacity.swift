// How many pieces an effect has alive at once: the ring capacity a system asks for by default.

extension EffectScene {
  /// A ring capacity that holds everything one firing of each of `config`'s emitters has
  /// visible at once, with room to spare: bursts' counts, and what the emitting cells bear over
  /// the longest life among them (for a timed emitter, no more than it emits in all), each piece
  /// with the sub-cells it starts. The ring frees its slots in the order they were written, so a
  /// short-lived piece holds its slot until every older one is gone: it is the longest life that
  /// counts, not each cell's own (the fire's flames, 0.9 s, wait behind its smoke, 1.9 s).
  package static func suggestedCapacity(for config: EffectConfig) -> Int {
    func family(_ cell: CellConfig, generation: Int = 1) -> Double {
      guard generation <= deepestSubCell else { return 1 }
      return cell.starts.reduce(1) { total, name in
        guard let sub = config.subCell(named: name) else { return total }
        let child = config.subCells[sub]
        return total + Double(child.count) * family(child, generation: generation + 1)
      }
    }
    func life(_ cell: CellConfig) -> Seconds {
      cell.lifetime.bounds.upperBound + Double(cell.trail) * cell.trailSpacing
    }
    let emitting = config.emitters.filter { $0.emission != .burst }
    let longest = emitting.flatMap(\.cells).map(life).max() ?? 0
    var total = 0.0
    for emitter in config.emitters {
      for cell in emitter.cells {
        var pieces: Double
        switch emitter.emission {
        case .burst: pieces = Double(cell.count)
        case .continuous: pieces = cell.birthRate * longest
        case .timed(let duration, _, _):
          pieces = min(
            cell.birthRate * longest,
            births(of: cell.birthRate, emission: emitter.emission, by: duration))
        }
        total += pieces * family(cell)
      }
    }
    return Int(min(4_000_000, max(1024, (total * 1.25).rounded(.up))))
  }
}
