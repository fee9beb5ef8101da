import ConfettiCore

/// The configuration format as one table: every object, every key, its type, unit, default,
/// range and meaning.
///
/// The table drives everything that describes the format: ``EffectConfig/decode(_:)`` takes
/// its allowed and required keys, ranges and units from it; its error messages list what is
/// allowed from it; ``jsonSchema()`` and ``markdownTables()`` (docs/configuration.md's tables) are written
/// from it. Defaults are read from the configuration structs (`CellConfig()`, `EmitterConfig()`,
/// `Emission.timed()`), which the decoder starts from, so each default is written once.
public enum ConfigSchema {
  /// One object of the format and the keys it may hold.
  public struct Object: Sendable {
    /// The name of its JSON Schema definition (`#/$defs/…`), lower camel case.
    public var id: String
    /// Its heading in the documentation: "Emitter".
    public var title: String
    /// What it is, in a sentence.
    public var summary: String
    /// Its keys, in the order the documentation lists them.
    public var keys: [Key]
    /// How many keys it must hold, when that is limited ({"polygon"} or {"image"}: exactly one).
    public var memberCount: ClosedRange<Int>?
    /// Keys that only some objects of this kind take, chosen by a key's value or the context.
    public var variants: Variants?

    /// The key named `name`.
    public subscript(name: String) -> Key? {
      keys.first { $0.name == name }
    }

    /// Every key's name, in order.
    public var names: [String] { keys.map(\.name) }

    /// The keys it must always hold.
    public var required: [String] { keys.filter(\.required).map(\.name) }
  }

  /// One key of an object.
  public struct Key: Sendable {
    public var name: String
    public var kind: Kind
    /// The unit of its numbers in plain words ("pt/s", "seconds"); empty for none. In the small
    /// value objects (``varied``, ``pair``, ``channels``) empty means the enclosing key's unit.
    public var unit: String
    /// Whether every object of its kind must hold it (see also ``Object/variants``).
    public var required: Bool
    /// The value used when it is absent, as JSON, read from the configuration structs.
    public var defaultValue: JSONValue?
    /// What it does, in one line of plain words.
    public var help: String

    init(
      _ name: String, _ kind: Kind, unit: String = "", required: Bool = false,
      default defaultValue: JSONValue? = nil, help: String
    ) {
      (self.name, self.kind, self.unit, self.required) = (name, kind, unit, required)
      (self.defaultValue, self.help) = (defaultValue, help)
    }
  }

  /// What a key holds.
  public indirect enum Kind: Sendable {
    /// A number in the range.
    case number(ClosedRange<Double>)
    /// A whole number in the range.
    case integer(ClosedRange<Int>)
    case boolean
    case text(TextRule)
    /// One of these strings.
    case choice([String])
    /// A number, or a ``ConfigSchema/varied`` object for value ± range; both ends in the range.
    case varied(ClosedRange<Double>)
    /// A ``ConfigSchema/pair`` object, each part in the range.
    case pair(ClosedRange<Double>)
    /// A ``ConfigSchema/channels`` object, each channel in the range.
    case channels(ClosedRange<Double>)
    /// An array of values of one kind.
    case list(Kind, count: ClosedRange<Int>)
    case object(Object)
    /// Any of these; the value's JSON type picks which.
    case either([Kind])
    /// A number in the range of the key whose value the enclosing small object is.
    case fieldRange
    /// A number from 0 to the width of the enclosing key's range: a varied value's ± range.
    case fieldSpread
  }

  /// What a string must look like.
  public struct TextRule: Sendable {
    /// What it is: "a name", "the path of a PNG file".
    public var noun: String
    /// How long it may be, in Unicode scalars (JSON Schema's count).
    public var length: ClosedRange<Int>
    /// A regular expression it must match, as JSON Schema writes it (ECMA-262, anchored).
    public var pattern: String?
    /// The characters the pattern allows, in words, or nil when the noun says it all.
    public var characters: String?

