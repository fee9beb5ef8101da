import FoundationEssentials
import Glibc

/// A whole effect as data: what a preset file or a `--config` file holds, decoded strictly from
/// its JSON, or built in code; a system checks it as it would a file's before it runs it.
public struct EffectConfig: Equatable, Sendable {
  /// Its name: 1 to 40 letters, digits or "-" (a preset's is its file's name).
  public var name: String
  /// What it looks like, in a sentence (`description` in a file). Default empty.
  public var summary: String
  /// What emits its particles: 1 to 16 emitters, at most ``cellCapacity`` cells in all (with
  /// the sub-cells).
  public var emitters: [EmitterConfig]
  /// Cells no emitter makes: other cells start them, at the end of a piece's life
  /// (``CellConfig/onDeath``) or along its flight (``CellConfig/alongFlight``), by their
  /// ``CellConfig/name``. Each has a ``CellConfig/count``. Default none.
  public var subCells: [CellConfig] = []

  /// An effect named `name` made of `emitters`.
  public init(name: String, summary: String = "", emitters: [EmitterConfig]) {
    (self.name, self.summary, self.emitters) = (name, summary, emitters)
  }

  /// How many cells all emitters may have together: each gets an entry in the shaders' per-cell
  /// table, whose entry 0 is the plain style.
  public static let cellCapacity = CellTable.capacity - 1

  /// The sub-cell named `name`, by index.
  public func subCell(named name: String) -> Int? {
    subCells.firstIndex { $0.name == name }
  }
}

/// What starts an emitter.
public enum EmitterTrigger: String, CaseIterable, Sendable {
  /// When the effect starts (the window opens or switches to it; time 0 of a render).
  case start
  /// Each click, at the pointer (at ``EmitterConfig/position`` where there is no pointer).
  case click
  /// Each press of the space bar.
  case key
}

/// Where an emitter's particles are born, around its position.
public enum EmitterShape: Equatable, Sendable {
  /// Exactly at the position (the default).
  case point
  /// A horizontal line centred on the position; length as a share of the window's width.
  case line(length: Double)
  /// A rectangle centred on the position; sides as shares of the window's width and height.
  case rectangle(width: Double, height: Double)
  /// A disc centred on the position; radius as a share of the window's shorter side.
  case circle(radius: Double)
}

/// How long an emitter emits.
public enum Emission: Equatable, Sendable {
  /// Every cell's ``CellConfig/count`` at once.
  case burst
  /// Cells' birth rates for `duration` seconds, then the emitter and its particles fade out
  /// over `fadeOut` seconds. With `taper` (Core Animation's confetti emitter, whose 3 s and 1 s
  /// are the defaults) the rate falls from 1 to 0 by half the duration (ease-in:
  /// 1 − (2u/duration)²), so it emits rate × duration / 3 in all; without, it holds the rate
  /// for the whole duration, rate × duration in all. A fade-out of 0 leaves the particles to
  /// live out their own lives (and land, where there is a floor).
  case timed(duration: Seconds = 3, fadeOut: Seconds = 1, taper: Bool = true)
  /// Cells' birth rates for as long as the effect runs.
  case continuous
}

/// One emitter: where, how and when particles are born.
public struct EmitterConfig: Equatable, Sendable {
  /// What starts it. Default ``EmitterTrigger/start``.
  public var trigger = EmitterTrigger.start
  /// Where it sits, as shares of the window's width and height (0, 0 is the top left).
  public var position = SIMD2<Double>(0.5, 0.5)
  /// Points added to the position, y down (the classic cannon sits 20 pt below the bottom
  /// edge, whatever the window's size). Default 0, 0.
  public var offset = SIMD2<Double>(0, 0)
  /// The area around the position where particles are born. Default a point.
  public var shape = EmitterShape.point
  /// How long it emits. Default a burst.
  public var emission = Emission.burst
  /// Seconds of emission it starts with, as if started that long before it was triggered: its
  /// particles are born at earlier times, so snow fills the window from the first frame. Timed
  /// and continuous emitters only; 0 to ``longestPrewarm``. Default 0.
  public var prewarm: Seconds = 0
  /// The longest prewarm, in seconds.
  public static let longestPrewarm: Seconds = 120
  /// Constant wind shared by its particles, pt/s, positive blowing right.
  /// Default 0.
  public var wind: PointsPerSecond = 0
  /// How far gusts sway its particles together, in points. Default 0: no gusts.
  public var gustAmplitude: Points = 0
  /// The time of one gust cycle, in seconds. Default 4 (nothing sways while
  /// ``gustAmplitude`` is 0).
  public var gustPeriod: Seconds = 4
  /// A line its pieces land on and stay, or nil (the default): they fall through the window.
  public var floor: Floor?
  /// The kinds of particle it makes (1 or more in a file). Default none.
  public var cells: [CellConfig] = []

