import Confetti
import ConfettiCore

/// A render's clock: the effect opened at ``start``, the triggers fired in the order of their
/// moments as the clock reaches each, the emission advanced in steps of at most
/// ``step`` (a step ends at a trigger's moment when that comes first). A render replays
/// it from the opening whichever frames it draws, and ``Export/length(of:_:)`` replays it with
/// no GL: the same births at the same moments.
struct RenderTimeline {
  /// The scene's steps between pictures: births are decided per step, as in the window.
  static let step: Seconds = oneFrame
  /// The clock reading of the effect's time 0 (``ConfettiSystem/openingReading``).
  let start = ConfettiSystem.openingReading
  /// The reading the emission has been advanced to.
  private(set) var clock: Seconds
  /// The triggers not yet fired, in the order of their moments.
  private var pending: ArraySlice<RenderTrigger>

  /// The clock at the effect's opening, `triggers` still to fire.
  init(_ triggers: [RenderTrigger]) {
    clock = start
    pending = triggers.sorted { $0.time < $1.time }[...]
  }

  /// Whether every trigger has been fired.
  var isDone: Bool { pending.isEmpty }

  /// Opens the effect (`fire(nil, start)`), then fires the triggers due at time 0.
  mutating func open(fire: (RenderTrigger?, Seconds) -> Void) {
    fire(nil, start)
    fireDue(fire)
  }

  /// Moves the clock on to `now`: `advance` at each step's end, `fire` for each trigger due.
  mutating func run(
    to now: Seconds, advance: (Seconds) -> Void, fire: (RenderTrigger?, Seconds) -> Void
  ) {
    while clock < now {
      let due = pending.first.map { start + $0.time } ?? .infinity
      clock = min(now, clock + Self.step, max(clock, due))
      advance(clock)
      fireDue(fire)
    }
  }

  /// Fires the triggers whose moments the clock has reached, in order.
  private mutating func fireDue(_ fire: (RenderTrigger?, Seconds) -> Void) {
    while let next = pending.first, start + next.time <= clock {
      fire(next, start + next.time)
      pending.removeFirst()
    }
  }
}