    /// The rule in words: "a name of 1 to 40 letters, digits or '-'".
    public var words: String {
      guard let characters else { return noun }
      let count =
        length.lowerBound == 0 ? "at most \(length.upperBound)" : "\(countWords(length))"
      return "\(noun) of \(count) \(characters)"
    }

    func accepts(_ text: String) -> Bool {
      guard length.contains(text.unicodeScalars.count) else { return false }
      guard let pattern else { return true }
      guard let regex = try? Regex(pattern) else {
        preconditionFailure("the schema's pattern \(pattern) is not a regular expression")
      }
      return text.wholeMatch(of: regex) != nil
    }
  }

  /// Keys that only some objects of a kind take: the value of a selector picks a case, and each
  /// case takes its own keys ("a line has a length, a circle a radius").
  public struct Variants: Sendable {
    /// One case: the selector's value and the keys it takes.
    public struct Case: Sendable {
      public var value: String
      public var required: [String] = []
      public var optional: [String] = []

      /// Every key this case takes, required first.
      public var keys: [String] { required + optional }
    }

    /// The key of the object that picks the case, or nil when its context does.
    public var key: String?
    /// What picks the case, in words: "kind", "the emitter's emission mode".
    public var selector: String
    /// How a message names an object of one case; "%" stands for the value: "a % shape".
    public var subject: String
    public var cases: [Case]

    /// The object of case `value` in words: "a line shape".
    public func subject(_ value: String) -> String {
      subject.replacing("%", with: value)
    }

    /// The keys that belong to some cases only.
    public var conditionalKeys: [String] {
      var keys: [String] = []
      for key in cases.flatMap(\.keys) where !keys.contains(key) { keys.append(key) }
      return keys
    }

    /// The case for `value`.
    public subscript(value: String) -> Case? {
      cases.first { $0.value == value }
    }
  }
}

// MARK: - The table

extension ConfigSchema {
  /// Every object of the format, in the order the documentation lists them.
  public static let objects: [Object] = [
    effect, emitter, wind, floor, emitterShape, emission, cell, velocity, particleShape, varied,
    pair, channels,
  ]

  /// The root: one effect.
  public static let effect = Object(
    id: "effect", title: "Effect",
    summary: "A whole effect: what a preset file or a --config file holds.",
    keys: [
      Key(
        "name", .text(nameRule), required: true,
        help: "the effect's name (a preset's is its file's name)"),
      Key(
        "description", .text(visibleText(length: 0...200)),
        default: .string(EffectConfig(name: "", emitters: []).summary),
        help: "what it looks like, in a sentence"),
      Key(
        "emitters", .list(.object(emitter), count: 1...16), required: true,
        help:
          "what emits its particles; at most \(EffectConfig.cellCapacity) cells in all "
          + "(one emitter-table entry each)"),
      Key(
        "subCells", .list(.object(cell), count: 1...EffectConfig.cellCapacity),
        help:
          "cells no emitter makes, started by other cells' onDeath or alongFlight by their "
          + "name; each needs a name and a count"),
      Key(
        "$schema", .text(TextRule(noun: "the address of a JSON Schema", length: 1...2048)),
        help: "where an editor finds the format's JSON Schema; the decoder ignores it"),
    ])

