/// What every particle of one cell shares: wind, a colour ramp, the emitter's fade-out, its
/// trails' spacing, how it blends, fades in and twinkles. The GPU keeps the table as uniform
/// arrays that each record indexes (``ConfettiParticle/emitter``), so the record stays small
/// however many of these there are.
package struct CellStyle: Equatable, Sendable {
  /// Constant wind in pt/s, positive blowing right. A particle drifts toward it as its
  /// horizontal drag lets it (w·(t − (1 − e^(−k·t))/k)); without drag it feels no wind. Default 0.
  package var wind: PointsPerSecond = 0
  /// Gust amplitude in points: all particles of the emitter sway together by
  /// G·(1 − e^(−k·t))·sin(Ω·T + ψ) at scene time T. Default 0.
  package var gustAmplitude: Points = 0
  /// Gust cycles per 2³² ticks (4096 s): an integer, so that the gust, computed in exact
  /// integer arithmetic from the clock, is continuous across the clock's wrap. Default 0.
  package var gustCycles: UInt32 = 0
  /// Gust phase ψ in radians. Default 0.
  package var gustPhase: Radians = 0
  /// Colour change per second for red, green, blue and alpha, in shares of full scale
  /// (CAEmitterCell's redSpeed, greenSpeed, blueSpeed, alphaSpeed); results clamp to [0, 1].
  package var colorSpeed = SIMD4<Double>.zero
  /// How long the emitter takes to fade out once it stops, in seconds; its particles fade with
  /// it from their ``ConfettiParticle/emitterFadeAt`` on, opacity × (1 − f)², f running 0 → 1
  /// (an ease-out), and are gone after. Default 0.
  package var fadeOut: Seconds = 0
  /// The time between a particle and its first trail copy, and between copies, in ticks: each
  /// copy is the particle as it was that much earlier. Default 0.
  package var trailTicks: UInt32 = 0
  /// Seconds over which a new particle's opacity rises from 0 to full, linearly. Default 0.
  package var fadeIn: Seconds = 0
  /// How deep the particles twinkle, 0 to 1: opacity × (1 − depth·(1 − cos(ω·t + φ))/2), with
  /// each particle's own ω and φ (``ConfettiParticle/flipFrequency`` and
  /// ``ConfettiParticle/flipPhase``, which a piece that does not tumble has no other use for);
  /// its size × (1 + ``ConfettiPhysics/twinklePulse``·depth·cos(ω·t + φ)). Default 0: steady.
  package var twinkle: Double = 0
  /// Whether the particles add their light to what is behind them (fire, sparks, glows)
  /// instead of covering it. Drawn in the same draw as the rest: premultiplied colour with zero
  /// alpha adds. Default false.
  package var additive = false
  /// Over a light backdrop, how much additive light's colour is made vivid (its white taken
  /// out, its brightest channel kept), 0 to 1: 0 over a dark one, 1 over white, where a pale
  /// glow would hardly show. Set for the whole table by
  /// ``CellTable/setBackdrop(lightness:covers:)``. Default 0.
  package var vivid = 0.0
  /// How much of what is behind it additive light covers, 0 to 1, where no light layer lays it
  /// over its backdrop (a render whose records describe its one draw): 0 adds, 1 covers as
  /// paper does, its colour deepened by ``ConfettiPhysics/lightDeepening`` as much. Default 0.
  package var cover = 0.0
  /// How far back a streak reaches, in seconds: a particle is drawn as one continuous capsule
  /// from where it was that long ago to where it is, brightening toward its head. 0 (the
  /// default) draws the piece itself.
  package var stretch: Seconds = 0

  package init() {}

  /// ``trailTicks`` in seconds.
  package var trailSpacing: Seconds {
    get { Double(trailTicks) / Tick.perSecond }
    set { trailTicks = UInt32(max(0, min(1, newValue)) * Tick.perSecond) }
  }

  /// No wind, no gust, no colour ramp.
  package static let plain = CellStyle()

  /// The gust's period in seconds, rounded to a whole number of cycles per 4096 s.
  package var gustPeriod: Seconds {
    get { gustCycles == 0 ? .infinity : Self.wrapSeconds / Double(gustCycles) }
    set {
      let cycles = (Self.wrapSeconds / newValue).rounded()
      gustCycles = newValue.isFinite && newValue > 0 ? UInt32(min(1_048_576, max(1, cycles))) : 0
    }
  }

  /// The gust's phase angle, sin() of which sways the particles, at clock reading `now`:
  /// Ω·T + ψ with Ω·T taken as (cycles · ticks mod 2³²) / 2³² turns, exactly as the shader does.
  package func gustAngle(at now: Tick) -> Radians {
    Double(gustCycles &* now.rawValue) * Self.radiansPerTurnFraction + gustPhase
  }

  /// The gust's turn is counted in 2³²nds (the clock's wrap): this many radians each.
  package static let radiansPerTurnFraction = 2 * Double.pi / Tick.wrap

  static let wrapSeconds = Tick.wrap / Tick.perSecond

  /// How fast the gust's angle turns, in radians per second: 2π·cycles per 2³² ticks.
  package var gustTurningRate: Double {
    Double(gustCycles) * Self.radiansPerTurnFraction * Tick.perSecond
  }
}

