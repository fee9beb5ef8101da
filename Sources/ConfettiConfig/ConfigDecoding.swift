import ConfettiCore

extension EffectConfig {
  /// Decodes a configuration file's text, checking everything: syntax (with line and column),
  /// unknown keys, types, required values, ranges, empty lists. Nothing is half-configured: it
  /// returns a complete configuration or throws the first problem.
  ///
  /// What is allowed where comes from ``ConfigSchema``; what is absent keeps the configuration
  /// structs' defaults.
  public static func decode(_ text: String) throws(ConfigError) -> EffectConfig {
    let json: JSONValue
    do {
      // A UTF-8 byte-order mark, as some editors write first, is not part of the text.
      json = try StrictJSON.parse(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
    } catch {
      throw ConfigError(path: "", message: "not valid JSON: \(error)")
    }
    return try decode(json: json)
  }

  /// Decodes a configuration already parsed (or written by ``json``), checking all that
  /// ``decode(_:)`` checks but the syntax.
  public static func decode(json: JSONValue) throws(ConfigError) -> EffectConfig {
    let root = try ConfigNode(json, path: "$", kind: .object(ConfigSchema.effect)).members()
    _ = try root["$schema"]?.text()
    var config = EffectConfig(
      name: try root["name"]!.text(),
      emitters: try root["emitters"]!.list().map { (node) throws(ConfigError) in
        try node.emitter()
      })
    config.summary = try root["description"]?.text() ?? config.summary
    if let subCells = root["subCells"] {
      config.subCells = try subCells.list().map { (node) throws(ConfigError) in
        let cell = try node.cell(mode: "burst")
        guard cell.name != nil else { throw node.fail("a sub-cell needs a name") }
        return cell
      }
    }
    try config.checkSubCells(root["subCells"]?.path ?? "$.subCells")
    let cells = config.emitters.reduce(config.subCells.count) { $0 + $1.cells.count }
    guard cells <= cellCapacity else {
      throw ConfigError(
        path: "$.emitters",
        message:
          "\(cells) cells in all, with the sub-cells; at most \(cellCapacity) (one emitter "
          + "table entry each)")
    }
    return config
  }
}

extension EffectConfig {
  /// Checks what the sub-cells name: every name once, every name a cell starts a sub-cell's, and
  /// no sub-cell starting itself, directly or through others (it would never end).
  func checkSubCells(_ path: String) throws(ConfigError) {
    let names = subCells.compactMap(\.name)
    if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
      throw ConfigError(path: path, message: "two sub-cells are named \"\(twice)\"")
    }
    let known =
      names.isEmpty ? "there are none" : "the sub-cells are " + names.joined(separator: ", ")
    func check(_ cell: CellConfig, at path: String) throws(ConfigError) {
      for (key, list) in [("onDeath", cell.onDeath), ("alongFlight", cell.alongFlight)] {
        for (i, name) in list.enumerated() where subCell(named: name) == nil {
          throw ConfigError(
            path: "\(path).\(key)[\(i)]", message: "no sub-cell named \"\(name)\"; \(known)")
        }
      }
    }
    for (e, emitter) in emitters.enumerated() {
      for (c, cell) in emitter.cells.enumerated() {
        try check(cell, at: "$.emitters[\(e)].cells[\(c)]")
      }
    }
    for (i, cell) in subCells.enumerated() {
      try check(cell, at: "\(path)[\(i)]")
      // Walks what it starts: reaching itself again is a loop.
      var seen: Set<Int> = []
      var next = cell.starts
      while let name = next.popLast(), let index = subCell(named: name) {
        if index == i {
          throw ConfigError(
            path: "\(path)[\(i)]",
            message: "sub-cell \"\(cell.name ?? "")\" starts itself, so it would never stop")
        }
        if seen.insert(index).inserted { next += subCells[index].starts }
      }
    }
    // Generations: a sub-cell started by a cell is the first; no deeper than the scene goes.
    // Each sub-cell's depth is found once (the starts form no loop, as checked above): a chain
    // whose every sub-cell starts the next several times is not walked once per path.
    var depths: [Int: Int] = [:]
    func depth(_ name: String) -> Int {
      guard let index = subCell(named: name) else { return 0 }
      if let known = depths[index] { return known }
      let found = 1 + (subCells[index].starts.map(depth).max() ?? 0)
      depths[index] = found
      return found
    }
    for (e, emitter) in emitters.enumerated() {
      for (c, cell) in emitter.cells.enumerated() {
        let deepest = cell.starts.map(depth).max() ?? 0
        guard deepest <= EffectScene.deepestSubCell else {
          throw ConfigError(
            path: "$.emitters[\(e)].cells[\(c)]",
            message:
              "its sub-cells start sub-cells \(deepest) generations deep; at most "
              + "\(EffectScene.deepestSubCell)")
        }
      }
    }
  }
}

