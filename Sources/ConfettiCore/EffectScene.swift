import FoundationEssentials
import Glibc

/// An ``EffectConfig`` running: its emitters decide births on the CPU when they happen and write
/// each particle once into the ring; the GPU does the rest.
///
/// Emission follows a clock of its own that advances at most ``longestStep`` per
/// ``advance(to:window:)``: after a stall (a minimised window, a debugger, a slow frame) the
/// missed time is dropped, not made up in a flood. Births per call are bounded too.
///
/// What an emitter makes does not depend on the steps the scene is advanced in: its births are
/// decided on a grid of its own time (``emissionStep``), and each firing draws from a random
/// stream of its own. So a window drawing at any frame rate and `confetti render` stepping at
/// 60 Hz show the same pieces at the same moment of an effect fired the same way.
///
/// Here: its state, set-up and triggers. Beside it: emission as the clock moves
/// (EffectScene+Emission.swift), each piece's birth (+Pieces), sub-cells (+SubCells), the
/// default capacity (+Capacity), and reduced motion (ReducedMotion.swift). Its state is
/// internal, for those files; nothing outside the scene changes it.
package struct EffectScene: Sendable {
  package let config: EffectConfig
  package var ring: ParticleRing
  /// One entry per cell: wind, colour ramp, fade-out and trail spacing.
  package private(set) var table = CellTable()

  /// Suits every cell's additive light to a backdrop of `lightness` (0 to 1)
  /// (``CellTable/setBackdrop(lightness:covers:)``).
  package mutating func setBackdrop(lightness: Double, covers: Bool) {
    table.setBackdrop(lightness: lightness, covers: covers)
  }
  /// The polygons and images the cells use.
  package private(set) var shapes = ShapeTable()
  /// Replace movement with a short, gentle fade in place (see ``ConfettiParticle/reducedMotion(style:)``).
  package var reduceMotion: Bool
  var random: SplitMix64
  /// The scene's seed, from which each firing's own stream is derived.
  let seed: UInt64
  /// How many emitters have been fired: the next firing's stream.
  var firings: UInt64 = 0
  /// Per emitter, per cell: its table entry and its shapes.
  var emitterCells: [[CellSetup]] = []
  /// The same for each sub-cell.
  var subCellSetups: [CellSetup] = []
  var running: [RunningEmitter] = []
  /// How many particles ``sample(count:window:)`` has drawn: where its turn goes on.
  var sampled = 0
  /// The sub-cell pieces the current trigger or advance may still write.
  var subCellBudget = 0
  /// Pieces owed but not made: beyond ``maximumBirthsPerStep`` in one advance, or a burst's
  /// beyond what the ring holds.
  var unmade = 0
  /// The latest clock reading the scene was advanced to (−infinity before the first).
  package internal(set) var latest: Seconds = -.infinity
  /// How long after the latest reading particles that have ended are kept, in seconds, so that
  /// a clock run backwards draws them again. Default 0: freed as they end.
  package var history: Seconds = 0
  /// Asked while a burst of many pieces is made (every ``stopCheckInterval``), and at every
  /// step of emission and prewarm: true stops making them, leaving the scene short of them, for
  /// a render that is being stopped (a burst of millions, or a long prewarm of a high rate,
  /// takes seconds to minutes). Nil: never asked.
  package var shouldStop: (@Sendable () -> Bool)?
  /// How many pieces a burst makes between two questions to ``shouldStop``.
  package static let stopCheckInterval = 4096
  /// What ``shouldStop`` says now (false when there is none).
  var stopRequested: Bool { shouldStop?() == true }

  /// The most emitters emitting at once. Starting another stops the oldest one a click or a key
  /// started; the effect's own start emitters are stopped only when nothing else is left.
  package static let maximumRunning = 64
  /// The most emission time one call to ``advance(to:window:)`` covers; the rest is dropped.
  /// Four seconds: a window's slow first frames (shaders compiling, on a machine busy with
  /// other work too: over a second was seen) lose nothing, so the window still shows what
  /// `confetti render` draws at each moment; and a window left minimised for an hour makes up
  /// four seconds, not an hour.
  package static let longestStep: Seconds = 4
  /// The most particles born in one call to ``advance(to:window:)``.
  package static let maximumBirthsPerStep = 20_000

  /// How many pieces the effect promised but does not show: those a full ring let go of before
  /// their end (its capacity is too small for the effect; see ``ParticleRing/displaced``), those
  /// of a burst beyond the ring's capacity (never made), and those owed beyond
  /// ``maximumBirthsPerStep``. 0 when everything promised is drawn. Time a
  /// stall drops (``longestStep``) is not counted: nothing is owed for it.
  package var dropped: Int { ring.displaced + unmade }

  package init(config: EffectConfig, capacity: Int, seed: UInt64, reduceMotion: Bool = false)
    throws(ConfigError)
  {
    self.config = config
    ring = ParticleRing(capacity: capacity)
    random = SplitMix64(seed: seed)
    self.seed = seed
    self.reduceMotion = reduceMotion
    for (e, emitter) in config.emitters.enumerated() {
      var setups: [CellSetup] = []
      for (c, cell) in emitter.cells.enumerated() {
        setups.append(try setUp(cell, of: emitter, at: "$.emitters[\(e)].cells[\(c)]"))
      }
      emitterCells.append(setups)
    }
    // A sub-cell's pieces share no emitter: no wind, no fade-out with one.
    for (i, cell) in config.subCells.enumerated() {
      subCellSetups.append(try setUp(cell, of: EmitterConfig(), at: "$.subCells[\(i)]"))
    }
  }

  /// What the scene sets up for one cell: its entry in the cell table, and the shapes its
  /// pieces draw from.
  struct CellSetup: Sendable {
    var style: UInt8
    var shapes: [ParticleShape]
  }

  /// Gives `cell` of `emitter` the next entry of the cell table and adds its polygons and
  /// images to the shape table; `path` names it in errors.
  mutating func setUp(_ cell: CellConfig, of emitter: EmitterConfig, at path: String)
    throws(ConfigError) -> CellSetup
  {
    let style = table.styles.count
    table.set(Self.style(of: cell, in: emitter), at: style)
    return CellSetup(style: UInt8(style), shapes: try shapeList(of: cell, at: path))
  }

  /// What all pieces of `cell` of `emitter` share: its entry in the cell table.
  private static func style(of cell: CellConfig, in emitter: EmitterConfig) -> CellStyle {
    var style = CellStyle()
    style.wind = emitter.wind
    style.gustAmplitude = emitter.gustAmplitude
    style.gustPeriod = emitter.gustPeriod
    style.colorSpeed = cell.colorSpeed
    if case .timed(_, let fadeOut, _) = emitter.emission { style.fadeOut = fadeOut }
    style.trailSpacing = cell.trailSpacing
    style.fadeIn = cell.fadeIn
    style.twinkle = cell.twinkle
    style.additive = cell.blend == .additive
    style.stretch = cell.stretch
    return style
  }

  /// The shapes `cell` draws, its polygons and images added to the scene's table.
  mutating func shapeList(of cell: CellConfig, at path: String) throws(ConfigError)
    -> [ParticleShape]
  {
    var list: [ParticleShape] = []
    for (s, choice) in cell.shapes.enumerated() {
      do {
        switch choice {
        case .builtIn(let shape): list.append(shape)
        case .polygon(let corners): list.append(try shapes.add(polygon: corners))
        case .image(let path): list.append(try shapes.add(image: path))
        case .text(let text): list.append(try shapes.add(text: text))
        }
      } catch {
        throw ConfigError(path: "\(path).shapes[\(s)]", message: error.description)
      }
    }
    return list
  }

  /// Whether any emitter is still emitting (the window must keep drawing).
  package var isEmitting: Bool { !running.isEmpty }

  /// How many emitters are emitting.
  package var runningCount: Int { running.count }

  /// Whether the effect has emitters with `trigger`.
  package func has(_ trigger: EmitterTrigger) -> Bool {
    config.emitters.contains { $0.trigger == trigger }
  }

  /// The random stream of the next firing: the scene's seed's own for the first (a single
  /// burst draws what it always drew), a stream derived from it for each after.
  mutating func nextFiringStream() -> SplitMix64 {
    defer { firings += 1 }
    guard firings > 0 else { return SplitMix64(seed: seed) }
    var mixer = SplitMix64(seed: seed ^ (firings &* 0x9E37_79B9_7F4A_7C15))
    return SplitMix64(seed: mixer.next())
  }

  /// Starts every emitter with `trigger` at `time`: a click's at `pointer`, the others (and a
  /// click's where there is no pointer) at their configured position in a window of `window`.
  /// Bursts are born at once; timed and continuous emitters start emitting. A pointer that is
  /// not finite fires nothing.
  package mutating func trigger(
    _ trigger: EmitterTrigger, at pointer: Point? = nil, window: Size, time: Seconds
  ) {
    // A point that is not finite (NaN, infinity) is no place on any screen: nothing is fired.
    if let pointer, !(pointer.x.isFinite && pointer.y.isFinite) { return }
    subCellBudget = Self.maximumSubCellBirths
    for (index, emitter) in config.emitters.enumerated() where emitter.trigger == trigger {
      let placed = trigger == .click ? pointer : nil
      let origin = placed ?? emitter.origin(in: window)
      var stream = nextFiringStream()
      if emitter.emission == .burst {
        swap(&random, &stream)
        defer { swap(&random, &stream) }
        for (c, cell) in emitter.cells.enumerated() {
          // No more than the ring can hold are made: a burst of millions costs what can live.
          let made = min(cell.count, ring.capacity)
          unmade += cell.count - made
          var born: [ConfettiParticle] = []
          born.reserveCapacity(made)
          for k in 0..<made {
            if k % Self.stopCheckInterval == Self.stopCheckInterval - 1, stopRequested { return }
            born.append(
              particle(
                emitter: index, cell: .emitter(index, c), origin: origin, window: window,
                fadeAt: .infinity))
          }
          ring.append(born, bornAt: time, table: table)
          startSubCells(of: born, cell: .emitter(index, c), bornAt: time, window: window)
        }
      } else {
        if running.count == Self.maximumRunning {
          let emitters = config.emitters
          running.remove(at: running.firstIndex { emitters[$0.emitter].trigger != .start } ?? 0)
        }
        running.append(
          RunningEmitter(
            emitter: index, pointer: placed, lastTime: time,
            born: Array(repeating: 0, count: emitter.cells.count), random: stream))
        if emitter.prewarm > 0 {
          prewarm(running.count - 1, by: emitter.prewarm, to: time, window: window)
          if isSpent(running[running.count - 1]) { running.removeLast() }
        }
      }
    }
  }

  /// Fires what opens the effect at `time`, as the confetti program's window, overlay and render
  /// open it: its start emitters, or, where it has none, its key ones (or its click ones, at
  /// their configured places).
  package mutating func fireOpening(window: Size, time: Seconds) {
    trigger(.start, window: window, time: time)
    if !has(.start), let first = [EmitterTrigger.key, .click].first(where: has) {
      trigger(first, window: window, time: time)
    }
  }

  /// Whether an emitter emits until it is stopped (a continuous one: snow, rain, a fire's
  /// flames), so the effect never ends by itself.
  package var emitsUntilStopped: Bool {
    running.contains { config.emitters[$0.emitter].emission == .continuous }
  }

  /// Stops every emitter; what was born lives out its life.
  package mutating func stopEmitting() {
    running.removeAll()
  }

  /// Forgets every particle and stops every emitter, or, `keepingStartEmitters`, only those a
  /// click or a key started: the effect's own start emitters (fire's flames, snow) go on.
  package mutating func removeAll(keepingStartEmitters: Bool = false) {
    running.removeAll { !keepingStartEmitters || config.emitters[$0.emitter].trigger != .start }
    ring.removeAll()
  }
}

/// An emitter emitting: where, and how far its own clock has run.
struct RunningEmitter: Sendable {
  var emitter: Int
  /// The click it was started at; nil: where the configuration places it in the window.
  var pointer: Point?
  /// The scene time it was last advanced to.
  var lastTime: Seconds
  /// Seconds of emission so far (its own clock, which skips stalls).
  var local: Seconds = 0
  /// Particles born so far, per cell.
  var born: [Int]
  /// Grid steps (``EffectScene/emissionStep``) of its own time whose births are made.
  var steps = 0
  /// The clock reading of the start of its own time, as its latest move maps it (a stall
  /// moves it on).
  var origin: Seconds { lastTime - local }
  /// Its firing's own random stream.
  var random: SplitMix64

  init(emitter: Int, pointer: Point?, lastTime: Seconds, born: [Int], random: SplitMix64) {
    (self.emitter, self.pointer, self.lastTime, self.born) = (emitter, pointer, lastTime, born)
    self.random = random
  }
}