  /// An emitter with every default: a burst at the centre, started with the effect, no cells.
  public init() {}

  /// Its position in a window of `window` points.
  public func origin(in window: Size) -> Point {
    Point(
      x: position.x * window.width + offset.x, y: position.y * window.height + offset.y)
  }
}

/// A horizontal line an emitter's pieces land on: each stops where its closed form first brings
/// it down to the line (solved once, at its birth); paper (a piece that tumbles) then turns down
/// to lie flat, its lowest point on the line; it lies there for ``restTime``, then fades out.
public struct Floor: Equatable, Sendable {
  /// Where it lies, as a share of the window's height: 1 is the bottom edge. Default 1.
  public var y = 1.0
  /// Points added, y down. Default 0.
  public var offset: Points = 0
  /// How long a piece lies there before it fades out (over its cell's fade), in seconds; a
  /// piece whose own life ends sooner fades then. Default 3.
  public var restTime: Seconds = 3
  /// How deep a band of floor, in points above the line, pieces land on: each piece lands on
  /// a line of its own within it, so that landed paper reads as a floor seen from slightly
  /// above, not as one line of pixels. Default 0: all on the line.
  public var depth: Points = 0

  /// A floor along the window's bottom edge.
  public init() {}

  /// Its height in a window of `window` points.
  public func line(in window: Size) -> Points { y * window.height + offset }
}

/// How a particle's colour meets what is behind it.
public enum Blend: String, CaseIterable, Sendable {
  /// It covers what is behind it, as paper does.
  case normal
  /// Its light adds to what is behind it, as fire and sparks do.
  case additive
}

/// A value drawn uniformly from value ± range (CAEmitterCell's convention).
public struct Varied: Equatable, Sendable {
  /// The middle of the draw, in the unit of the field it is the value of.
  public var value: Double
  /// How far either side of ``value`` a draw may fall. Default 0: always ``value``.
  public var range: Double

  /// `value` ± `range`.
  public init(_ value: Double, range: Double = 0) {
    (self.value, self.range) = (value, range)
  }

  /// One draw; one number from `random` when ``range`` is not 0, none when it is.
  public func sample(using random: inout some RandomNumberGenerator) -> Double {
    range == 0 ? value : value + range * Double.random(in: -1...1, using: &random)
  }

  /// The smallest and largest values a draw can give.
  public var bounds: ClosedRange<Double> { (value - range)...(value + range) }
}

/// What a cell's particles look like.
public enum ShapeChoice: Equatable, Sendable {
  /// A rectangle, circle, triangle or star.
  case builtIn(ParticleShape)
  /// Corners in any units, y down; stretched over the particle's size.
  case polygon([SIMD2<Double>])
  /// A PNG file, tinted by the particle's colour (white keeps its own colours).
  case image(String)
  /// Text or emoji, drawn from the system's fonts: colour emoji keep their colours, other
  /// characters are white, tinted by the particle's colour.
  case text(String)
}

/// The unit of a cell's speed.
public enum SpeedUnit: String, CaseIterable, Sendable {
  /// Points per second.
  case points
  /// Window heights per second: the same throw rises to the same share of any window.
  case windowHeights
}