/// One value of the document, its path and what the schema says it holds, with the checks every
/// field goes through.
struct ConfigNode {
  let value: JSONValue
  let path: String
  /// What ``ConfigSchema`` says the value must be.
  let kind: ConfigSchema.Kind
  /// The unit of its numbers, for messages; empty for none.
  let unit: String

  init(_ value: JSONValue, path: String, kind: ConfigSchema.Kind, unit: String = "") {
    (self.value, self.path, self.kind, self.unit) = (value, path, kind, unit)
  }

  func fail(_ message: String) -> ConfigError {
    ConfigError(path: path, message: message)
  }

  /// The message for a value that is not what its kind allows.
  private func wrong() -> ConfigError {
    fail("must be \(kind.words(unit: unit)), not \(describe())")
  }

  /// A decoder that asks a field for something its schema entry does not hold: a bug here.
  private func mismatch(_ wanted: String) -> Never {
    preconditionFailure("\(path): the schema says \(kind.words(unit: unit)), not \(wanted)")
  }

  /// Its members, checked against its object in the schema: no unknown key, every required one
  /// present, as many as the object allows.
  func members() throws(ConfigError) -> ConfigMembers {
    let (object, field): (ConfigSchema.Object, ClosedRange<Double>?) =
      switch kind {
      case .object(let object): (object, nil)
      case .varied(let range): (ConfigSchema.varied, range)
      case .pair(let range): (ConfigSchema.pair, range)
      case .channels(let range): (ConfigSchema.channels, range)
      default: mismatch("an object")
      }
    guard case .object(let members) = value else { throw wrong() }
    let allowed = object.names
    for member in members where !allowed.contains(member.key) {
      throw ConfigError(
        path: path + pathComponent(member.key),
        message: ConfigSchema.unknownKeyMessage(member.key, allowed: allowed))
    }
    if let count = object.memberCount, !count.contains(members.count) {
      throw fail(
        "must have \(count.count == 1 ? "exactly " : "")\(countWords(count)) of the keys \(allowed.joined(separator: ", ")), "
          + "not \(members.count)")
    }
    for key in object.required where !members.contains(where: { $0.key == key }) {
      throw fail("missing \"\(key)\", which is required here")
    }
    return ConfigMembers(members: members, path: path, object: object, field: field, unit: unit)
  }

  func number() throws(ConfigError) -> Double {
    guard case .number(let range) = kind else { mismatch("a number") }
    guard case .number(let number) = value, range.contains(number) else { throw wrong() }
    return number
  }

  func integer() throws(ConfigError) -> Int {
    guard case .integer(let range) = kind else { mismatch("a whole number") }
    guard case .number(let number) = value, number.rounded() == number,
      Double(range.lowerBound) <= number, number <= Double(range.upperBound)
    else { throw wrong() }
    return Int(number)
  }

  func bool() throws(ConfigError) -> Bool {
    guard case .boolean = kind else { mismatch("true or false") }
    guard case .bool(let flag) = value else { throw wrong() }
    return flag
  }

  func text() throws(ConfigError) -> String {
    guard case .text(let rule) = kind else { mismatch("text") }
    guard case .string(let text) = value, rule.accepts(text) else { throw wrong() }
    return text
  }