  /// One emitter.
  public static let emitter: Object = {
    let e = EmitterConfig()
    return Object(
      id: "emitter", title: "Emitter",
      summary: "Where, how and when particles are born.",
      keys: [
        Key(
          "trigger", .choice(EmitterTrigger.allCases.map(\.rawValue)),
          default: .string(e.trigger.rawValue),
          help:
            "what starts it: \"start\" the effect starting, \"click\" each click (at the "
            + "pointer), \"key\" each press of the space bar"),
        Key(
          "position", .pair(-1...2), unit: "shares of the window", default: json(e.position),
          help:
            "where it sits: 0, 0 is the top left, 1, 1 the bottom right; a click emitter sits "
            + "here where there is no pointer (render, bench)"),
        Key(
          "offset", .pair(-100_000...100_000), unit: "pt", default: json(e.offset),
          help:
            "points added to the position, y down (the classic cannon sits 20 pt below the "
            + "bottom edge in any window)"),
        Key(
          "shape", .object(emitterShape), default: json(e.shape),
          help: "the area around the position where particles are born"),
        Key(
          "emission", .object(emission), default: json(e.emission),
          help: "how long it emits"),
        Key(
          "wind", .object(wind), default: defaults(of: wind),
          help: "wind and gusts shared by its particles"),
        Key(
          "floor", .object(floor),
          help:
            "a line its pieces land on and lie on, then fade out; absent, they fall through "
            + "the window"),
        Key(
          "cells", .list(.object(cell), count: 1...EffectConfig.cellCapacity), required: true,
          help: "the kinds of particle it makes, each with its own count or birth rate"),
      ])
  }()

  /// An emitter's wind.
  public static let wind: Object = {
    let e = EmitterConfig()
    return Object(
      id: "wind", title: "Wind",
      summary: "Wind and gusts that all particles of an emitter share.",
      keys: [
        Key(
          "speed", .number(-2000...2000), unit: "pt/s", default: .number(e.wind),
          help:
            "constant wind, positive blowing right; particles drift toward it as fast as their "
            + "horizontal drag lets them (no drag, no wind)"),
        Key(
          "gust", .number(0...2000), unit: "pt", default: .number(e.gustAmplitude),
          help: "how far gusts sway all its particles together; 0 is no gusts"),
        Key(
          "gustPeriod", .number(0.1...600), unit: "seconds", default: .number(e.gustPeriod),
          help: "the time of one gust, there and back"),
      ])
  }()

  /// An emitter's floor.
  public static let floor: Object = {
    let f = Floor()
    return Object(
      id: "floor", title: "Floor",
      summary:
        "A line an emitter's pieces land on: each stops exactly where it first comes down to "
        + "it; paper (a piece that tumbles) then turns down to lie flat over "
        + "\(ConfettiPhysics.settleTime) s, its lowest "
        + "point on the floor throughout; it lies there for `restTime`, then fades out.",
      keys: [
        Key(
          "y", .number(-1...2), unit: "shares of the window's height", default: .number(f.y),
          help: "where it lies: 1 is the bottom edge"),
        Key(
          "offset", .number(-100_000...100_000), unit: "pt", default: .number(f.offset),
          help: "points added, y down"),
        Key(
          "restTime", .number(0...ParticleRecord.maximumLifetime), unit: "seconds",
          default: .number(f.restTime),
          help:
            "how long a piece lies there before it fades out over its fade (sooner if its own "
            + "life ends sooner)"),
        Key(
          "depth", .number(0...10_000), unit: "pt", default: .number(f.depth),
          help:
            "a band above the line that pieces land in, each on a line of its own: a floor seen "
            + "from slightly above"),
      ])
  }()

  /// The kinds of emitter shape and the sizes each takes.
  static let emitterShapeVariants = Variants(
    key: "kind", selector: "kind", subject: "a % shape",
    cases: [
      .init(value: "point"), .init(value: "line", required: ["length"]),
      .init(value: "rectangle", required: ["width", "height"]),
      .init(value: "circle", required: ["radius"]),
    ])

  /// An emitter's shape.
  public static let emitterShape = Object(
    id: "emitterShape", title: "Emitter shape",
    summary: "Where an emitter's particles are born, centred on its position.",
    keys: [
      Key(
        "kind", .choice(emitterShapeVariants.cases.map(\.value)), required: true,
        help: "a point, a horizontal line, a rectangle or a disc"),
      Key(
        "length", .number(0...4), unit: "shares of the window's width",
        help: "the line's length"),
      Key(
        "width", .number(0...4), unit: "shares of the window's width",
        help: "the rectangle's width"),
      Key(
        "height", .number(0...4), unit: "shares of the window's height",
        help: "the rectangle's height"),
      Key(
        "radius", .number(0...4), unit: "shares of the window's shorter side",
        help: "the disc's radius"),
    ],
    variants: emitterShapeVariants)