/// The unit of a cell's gravity.
public enum GravityUnit: String, CaseIterable, Sendable {
  /// Points per second squared.
  case points
  /// Window heights per second squared: with a speed in window heights, a throw that rises to
  /// the same share of any window's height (fireworks that burst in the upper part of any
  /// window).
  case windowHeights
}

/// The unit of a cell's per-axis velocity.
public enum VelocityUnit: String, CaseIterable, Sendable {
  /// Points per second on both axes.
  case points
  /// Window widths per second across, window heights per second up and down: the same throw in
  /// any window.
  case windowSize
}

/// One kind of particle an emitter makes (CAEmitterCell), every field with its unit.
public struct CellConfig: Equatable, Sendable {
  /// Particles per burst.
  public var count = 0
  /// Particles per second for timed and continuous emitters.
  public var birthRate: PerSecond = 0
  /// How long each particle lives, in seconds. Default 2.
  public var lifetime = Varied(2)
  /// Seconds at the end of life over which opacity ramps to 0.
  public var fade: Seconds = 0.4
  /// Seconds at the start of life over which opacity rises from 0. Default 0.
  public var fadeIn: Seconds = 0
  /// How its colour meets what is behind it. Default normal.
  public var blend = Blend.normal
  /// Speed at birth, in ``speedUnit``, along ``direction``. Default 0.
  public var speed = Varied(0)
  /// The unit of ``speed``. Default points per second.
  public var speedUnit = SpeedUnit.points
  /// Degrees clockwise from +x: 0 right, 90 down, −90 up.
  public var direction = Varied(0, range: 180)
  /// A velocity added to every particle, pt/s (the tap burst's upward kick is y = −60).
  public var kick = SIMD2<Double>(0, 0)
  /// A velocity drawn per axis, each part uniformly from value ± range, added to the launch
  /// (speed and direction) and the kick: how the classic cannon throws, its sideways and upward
  /// speeds drawn independently. In ``velocityUnit``; default 0 on both axes.
  public var velocityX = Varied(0)
  /// The vertical part of the per-axis velocity (see ``velocityX``), positive downward.
  public var velocityY = Varied(0)
  /// The unit of ``velocityX`` and ``velocityY``. Default points per second.
  public var velocityUnit = VelocityUnit.points
  /// Downward acceleration in ``gravityUnit``; negative pulls up. Default 280 pt/s², the
  /// classic gravity.
  public var gravity: PointsPerSecondSquared = ConfettiPhysics.gravity
  /// The unit of ``gravity``. Default points.
  public var gravityUnit = GravityUnit.points
  /// Sideways acceleration in pt/s², positive to the right. Default 0.
  public var accelerationX: PointsPerSecondSquared = 0
  /// Drag per axis in 1/s: velocity decays as e^(−k·t); 0 is ballistic. Default 1.6 on both.
  public var drag = SIMD2<Double>(ConfettiPhysics.drag, ConfettiPhysics.drag)
  /// How much each piece's drag differs from ``drag``, as a share: each piece's is
  /// ``drag`` × (1 ± this), one draw for both axes, so that pieces fall at terminal speeds
  /// (gravity / drag) that differ as much. A piece that drags less also climbs higher: a cloud
  /// thrown up first gathers as its fast fallers catch up, and stretches only after. Default 0.
  public var dragRange = 0.0
  /// How much each piece's gravity differs from ``gravity``, as a share: each piece's is
  /// ``gravity`` × (1 ± this). Its terminal speed (gravity / drag) differs as much, while its
  /// climb, where drag far outweighs gravity, hardly changes: a cloud thrown up stretches from
  /// the top of its climb as it falls, as paper does whose pieces flutter or tumble down at
  /// their own speeds. Default 0.
  public var gravityRange = 0.0
  /// Angle at birth in degrees. Default 0–360.
  public var rotation = Varied(180, range: 180)
  /// Turning speed in degrees per second, positive clockwise. Default 0.
  public var spin = Varied(0)
  /// A size multiplier drawn for each particle. Default 1.
  public var scale = Varied(1)
  /// Growth over life in 1/s: size × max(0, 1 + s·t). Default 0.
  public var scaleSpeed: PerSecond = 0
  /// Whether the size follows the share of life left. Default false.
  public var shrinksWithLife = false
  /// Sizes in points, one drawn for each particle. Default 10×10.
  public var sizes = [Size(width: 10, height: 10)]
  /// Colours, one drawn for each particle. Default white.
  public var colors = [RGBA8.white]
  /// ± per channel (red, green, blue, alpha), in shares of full scale.
  public var colorRange = SIMD4<Double>.zero
  /// Change per second per channel, in shares of full scale.
  public var colorSpeed = SIMD4<Double>.zero
  /// Shapes, one drawn for each particle. Default a rectangle.
  public var shapes = [ShapeChoice.builtIn(.rectangle)]
  /// Sideways sway in points, A·sin(ω·t + φ). Default 0.
  public var flutterAmplitude = Varied(0)
  /// The sway's ω in rad/s. Default 0.
  public var flutterFrequency = Varied(0)
  /// Whether the sway starts at the birth point, so that every piece of a burst from a point
  /// starts at that point; false sways about it, A·sin φ to one side at birth, as the classic
  /// cannon does. Default true.
  public var flutterFromBirth = true
  /// Whether pieces tumble (a fake 3D flip that narrows them). Default false.
  public var flips = false
  /// The tumble's rate in rad/s. Default 3–6.
  public var flipFrequency = Varied(4.5, range: 1.5)
  /// Whether a tumbling piece is shaded as paper: deeper while its back faces the viewer,
  /// glinting as it turns to face it. Default true.
  public var darkensBack = true
  /// How deep the particles twinkle, 0 to 1 (opacity dips by up to this share and back, and
  /// the size swings 0.3 times as far about its own), each at its own rate; not with ``flips``.
  /// Default 0.
  public var twinkle = 0.0
  /// The twinkle's ω in rad/s. Default 8 ± 4.
  public var twinkleFrequency = Varied(8, range: 4)
  /// Outward drift in pt/s², growing as t², to the side the piece flies. Default 0.
  public var spread = Varied(0)
  /// Copies drawn behind each particle, each from an earlier moment. Default 0.
  public var trail = 0
  /// Seconds between trail copies. Default 0.03.
  public var trailSpacing: Seconds = 0.03
  /// Draws each piece as a streak: one continuous capsule from where it was this many seconds
  /// ago to where it is, brightening toward its head. Default 0: the piece itself.
  public var stretch: Seconds = 0