  /// One of the schema's choices, as written.
  func choice() throws(ConfigError) -> String {
    guard case .choice(let names) = kind else { mismatch("a choice") }
    guard case .string(let text) = value, names.contains(text) else { throw wrong() }
    return text
  }

  /// One of the schema's choices, whose names are the cases of `T`.
  func choice<T: RawRepresentable>(_: T.Type) throws(ConfigError) -> T where T.RawValue == String {
    let name = try choice()
    guard let choice = T(rawValue: name) else { mismatch("a \(T.self)") }
    return choice
  }

  /// Its elements, each of the schema's element kind.
  func list() throws(ConfigError) -> [ConfigNode] {
    guard case .list(let element, let count) = kind else { mismatch("an array") }
    guard case .array(let elements) = value else { throw wrong() }
    guard count.contains(elements.count) else {
      throw fail(
        elements.isEmpty
          ? "must not be empty (\(countWords(count)) items)"
          : "must have \(countWords(count)) items, not \(elements.count)")
    }
    return elements.enumerated().map {
      ConfigNode($1, path: "\(path)[\($0)]", kind: element, unit: unit)
    }
  }

  /// The alternative of an either-kind that the value's JSON type fits.
  func alternative() throws(ConfigError) -> ConfigNode {
    guard case .either(let kinds) = kind else { mismatch("one of several kinds") }
    guard let chosen = kinds.first(where: { $0.fits(value) }) else { throw wrong() }
    return ConfigNode(value, path: path, kind: chosen, unit: unit)
  }

  /// A number, or an object {"value": v, "range": r} for v ± r; both ends must lie in the range.
  func varied() throws(ConfigError) -> Varied {
    guard case .varied(let range) = kind else { mismatch("a varied value") }
    if case .number(let number) = value {
      guard range.contains(number) else {
        throw fail(
          "must be \(ConfigSchema.Kind.number(range).words(unit: unit)), not \(describe())")
      }
      return Varied(number)
    }
    guard case .object = value else { throw wrong() }
    let m = try members()
    let base = try m["value"]!.number()
    let varied =
      try m["range"].map { (node) throws(ConfigError) in
        Varied(base, range: try node.number())
      } ?? Varied(base)
    guard range.contains(varied.bounds.lowerBound), range.contains(varied.bounds.upperBound) else {
      throw fail(
        "value ± range must stay within \(format(range.lowerBound)) to "
          + "\(format(range.upperBound))\(unit.isEmpty ? "" : " (\(unit))"), not "
          + "\(format(varied.value)) ± \(format(varied.range))")
    }
    return varied
  }

  /// An object {"x": …, "y": …}.
  func pair() throws(ConfigError) -> SIMD2<Double> {
    let m = try members()
    return SIMD2(try m["x"]!.number(), try m["y"]!.number())
  }

  /// An object with any of the colour channels; an absent one takes its default.
  func channels() throws(ConfigError) -> SIMD4<Double> {
    let m = try members()
    var result = SIMD4<Double>.zero
    for (index, key) in ConfigSchema.channels.keys.enumerated() {
      guard case .number(let absent) = key.defaultValue else { mismatch("a channel's default") }
      result[index] = try m[key.name]?.number() ?? absent
    }
    return result
  }

  private func describe() -> String {
    switch value {
    case .number(let number): format(number)
    case .string(let text): "\"\(printable(text.count > 40 ? text.prefix(40) + "…" : text))\""
    case .bool(let flag): "\(flag)"
    default: value.kind
    }
  }
}

/// An object's members, looked up by key, each with its path and its kind from the schema.
struct ConfigMembers {
  let members: [(key: String, value: JSONValue)]
  let path: String
  let object: ConfigSchema.Object
  /// The range of the key whose value this small object is (a varied value, a pair, channels).
  let field: ClosedRange<Double>?
  /// The unit of the key whose value this is: the unit of keys that have none of their own.
  let unit: String