  /// The emission modes: a burst, a timed emission, a continuous one.
  static let emissionModes = ["burst", "timed", "continuous"]

  /// An emitter's emission.
  public static let emission: Object = {
    guard case .timed(let duration, let fadeOut, let taper) = Emission.timed() else {
      fatalError()
    }
    return Object(
      id: "emission", title: "Emission",
      summary: "How long an emitter emits.",
      keys: [
        Key(
          "mode", .choice(emissionModes), required: true,
          help:
            "\"burst\": each cell's count at once; \"timed\": the cells' birth rates for a "
            + "duration, then a fade-out; \"continuous\": the birth rates for as long as the "
            + "effect runs"),
        Key(
          "duration", .number(0.1...300), unit: "seconds", default: .number(duration),
          help: "how long it emits"),
        Key(
          "taper", .boolean, default: .bool(taper),
          help:
            "true: the rate falls from 1 to 0 by half the duration, as 1 - (2u/D)², a third of "
            + "rate × duration in all (the classic falling confetti); false: the rate holds for "
            + "the whole duration"),
        Key(
          "fadeOut", .number(0...60), unit: "seconds", default: .number(fadeOut),
          help:
            "how long it and its particles then take to fade out, opacity × (1 - f)²; 0 leaves "
            + "the particles to live out their own lives"),
        Key(
          "prewarm", .number(0...EmitterConfig.longestPrewarm), unit: "seconds",
          default: .number(EmitterConfig().prewarm),
          help:
            "start as if it had been emitting this long already: snow or rain fills the "
            + "window from the first frame"),
      ],
      variants: Variants(
        key: "mode", selector: "mode", subject: "a % emission",
        cases: emissionModes.map {
          .init(
            value: $0,
            optional: $0 == "timed"
              ? ["duration", "fadeOut", "taper", "prewarm"]
              : $0 == "continuous" ? ["prewarm"] : [])
        }))
  }()

