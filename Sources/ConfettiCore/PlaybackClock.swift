/// The effect's clock as a player drives it: paused, slowed, sped up, stepped a frame at a time
/// and run backwards, from readings of a wall clock the host passes in (seconds, any origin).
///
/// The reading is kept as a whole number of the clock's ticks (2⁻²⁰ s), so that stepping forward and back again
/// returns to the very same tick, and a speed (a power of two) scales wall time exactly. Because
/// every frame is the closed form at a reading, any reading can be drawn: a clock run backwards
/// shows particles flying back to their births and vanishing before them.
public struct PlaybackClock: Sendable {
  /// The speeds, slowest to fastest: each a power of two, so scaling is exact.
  public static let speeds: [Double] = [0.125, 0.25, 0.5, 1, 2, 4, 8]
  /// One frame at 60 Hz, in whole ticks: the step of ``step(frames:)``.
  public static let frameTicks: Int64 = Int64(Tick.perSecond * oneFrame)
  /// How long an arrow key is held, while paused, before time starts running rather than
  /// stepping, in wall seconds.
  public static let holdDelay: Seconds = 0.35

  /// Which way a held arrow key runs time.
  public enum Direction: Sendable {
    /// Time runs on.
    case forward
    /// Time runs back.
    case backward
  }

  /// The reading, in ticks since the clock's 0.
  public private(set) var ticks: Int64
  /// How fast the reading moves against the wall clock: one of ``speeds``.
  public private(set) var speed: Double = 1
  /// Whether time stands still (a held arrow key still moves it).
  public private(set) var isPaused = false
  /// The arrow key held, and since when (wall seconds).
  private var held: (direction: Direction, since: Seconds)?
  /// The wall reading of the last ``update(wall:)``.
  private var wall: Seconds
  /// The earliest reading time may run back to, in seconds (a system's
  /// `earliestExactReading`); never below 0.
  public var earliest: Seconds = 0

  /// A clock reading `reading` seconds at wall reading `wall`, running at 1×.
  public init(reading: Seconds = 0, wall: Seconds) {
    precondition(Tick.isValid(reading: reading), "clock readings are \(Tick.validReadings)")
    ticks = Int64((reading * Tick.perSecond).rounded(.down))
    self.wall = wall
  }

  /// The reading, in seconds: exact (a whole number of ticks).
  public var reading: Seconds { Double(ticks) / Tick.perSecond }

  /// Whether an arrow key is held (time will move while paused, once held long enough).
  public var isHeld: Bool { held != nil }

  /// Whether the reading is moving backwards now.
  public var isRunningBackwards: Bool { held?.direction == .backward && isRunning }

  /// Whether the reading moves with the wall clock now (forwards or backwards).
  private var isRunning: Bool { runningSince <= wall }

  /// The wall reading from which time has been running since the last update: the last
  /// update's, or, paused with an arrow held, the end of the hold delay; infinity when paused.
  private var runningSince: Seconds {
    guard isPaused else { return wall }
    guard let held else { return .infinity }
    return max(wall, held.since + Self.holdDelay)
  }

  /// Moves the reading on by the wall time since the last update, times the speed, backwards
  /// while the back arrow is held; returns the new reading. A wall clock that runs backwards
  /// moves nothing.
  @discardableResult
  public mutating func update(wall now: Seconds) -> Seconds {
    let elapsed = max(0, now - runningSince)
    wall = max(wall, now)
    let delta = Int64((elapsed * speed * Tick.perSecond).rounded(.down))
    move(by: held?.direction == .backward ? -delta : delta)
    return reading
  }

  /// Pauses, or runs again at the same speed.
  public mutating func togglePause(wall now: Seconds) {
    update(wall: now)
    isPaused.toggle()
  }

  /// Halves (`-1`) or doubles (`+1`) the speed, within ``speeds``.
  public mutating func changeSpeed(by steps: Int, wall now: Seconds) {
    update(wall: now)
    let index = Self.speeds.firstIndex(of: speed) ?? 3
    speed = Self.speeds[min(Self.speeds.count - 1, max(0, index + steps))]
  }

  /// Moves the reading by whole frames at 60 Hz (negative: back), within ``earliest``.
  public mutating func step(frames: Int) {
    move(by: Int64(frames) * Self.frameTicks)
  }

  /// An arrow key pressed: while paused, steps a frame that way and, held past
  /// ``holdDelay``, runs that way; while playing, the back arrow runs time backwards for as
  /// long as it is held.
  public mutating func hold(_ direction: Direction, wall now: Seconds) {
    update(wall: now)
    if held?.direction == direction { return }
    if isPaused { step(frames: direction == .forward ? 1 : -1) }
    held = (direction, now)
  }

  /// The arrow key let go: time runs as before it was pressed.
  public mutating func release(_ direction: Direction, wall now: Seconds) {
    update(wall: now)
    if held?.direction == direction { held = nil }
  }

  private mutating func move(by delta: Int64) {
    let floor = Int64((max(0, earliest) * Tick.perSecond).rounded(.up))
    let limit = Int64.max
    if delta < 0 {
      // Never back past the floor; a clock already below it (the floor rose) stays put.
      ticks = max(min(ticks, floor), ticks + delta)
    } else {
      ticks = min(limit, ticks + delta)
    }
  }
}