  /// The member `name`, or nil when it is absent. `name` must be a key of the schema's object.
  subscript(name: String) -> ConfigNode? {
    guard let key = object[name] else {
      preconditionFailure("\(path): the schema's \(object.title) has no key \(name)")
    }
    guard let member = members.first(where: { $0.key == name }) else { return nil }
    let kind: ConfigSchema.Kind =
      switch (key.kind, field) {
      case (.fieldRange, let range?): .number(range)
      case (.fieldSpread, let range?): .number(0...(range.upperBound - range.lowerBound))
      default: key.kind
      }
    return ConfigNode(
      member.value, path: path + pathComponent(name), kind: kind,
      unit: key.unit.isEmpty ? unit : key.unit)
  }

  /// Checks the keys that only some cases of the object take against case `value`: the ones
  /// it needs are there, and none it does not take.
  func check(variant value: String) throws(ConfigError) {
    guard let variants = object.variants, let chosen = variants[value] else {
      preconditionFailure("\(path): the schema's \(object.title) has no case \(value)")
    }
    for key in chosen.required where !members.contains(where: { $0.key == key }) {
      throw ConfigError(
        path: path, message: "missing \"\(key)\", which \(variants.subject(value)) needs")
    }
    for member in members
    where variants.conditionalKeys.contains(member.key) && !chosen.keys.contains(member.key) {
      let takes =
        chosen.keys.isEmpty
        ? "nothing but its \(variants.selector)" : chosen.keys.joined(separator: ", ")
      let owners = variants.cases.filter { $0.keys.contains(member.key) }
        .map { variants.subject($0.value) }
      throw ConfigError(
        path: path + pathComponent(member.key),
        message: "\(variants.subject(value)) has no \(member.key); it takes \(takes) "
          + "(\(member.key) is for \(owners.joined(separator: " or ")))")
    }
  }
}

/// A key as a JSON path writes it: `.key` when it is a plain name, else `["key"]` with escapes.
func pathComponent(_ key: String) -> String {
  let plain =
    !key.isEmpty && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
  return plain ? "." + key : "[\"" + printable(key) + "\"]"
}

/// Text for a one-line message: line breaks, quotes and every invisible character (controls,
/// separators, format characters, noncharacters) escaped as in JSON.
func printable<S: StringProtocol>(_ text: S) -> String {
  jsonEscaped(text) { scalar in
    scalar.properties.generalCategory == .control || scalar.properties.isNoncharacterCodePoint
      || [.lineSeparator, .paragraphSeparator, .format].contains(
        scalar.properties.generalCategory)
  }
}