  /// One kind of particle.
  public static let cell: Object = {
    let c = CellConfig()
    let lifetime = 0.01...ParticleRecord.maximumLifetime
    return Object(
      id: "cell", title: "Cell",
      summary: "One kind of particle an emitter makes (CAEmitterCell).",
      keys: [
        Key("count", .integer(1...1_000_000), unit: "particles", help: "particles per burst"),
        Key(
          "birthRate", .number(0.01...1_000_000), unit: "particles/s",
          help: "particles per second while it emits"),
        Key(
          "lifetime", .varied(lifetime), unit: "seconds", default: json(c.lifetime),
          help: "how long each particle lives"),
        Key(
          "fade", .number(0...lifetime.upperBound), unit: "seconds", default: .number(c.fade),
          help:
            "opacity ramps to 0 over the last this many seconds of life; longer than the life "
            + "fades over all of it"),
        Key(
          "fadeIn", .number(0...lifetime.upperBound), unit: "seconds", default: .number(c.fadeIn),
          help: "opacity rises from 0 over the first this many seconds of life"),
        Key(
          "blend", .choice(Blend.allCases.map(\.rawValue)), default: .string(c.blend.rawValue),
          help:
            "\"normal\" covers what is behind, as paper; \"additive\" adds its light to it, as "
            + "fire and sparks"),
        Key(
          "speed", .varied(0...100_000), unit: "pt/s, or window heights/s",
          default: json(c.speed), help: "speed at birth, in the unit speedUnit picks"),
        Key(
          "speedUnit", .choice(SpeedUnit.allCases.map(\.rawValue)),
          default: .string(c.speedUnit.rawValue),
          help:
            "\"points\" per second, or \"windowHeights\" per second (the same throw reaches "
            + "the same height in any window)"),
        Key(
          "direction", .varied(-720...720), unit: "degrees clockwise from +x",
          default: json(c.direction), help: "direction at birth: 0 right, 90 down, -90 up"),
        Key(
          "kick", .pair(-100_000...100_000), unit: "pt/s", default: json(c.kick),
          help: "a velocity added to every particle (the tap burst's is y: -60)"),
        Key(
          "velocity", .object(velocity), unit: "pt/s, or window sizes/s",
          default: .object([("x", json(c.velocityX)), ("y", json(c.velocityY))]),
          help:
            "a velocity drawn per axis and added to the launch, in the unit velocityUnit picks "
            + "(the classic cannon: x 0 ± 0.3 widths/s, y -1.755 ± 0.225 heights/s)"),
        Key(
          "velocityUnit", .choice(VelocityUnit.allCases.map(\.rawValue)),
          default: .string(c.velocityUnit.rawValue),
          help:
            "\"points\" per second, or \"windowSize\": window widths per second across and "
            + "window heights per second up and down"),
        Key(
          "gravity", .number(-60_000...60_000), unit: "pt/s², or as gravityUnit picks",
          default: .number(c.gravity), help: "downward acceleration; negative pulls up"),
        Key(
          "gravityUnit", .choice(GravityUnit.allCases.map(\.rawValue)),
          default: .string(c.gravityUnit.rawValue),
          help:
            "\"points\": pt/s²; \"windowHeights\": window heights per second squared, so that "
            + "with a speed in window heights a throw rises to the same share of any window"),
        Key(
          "accelerationX", .number(-60_000...60_000), unit: "pt/s²",
          default: .number(c.accelerationX), help: "sideways acceleration, positive to the right"),
        Key(
          "drag", .either([.number(0...60), .pair(0...60)]), unit: "1/s",
          default: c.drag.x == c.drag.y ? .number(c.drag.x) : json(c.drag),
          help:
            "velocity decays as e^(-k·t), one k for both axes or {x, y}; 0 is ballistic; the "
            + "terminal speed is gravity / k"),
        Key(
          "dragRange", .number(0...0.9), unit: "share", default: .number(c.dragRange),
          help:
            "each piece's drag is drag × (1 ± this), one draw for both axes: pieces then fall at "
            + "terminal speeds that differ as much (and those that drag less climb higher)"),
        Key(
          "gravityRange", .number(0...0.9), unit: "share", default: .number(c.gravityRange),
          help:
            "each piece's gravity is gravity × (1 ± this): terminal speeds differ as much while "
            + "the climb hardly changes, so a cloud thrown up stretches as it falls"),
        Key(
          "rotation", .varied(-3600...3600), unit: "degrees", default: json(c.rotation),
          help: "angle at birth"),
        Key(
          "spin", .varied(-7200...7200), unit: "degrees/s", default: json(c.spin),
          help: "turning speed, positive clockwise"),
        Key(
          "scale", .varied(0...100), unit: "times the size", default: json(c.scale),
          help: "a size multiplier drawn for each particle"),
        Key(
          "scaleSpeed", .number(-100...100), unit: "1/s", default: .number(c.scaleSpeed),
          help: "growth over life: size × max(0, 1 + s·t)"),
        Key(
          "shrinksWithLife", .boolean, default: .bool(c.shrinksWithLife),
          help: "size × the share of life left"),
        Key(
          "sizes", .list(.list(.number(0.1...4096), count: 2...2), count: 1...64), unit: "pt",
          default: .array(c.sizes.map { .array([.number($0.width), .number($0.height)]) }),
          help: "[width, height] choices, one drawn for each particle"),
        Key(
          "colors", .list(.text(colorRule), count: 1...64), default: .array(c.colors.map(json)),
          help: "colour choices, one drawn for each particle"),
        Key(
          "colorRange", .channels(0...1), unit: "shares of full scale",
          default: json(c.colorRange), help: "± per channel, drawn at birth"),
        Key(
          "colorSpeed", .channels(-100...100), unit: "shares of full scale per second",
          default: json(c.colorSpeed), help: "change per second per channel, clamped to 0 to 1"),
        Key(
          "shapes",
          .list(
            .either([.choice(ParticleShape.named.map(\.0)), .object(particleShape)]),
            count: 1...32),
          default: .array(c.shapes.map(json)),
          help:
            "shape choices, one drawn for each particle; at most "
            + "\(ParticleShape.polygonCapacity) polygons and \(ParticleShape.imageCapacity) "
            + "images in an effect"),
        Key(
          "flutterAmplitude", .varied(0...10_000), unit: "pt", default: json(c.flutterAmplitude),
          help: "how far it sways side to side"),
        Key(
          "flutterFrequency", .varied(0...1000), unit: "rad/s",
          default: json(c.flutterFrequency), help: "how fast it sways"),
        Key(
          "flutterFromBirth", .boolean, default: .bool(c.flutterFromBirth),
          help:
            "the sway starts at the birth point, so a burst from a point starts at that point; "
            + "false sways about it, already to one side at birth (the classic cannon)"),
        Key(
          "flips", .boolean, default: .bool(c.flips),
          help: "the fake 3D tumble: width × max(0.15, |cos(ω·t + φ)|); false is flat"),
        Key(
          "flipFrequency", .varied(0...1000), unit: "rad/s", default: json(c.flipFrequency),
          help: "how fast it tumbles"),
        Key(
          "darkensBack", .boolean, default: .bool(c.darkensBack),
          help:
            "while tumbling, shaded as paper: deeper (gold, not olive, from yellow) as its back "
            + "turns to the viewer, a glint as its face does"),
        Key(
          "twinkle", .number(0...1), unit: "share of its opacity", default: .number(c.twinkle),
          help:
            "how deep it twinkles: opacity dips by up to this share and back, each piece at its "
            + "own rate and phase, and its size swings 0.3 times as far about its own, flaring at "
            + "its brightest; not with flips"),
        Key(
          "twinkleFrequency", .varied(0...1000), unit: "rad/s", default: json(c.twinkleFrequency),
          help: "how fast it twinkles"),
        Key(
          "spread", .varied(-10_000...10_000), unit: "pt/s²", default: json(c.spread),
          help: "outward drift growing as t²"),
        Key(
          "trail", .integer(0...Int(ConfettiParticle.maximumTrail)), unit: "copies",
          default: .number(Double(c.trail)),
          help: "earlier positions drawn behind it, fading and shrinking"),
        Key(
          "trailSpacing", .number(0.001...1), unit: "seconds", default: .number(c.trailSpacing),
          help: "the time between trail copies"),
        Key(
          "stretch", .number(0...1), unit: "seconds", default: .number(c.stretch),
          help:
            "draws each piece as a streak: one capsule from where it was this long ago to where "
            + "it is, brightening toward its head (sparks, rain); 0 draws the piece"),
        Key(
          "name", .text(nameRule),
          help: "a sub-cell's name, by which other cells' onDeath and alongFlight start it"),
        Key(
          "onDeath", .list(.text(nameRule), count: 1...8),
          help:
            "sub-cells that burst where and when each piece ends (a firework's shell), each "
            + "its count of pieces"),
        Key(
          "alongFlight", .list(.text(nameRule), count: 1...8),
          help:
            "sub-cells born along each piece's flight, each its count of pieces spread evenly "
            + "over the piece's life"),
        Key(
          "inheritVelocity", .number(0...1), unit: "share", default: .number(c.inheritVelocity),
          help:
            "for a sub-cell: how much of the velocity of the piece that starts it each of its "
            + "pieces keeps"),
        Key(
          "diesAtApex", .boolean, default: .bool(c.diesAtApex),
          help: "each piece ends at the top of its climb, where its upward speed is spent"),
      ],
      variants: Variants(
        key: nil, selector: "the emitter's emission mode", subject: "a % emitter's cell",
        cases: emissionModes.map {
          .init(value: $0, required: [$0 == "burst" ? "count" : "birthRate"])
        }))
  }()