  /// A sub-cell's name, by which ``onDeath`` and ``alongFlight`` start it. Default none.
  public var name: String?
  /// Sub-cells burst where and when each piece ends (a firework's shell), each its
  /// ``count`` of pieces, their motion starting from the piece's at that moment. Default none.
  public var onDeath: [String] = []
  /// Sub-cells born along each piece's flight (a rocket's sparks): each's ``count`` of pieces
  /// spread evenly over the piece's life, where the piece is at each moment. Default none.
  public var alongFlight: [String] = []
  /// The share of the velocity of the piece that starts it that a sub-cell's piece inherits, the
  /// closed form's derivative at that moment. Default 0.
  public var inheritVelocity = 0.0
  /// Whether each piece ends at the top of its climb, where its upward speed is spent (a
  /// firework's shell bursting there): its life is cut to that moment. Default false.
  public var diesAtApex = false

  /// A cell with every default.
  public init() {}

  /// The sub-cells it starts, by name: at its pieces' ends, then along their flight.
  public var starts: [String] { onDeath + alongFlight }
}

/// A configuration that cannot be used: where (a JSON path such as `$.emitters[0].cells[1].speed`)
/// and what is allowed there.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
  /// Where: a JSON path such as `$.emitters[0].cells[1].speed`; empty for the whole file.
  public var path: String
  /// What is wrong there, and what is allowed.
  public var message: String

  /// An error at `path`.
  public init(path: String, message: String) {
    (self.path, self.message) = (path, message)
  }

  /// "path: message", in one line.
  public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