/// The contents of a JSON string: quotes, backslashes and line breaks escaped by name, the
/// controls below U+0020 and whatever `alsoEscaped` picks as `\uXXXX` (UTF-16 units, so a
/// scalar beyond U+FFFF is a surrogate pair); the rest as is.
func jsonEscaped<S: StringProtocol>(
  _ text: S, alsoEscaped: (Unicode.Scalar) -> Bool = { _ in false }
) -> String {
  var result = ""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\n": result += "\\n"
    case "\r": result += "\\r"
    case "\t": result += "\\t"
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    default:
      if scalar.value < 0x20 || alsoEscaped(scalar) {
        for unit in String(scalar).utf16 {
          let hex = String(unit, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
  }
  return result
}

/// Numbers in messages: whole numbers without a decimal point.
func format(_ number: Double) -> String {
  number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
}

extension ConfigNode {
  func emitter() throws(ConfigError) -> EmitterConfig {
    let m = try members()
    var e = EmitterConfig()
    e.trigger = try m["trigger"]?.choice(EmitterTrigger.self) ?? e.trigger
    e.position = try m["position"]?.pair() ?? e.position
    e.offset = try m["offset"]?.pair() ?? e.offset
    e.shape = try m["shape"]?.emitterShape() ?? e.shape
    if let emission = m["emission"] { (e.emission, e.prewarm) = try emission.emission() }
    if let wind = try m["wind"]?.members() {
      e.wind = try wind["speed"]?.number() ?? e.wind
      e.gustAmplitude = try wind["gust"]?.number() ?? e.gustAmplitude
      e.gustPeriod = try wind["gustPeriod"]?.number() ?? e.gustPeriod
    }
    if let floor = try m["floor"]?.members() {
      var f = Floor()
      f.y = try floor["y"]?.number() ?? f.y
      f.offset = try floor["offset"]?.number() ?? f.offset
      f.restTime = try floor["restTime"]?.number() ?? f.restTime
      f.depth = try floor["depth"]?.number() ?? f.depth
      e.floor = f
    }
    let mode = ConfigSchema.mode(of: e.emission)
    e.cells = try m["cells"]!.list().map { (node) throws(ConfigError) in
      try node.cell(mode: mode)
    }
    return e
  }

  func emitterShape() throws(ConfigError) -> EmitterShape {
    let m = try members()
    let kind = try m["kind"]!.choice()
    try m.check(variant: kind)
    switch kind {
    case "line": return .line(length: try m["length"]!.number())
    case "rectangle":
      return .rectangle(width: try m["width"]!.number(), height: try m["height"]!.number())
    case "circle": return .circle(radius: try m["radius"]!.number())
    default: return .point
    }
  }

  /// An emission and its prewarm, in seconds.
  func emission() throws(ConfigError) -> (Emission, Seconds) {
    let m = try members()
    let mode = try m["mode"]!.choice()
    try m.check(variant: mode)
    let prewarm = try m["prewarm"]?.number() ?? EmitterConfig().prewarm
    switch mode {
    case "timed":
      guard case .timed(let duration, let fadeOut, let taper) = Emission.timed() else {
        fatalError()
      }
      return (
        .timed(
          duration: try m["duration"]?.number() ?? duration,
          fadeOut: try m["fadeOut"]?.number() ?? fadeOut,
          taper: try m["taper"]?.bool() ?? taper), prewarm
      )
    case "continuous": return (.continuous, prewarm)
    default: return (.burst, 0)
    }
  }

  /// One cell of an emitter whose emission is `mode`, which decides whether it has a count or a
  /// birth rate.
  func cell(mode: String) throws(ConfigError) -> CellConfig {
    let m = try members()
    try m.check(variant: mode)
    var c = CellConfig()
    c.count = try m["count"]?.integer() ?? c.count
    c.birthRate = try m["birthRate"]?.number() ?? c.birthRate
    c.lifetime = try m["lifetime"]?.varied() ?? c.lifetime
    c.fade = try m["fade"]?.number() ?? c.fade
    c.fadeIn = try m["fadeIn"]?.number() ?? c.fadeIn
    c.blend = try m["blend"]?.choice(Blend.self) ?? c.blend
    c.speedUnit = try m["speedUnit"]?.choice(SpeedUnit.self) ?? c.speedUnit
    c.gravityUnit = try m["gravityUnit"]?.choice(GravityUnit.self) ?? c.gravityUnit
    c.speed = try m["speed"]?.varied() ?? c.speed
    c.direction = try m["direction"]?.varied() ?? c.direction
    c.kick = try m["kick"]?.pair() ?? c.kick
    let velocity = try m["velocity"]?.members()
    c.velocityX = try velocity?["x"]?.varied() ?? c.velocityX
    c.velocityY = try velocity?["y"]?.varied() ?? c.velocityY
    c.velocityUnit = try m["velocityUnit"]?.choice(VelocityUnit.self) ?? c.velocityUnit
    c.gravity = try m["gravity"]?.number() ?? c.gravity
    c.accelerationX = try m["accelerationX"]?.number() ?? c.accelerationX
    if let drag = try m["drag"]?.alternative() {
      if case .number = drag.kind {
        let k = try drag.number()
        c.drag = SIMD2(k, k)
      } else {
        c.drag = try drag.pair()
      }
    }
    c.dragRange = try m["dragRange"]?.number() ?? c.dragRange
    c.gravityRange = try m["gravityRange"]?.number() ?? c.gravityRange
    c.rotation = try m["rotation"]?.varied() ?? c.rotation
    c.spin = try m["spin"]?.varied() ?? c.spin
    c.scale = try m["scale"]?.varied() ?? c.scale
    c.scaleSpeed = try m["scaleSpeed"]?.number() ?? c.scaleSpeed
    c.shrinksWithLife = try m["shrinksWithLife"]?.bool() ?? c.shrinksWithLife
    c.sizes =
      try m["sizes"]?.list().map { (node) throws(ConfigError) in
        let wh = try node.list()
        return Size(width: try wh[0].number(), height: try wh[1].number())
      } ?? c.sizes
    c.colors =
      try m["colors"]?.list().map { (node) throws(ConfigError) in try node.color() } ?? c.colors
    c.colorRange = try m["colorRange"]?.channels() ?? c.colorRange
    c.colorSpeed = try m["colorSpeed"]?.channels() ?? c.colorSpeed
    c.shapes =
      try m["shapes"]?.list().map { (node) throws(ConfigError) in try node.shape() } ?? c.shapes
    c.flutterAmplitude = try m["flutterAmplitude"]?.varied() ?? c.flutterAmplitude
    c.flutterFrequency = try m["flutterFrequency"]?.varied() ?? c.flutterFrequency
    c.flutterFromBirth = try m["flutterFromBirth"]?.bool() ?? c.flutterFromBirth
    c.flips = try m["flips"]?.bool() ?? c.flips
    c.flipFrequency = try m["flipFrequency"]?.varied() ?? c.flipFrequency
    c.darkensBack = try m["darkensBack"]?.bool() ?? c.darkensBack
    c.twinkleFrequency = try m["twinkleFrequency"]?.varied() ?? c.twinkleFrequency
    if let twinkle = m["twinkle"] {
      c.twinkle = try twinkle.number()
      if c.twinkle > 0 && c.flips {
        throw twinkle.fail(
          "a piece that tumbles cannot twinkle (the two share one rate and phase): set flips "
            + "to false or twinkle to 0")
      }
    }
    c.spread = try m["spread"]?.varied() ?? c.spread
    c.trail = try m["trail"]?.integer() ?? c.trail
    c.trailSpacing = try m["trailSpacing"]?.number() ?? c.trailSpacing
    c.stretch = try m["stretch"]?.number() ?? c.stretch
    c.name = try m["name"]?.text()
    c.onDeath = try m["onDeath"]?.list().map { (node) throws(ConfigError) in try node.text() } ?? []
    c.alongFlight =
      try m["alongFlight"]?.list().map { (node) throws(ConfigError) in try node.text() } ?? []
    c.inheritVelocity = try m["inheritVelocity"]?.number() ?? c.inheritVelocity
    c.diesAtApex = try m["diesAtApex"]?.bool() ?? c.diesAtApex
    return c
  }

  /// "#rrggbb" or "#rrggbbaa".
  func color() throws(ConfigError) -> RGBA8 {
    let digits = Array(try text().dropFirst())
    let byte = { (i: Int) in UInt8(String(digits[(2 * i)..<(2 * i + 2)]), radix: 16)! }
    return RGBA8(
      red: byte(0), green: byte(1), blue: byte(2), alpha: digits.count == 8 ? byte(3) : 255)
  }

  /// A built-in shape's name, {"polygon": [[x, y], …]} or {"image": "file.png"}.
  func shape() throws(ConfigError) -> ShapeChoice {
    let node = try alternative()
    if case .choice = node.kind {
      let name = try node.choice()
      return .builtIn(ParticleShape.named.first { $0.0 == name }!.1)
    }
    let m = try node.members()
    if let image = m["image"] {
      return .image(try image.text())
    }
    if let text = m["text"] {
      return .text(try text.text())
    }
    let polygon = m["polygon"]!
    let corners = try polygon.list().map { (corner) throws(ConfigError) -> SIMD2<Double> in
      let xy = try corner.list()
      return SIMD2(try xy[0].number(), try xy[1].number())
    }
    var probe = ShapeTable()
    do {
      _ = try probe.add(polygon: corners)
    } catch {
      throw polygon.fail(error.description)
    }
    return .polygon(corners)
  }
}