  /// A shape of one's own, in a cell's shapes.
  public static let particleShape = Object(
    id: "particleShape", title: "Particle shape",
    summary: "A shape of one's own in a cell's shapes: a polygon, a picture or a text, one key.",
    keys: [
      Key(
        "polygon",
        .list(.list(.number(-10_000...10_000), count: 2...2), count: 3...ShapeTable.cornerCapacity),
        unit: "any units, y down", help: "[x, y] corners, stretched over the particle's size"),
      Key(
        "image",
        .text(
          TextRule(
            noun: "the path of a PNG file", length: 1...1023, pattern: visibleCharacters,
            characters: "characters, none of them a control or direction mark")),
        help:
          "a PNG file, relative to the configuration file, at most 512×512, tinted by the "
          + "colour (white keeps its own)"),
      Key(
        "text", .text(visibleText(length: 1...16)),
        help:
          "text or emoji (\"🎉\"), drawn from the system's fonts: colour emoji keep their "
          + "colours, letters are tinted by the colour"),
    ],
    memberCount: 1...1)

  /// A varied value written as an object.
  public static let varied = Object(
    id: "varied", title: "Varied value",
    summary: "A value drawn uniformly from value - range to value + range (CAEmitterCell's).",
    keys: [
      Key("value", .fieldRange, required: true, help: "the middle of the draw"),
      Key(
        "range", .fieldSpread, default: .number(Varied(0).range),
        help: "how far either side of value a draw may fall; both ends must lie in the range"),
    ])