/// The cells' styles in use, one entry a cell; entry 0 is the default (no wind, no colour ramp).
package struct CellTable: Equatable, Sendable {
  /// How many entries the GPU's uniform array holds.
  package static let capacity = 32

  package private(set) var styles: [CellStyle] = [CellStyle()]

  /// Whether a cell adds its light to what is behind it (``CellStyle/additive``).
  package var hasLight: Bool { styles.contains { $0.additive } }

  package init() {}

  /// The table with the default entry alone: no wind, no colour ramps.
  package static let plain = CellTable()

  /// Sets entry `index`, growing the table with default entries if needed.
  package mutating func set(_ style: CellStyle, at index: Int) {
    precondition((0..<Self.capacity).contains(index), "the table holds \(Self.capacity) styles")
    while styles.count <= index { styles.append(CellStyle()) }
    styles[index] = style
  }

  /// Makes every additive style's light as vivid as a backdrop of `lightness` (0 to 1, dark to
  /// white: ``ConfettiPhysics/backdropLightness(of:)``) needs, and, where it
  /// `covers` (nothing lays it over the backdrop by its brightness), lets it cover that share.
  package mutating func setBackdrop(lightness: Double, covers: Bool) {
    let share = min(1, max(0, lightness.isFinite ? lightness : 0))
    for index in styles.indices where styles[index].additive {
      (styles[index].vivid, styles[index].cover) = (share, covers ? share : 0)
    }
  }

  /// The style a record's emitter index names (the default one past the table's end).
  package subscript(index: UInt8) -> CellStyle {
    Int(index) < styles.count ? styles[Int(index)] : CellStyle()
  }

  /// The table as the shaders hold it: uniform arrays of ``capacity`` entries, each style's
  /// fields in their components. The one place their names and slot order are written: the
  /// renderer sends the arrays from it, and the shaders' declarations and accessor functions
  /// (`cellWind(cell)`, …) are generated from it.
  package static let uniforms: [CellUniform] = [
    .floats(
      "u_wind", ["cellWind", "cellGustAmplitude", "cellGustPhase", "cellFadeOut"],
      "wind (pt/s), gust amplitude (pt), gust phase (rad), fade-out (s)"
    ) { [$0.wind, $0.gustAmplitude, $0.gustPhase, $0.fadeOut] },
    .whole("u_gustCycles", "cellGustCycles", "gust cycles per 2^32 ticks") { $0.gustCycles },
    .floats("u_colorSpeed", ["cellColorSpeed"], "RGBA change per second") {
      [$0.colorSpeed.x, $0.colorSpeed.y, $0.colorSpeed.z, $0.colorSpeed.w]
    },
    .whole("u_trailTicks", "cellTrailTicks", "time between trail copies (ticks)") {
      $0.trailTicks
    },
    .floats(
      "u_look", ["cellFadeIn", "cellTwinkle", "cellAdditive", "cellStretch"],
      "fade-in (s), twinkle depth, additive (1) or not (0), stretch (s)"
    ) { [$0.fadeIn, $0.twinkle, $0.additive ? 1 : 0, $0.stretch] },
    .floats(
      "u_light", ["cellLight"],
      "light over a light backdrop: how vivid (x), how much it covers (y), shares; z, w unused"
    ) { [$0.vivid, $0.cover, 0, 0] },
  ]
}

/// One uniform array of the cell table (``CellTable/uniforms``).
package enum CellUniform: Sendable {
  /// A `vec4` an entry: four accessors (`float`), one a component; or one (`vec4`), the whole.
  case floats(
    _ name: String, _ accessors: [String], _ meaning: String,
    _ values: @Sendable (CellStyle) -> [Double])
  /// A `uint` an entry, and its accessor.
  case whole(
    _ name: String, _ accessor: String, _ meaning: String, _ value: @Sendable (CellStyle) -> UInt32)

  /// The GLSL uniform's name.
  package var name: String {
    switch self {
    case .floats(let name, _, _, _), .whole(let name, _, _, _): name
    }
  }
}
