import ConfettiCore
import FoundationEssentials
import Glibc

/// The scenes `confetti --bench` measures, deterministic for a seed.
///
/// **Steady:** `count` particles of an effect (by default the classic cannon: its sizes, colours
/// and motion) are alive through the whole measured window. Their births are spread over 1.5 s
/// (the classic cannon's lifetime) before the clock starts, they live twice that, and the clock
/// loops over those 1.5 s: every frame shows all of them, at ages from 0 to 3 s, and no frame
/// needs a new record.
///
/// **Churn:** the same, but the clock runs on and particles keep being born at the rate that keeps
/// `count` alive (count / lifetime per second), overwriting the oldest: the cost of spawning.
package struct BenchScene: Sendable {
  /// Births are spread over this span before the clock starts, and the steady clock loops over it.
  package static let birthSpread: Seconds = 1.5
  /// Each particle's lifetime: the spread plus the loop, so none dies while measured.
  package static let lifetime: Seconds = 3.0
  /// Simulated time per frame: every mode and run renders the same moments.
  package static let frameStep: Seconds = oneFrame
  /// The clock reading at which measuring starts (there must be room for births before it).
  package static let start: Seconds = 10

  package let count: Int
  package let window: Size
  package let churn: Bool
  /// The scene's particles: `count` records, filled at creation.
  package var ring: ParticleRing
  /// Where the particles come from: every cell of every emitter in turn, each drawing its
  /// randomness from the effect's seed.
  private var effect: EffectScene
  private var bornSoFar = 0.0

  /// A scene of `count` particles of `config` (the bench runs the `classic-cannon` preset unless
  /// told otherwise), their lifetime made the bench's, drawn from `seed`.
  package init(
    count: Int, window: Size, seed: UInt64, churn: Bool, effect config: EffectConfig,
    reduceMotion: Bool = false
  ) throws(ConfigError) {
    self.count = count
    self.window = window
    self.churn = churn
    ring = ParticleRing(capacity: count)
    effect = try EffectScene(config: config, capacity: 1, seed: seed, reduceMotion: reduceMotion)
    fill()
  }

  /// The styles of the effect's particles.
  package var table: CellTable { effect.table }
  /// The shapes the effect's particles use.
  package var shapes: ShapeTable { effect.shapes }

  /// `count` new particles.
  private mutating func spawn(_ count: Int) -> [ConfettiParticle] {
    effect.sample(count: count, window: window).map {
      var particle = $0
      particle.lifetime = Self.lifetime
      particle.fade = min(particle.fade, Self.lifetime)
      return particle
    }
  }

  /// Fills the empty ring with `count` particles born over the spread before ``start``.
  private mutating func fill() {
    let batches = Swift.min(count, 1500)
    for batch in 0..<batches {
      let born = spawn(count * (batch + 1) / batches - count * batch / batches)
      let birth = Self.start - Self.birthSpread * (1 - Double(batch) / Double(batches))
      ring.append(born, bornAt: birth, table: table)
    }
  }

  /// The clock reading for frame `frame`: looping over the spread (steady), or running on (churn).
  package func time(ofFrame frame: Int) -> Seconds {
    let elapsed = Double(frame) * Self.frameStep
    return Self.start
      + (churn ? elapsed : elapsed.truncatingRemainder(dividingBy: Self.birthSpread))
  }

  /// Advances the scene to frame `frame` and returns its clock reading: in churn, appends the
  /// particles due by then; always, reclaims the dead.
  package mutating func advance(toFrame frame: Int) -> Seconds {
    let time = self.time(ofFrame: frame)
    if churn {
      let due = Double(count) / Self.lifetime * (time - Self.start)
      let births = Int(due - bornSoFar)
      if births > 0 {
        bornSoFar += Double(births)
        ring.append(spawn(births), bornAt: time, table: table)
      }
    }
    ring.reclaim(at: time)
    return time
  }
}