  /// Two numbers, x and y.
  public static let pair = Object(
    id: "pair", title: "Pair",
    summary: "A horizontal and a vertical part, y pointing down.",
    keys: [
      Key("x", .fieldRange, required: true, help: "the horizontal part, positive to the right"),
      Key("y", .fieldRange, required: true, help: "the vertical part, positive downward"),
    ])

  /// A velocity whose parts are drawn separately.
  public static let velocity = Object(
    id: "velocity", title: "Velocity",
    summary: "A horizontal and a vertical speed, each a number or value ± range, y pointing down.",
    keys: [
      Key(
        "x", .varied(-100_000...100_000), default: json(Varied(0)),
        help: "the horizontal part, positive to the right"),
      Key(
        "y", .varied(-100_000...100_000), default: json(Varied(0)),
        help: "the vertical part, positive downward"),
    ])

  /// Red, green, blue and alpha.
  public static let channels = Object(
    id: "channels", title: "Colour channels",
    summary: "One number for each colour channel.",
    keys: [
      Key("red", .fieldRange, default: .number(0), help: "red"),
      Key("green", .fieldRange, default: .number(0), help: "green"),
      Key("blue", .fieldRange, default: .number(0), help: "blue"),
      Key("alpha", .fieldRange, default: .number(0), help: "opacity"),
    ])

  /// Characters that show as they are: none of the controls (NUL, BEL, escape sequences) or
  /// the marks that reorder what follows (right-to-left overrides), which would act on a
  /// terminal or hide what a message says, and draw nothing.
  static let visibleCharacters =
    "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*$"

  /// Text of `length` characters, none a control or direction mark.
  static func visibleText(length: ClosedRange<Int>) -> TextRule {
    TextRule(
      noun: "text", length: length, pattern: visibleCharacters,
      characters: "characters, none of them a control or direction mark")
  }

  static let nameRule = TextRule(
    noun: "a name", length: 1...40, pattern: "^[A-Za-z0-9-]*$",
    characters: "letters, digits or '-'")

  static let colorRule = TextRule(
    noun: "a colour \"#rrggbb\" or \"#rrggbbaa\"", length: 7...9,
    pattern: "^#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$")

