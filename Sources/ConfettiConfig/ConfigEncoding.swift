import ConfettiCore

extension EffectConfig {
  /// The configuration in the file format, every value written out (defaults too): what
  /// ``decode(json:)`` reads back as this configuration exactly (a test checks every preset and
  /// a cell with every value set). A burst's prewarm, which nothing uses, is left out.
  public var json: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("name", .string(name)), ("description", .string(summary)),
      ("emitters", .array(emitters.map(\.json))),
    ]
    if !subCells.isEmpty {
      members.append(("subCells", .array(subCells.map { $0.json(mode: "burst") })))
    }
    return .object(members)
  }

  /// This configuration, checked exactly as a configuration file is (``decode(_:)``): one built
  /// in code with a negative count, a NaN, an empty list or too many cells throws the message a
  /// file holding the same would get, its place in the configuration first. Returns the
  /// configuration as decoded (the same, but for a burst's unused prewarm).
  public func validated() throws(ConfigError) -> EffectConfig {
    try Self.decode(json: json)
  }
}

extension EmitterConfig {
  var json: JSONValue {
    typealias S = ConfigSchema
    var emission = S.json(self.emission)
    if case .object(var members) = emission, self.emission != .burst {
      members.append(("prewarm", .number(prewarm)))
      emission = .object(members)
    }
    var members: [(key: String, value: JSONValue)] = [
      ("trigger", .string(trigger.rawValue)), ("position", S.json(position)),
      ("offset", S.json(offset)), ("shape", S.json(shape)), ("emission", emission),
      (
        "wind",
        .object([
          ("speed", .number(wind)), ("gust", .number(gustAmplitude)),
          ("gustPeriod", .number(gustPeriod)),
        ])
      ),
    ]
    if let floor {
      members.append(
        (
          "floor",
          .object([
            ("y", .number(floor.y)), ("offset", .number(floor.offset)),
            ("restTime", .number(floor.restTime)), ("depth", .number(floor.depth)),
          ])
        ))
    }
    let mode = S.mode(of: self.emission)
    members.append(("cells", .array(cells.map { $0.json(mode: mode) })))
    return .object(members)
  }
}

extension CellConfig {
  /// The cell of an emitter whose emission is `mode` (a burst's cells have a count, the others
  /// a birth rate).
  func json(mode: String) -> JSONValue {
    typealias S = ConfigSchema
    func number(_ value: Double) -> JSONValue { .number(value) }
    func texts(_ list: [String]) -> JSONValue { .array(list.map(JSONValue.string)) }
    var members: [(key: String, value: JSONValue)] = [
      mode == "burst" ? ("count", number(Double(count))) : ("birthRate", number(birthRate)),
      ("lifetime", S.json(lifetime)), ("fade", number(fade)), ("fadeIn", number(fadeIn)),
      ("blend", .string(blend.rawValue)), ("speedUnit", .string(speedUnit.rawValue)),
      ("gravityUnit", .string(gravityUnit.rawValue)), ("speed", S.json(speed)),
      ("direction", S.json(direction)), ("kick", S.json(kick)),
      ("velocity", .object([("x", S.json(velocityX)), ("y", S.json(velocityY))])),
      ("velocityUnit", .string(velocityUnit.rawValue)), ("gravity", number(gravity)),
      ("accelerationX", number(accelerationX)), ("drag", S.json(drag)),
      ("dragRange", number(dragRange)), ("gravityRange", number(gravityRange)),
      ("rotation", S.json(rotation)), ("spin", S.json(spin)), ("scale", S.json(scale)),
      ("scaleSpeed", number(scaleSpeed)), ("shrinksWithLife", .bool(shrinksWithLife)),
      ("sizes", .array(sizes.map { .array([number($0.width), number($0.height)]) })),
      ("colors", .array(colors.map(S.json))), ("colorRange", S.json(colorRange)),
      ("colorSpeed", S.json(colorSpeed)), ("shapes", .array(shapes.map(S.json))),
      ("flutterAmplitude", S.json(flutterAmplitude)),
      ("flutterFrequency", S.json(flutterFrequency)), ("flutterFromBirth", .bool(flutterFromBirth)),
      ("flips", .bool(flips)), ("flipFrequency", S.json(flipFrequency)),
      ("darkensBack", .bool(darkensBack)), ("twinkle", number(twinkle)),
      ("twinkleFrequency", S.json(twinkleFrequency)), ("spread", S.json(spread)),
      ("trail", number(Double(trail))), ("trailSpacing", number(trailSpacing)),
      ("stretch", number(stretch)), ("inheritVelocity", number(inheritVelocity)),
      ("diesAtApex", .bool(diesAtApex)),
    ]
    // The format has no empty lists of sub-cells: none is written as no key.
    if !onDeath.isEmpty { members.append(("onDeath", texts(onDeath))) }
    if !alongFlight.isEmpty { members.append(("alongFlight", texts(alongFlight))) }
    if let name { members.append(("name", .string(name))) }
    return .object(members)
  }
}