  /// An object of every key of `object` that has a default.
  static func defaults(of object: Object) -> JSONValue {
    .object(object.keys.compactMap { key in key.defaultValue.map { (key: key.name, value: $0) } })
  }
}

// MARK: - Configuration values as JSON

extension ConfigSchema {
  static func json(_ value: Varied) -> JSONValue {
    value.range == 0
      ? .number(value.value)
      : .object([("value", .number(value.value)), ("range", .number(value.range))])
  }

  static func json(_ value: SIMD2<Double>) -> JSONValue {
    .object([("x", .number(value.x)), ("y", .number(value.y))])
  }

  static func json(_ value: SIMD4<Double>) -> JSONValue {
    .object(channels.keys.indices.map { (key: channels.keys[$0].name, value: .number(value[$0])) })
  }

  static func json(_ color: RGBA8) -> JSONValue {
    let bytes = [color.red, color.green, color.blue] + (color.alpha == 255 ? [] : [color.alpha])
    return .string("#" + bytes.map { hex($0) }.joined())
  }

  private static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
  }

  static func json(_ shape: ShapeChoice) -> JSONValue {
    switch shape {
    case .builtIn(let shape): .string(ParticleShape.named.first { $0.1 == shape }?.0 ?? "\(shape)")
    case .polygon(let corners):
      .object([("polygon", .array(corners.map { .array([.number($0.x), .number($0.y)]) }))])
    case .image(let path): .object([("image", .string(path))])
    case .text(let text): .object([("text", .string(text))])
    }
  }

  static func json(_ shape: EmitterShape) -> JSONValue {
    switch shape {
    case .point: .object([("kind", .string("point"))])
    case .line(let length): .object([("kind", .string("line")), ("length", .number(length))])
    case .rectangle(let width, let height):
      .object([
        ("kind", .string("rectangle")), ("width", .number(width)), ("height", .number(height)),
      ])
    case .circle(let radius): .object([("kind", .string("circle")), ("radius", .number(radius))])
    }
  }

  static func json(_ emission: Emission) -> JSONValue {
    let mode = (key: "mode", value: JSONValue.string(mode(of: emission)))
    guard case .timed(let duration, let fadeOut, let taper) = emission else {
      return .object([mode])
    }
    return .object([
      mode, ("duration", .number(duration)), ("fadeOut", .number(fadeOut)),
      ("taper", .bool(taper)),
    ])
  }

  /// The emission's mode as the format names it: one of ``emissionModes``.
  static func mode(of emission: Emission) -> String {
    switch emission {
    case .burst: "burst"
    case .timed: "timed"
    case .continuous: "continuous"
    }
  }
}

// MARK: - Suggestions

extension ConfigSchema {
  /// The message for a key that `allowed` does not hold: the allowed keys, and the nearest one
  /// when `key` looks like a misspelling of it.
  static func unknownKeyMessage(_ key: String, allowed: [String]) -> String {
    let guess = suggestion(for: key, among: allowed).map { " (did you mean \"\($0)\"?)" } ?? ""
    return "unknown key\(guess); allowed here: \(allowed.joined(separator: ", "))"
  }

  /// The key of `candidates` nearest to `key` within a small edit distance (letter case aside),
  /// or nil when none is near: at most 1 edit for keys of up to 6 characters, 2 for longer ones,
  /// none for keys shorter than 3.
  public static func suggestion(for key: String, among candidates: [String]) -> String? {
    let typed = Array(key.lowercased())
    let limit = typed.count < 3 ? 0 : typed.count <= 6 ? 1 : 2
    let scored = candidates.map { ($0, editDistance(typed, Array($0.lowercased()))) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return nil }
    return best.0
  }

  /// Insertions, deletions, substitutions and swaps of neighbours that turn `a` into `b`
  /// (optimal string alignment).
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
        }
      }
    }
    return d[a.count][b.count]
  }
}

/// "1 to 40", or "2" when the range holds one number.
func countWords(_ range: ClosedRange<Int>) -> String {
  range.lowerBound == range.upperBound
    ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
}
