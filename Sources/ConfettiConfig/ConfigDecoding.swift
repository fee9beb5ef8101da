import ConfettiCore

extension EffectConfig {
  /// Decodes a configuration file's text, checking everything: syntax (with line and column),
  /// unknown keys, types, required values, ranges, empty lists. Nothing is half-configured: it
  /// returns a complete configuration or throws the first problem.
  public static func decode(_ text: String) throws(ConfigError) -> EffectConfig {
    let json: JSONValue
    do {
      json = try StrictJSON.parse(text)
    } catch {
      throw ConfigError(path: "", message: "not valid JSON: \(error)")
    }
    let root = try ConfigNode(json, path: "$").members(
      allowed: ["name", "description", "emitters"], required: ["name", "emitters"])
    let name = try root["name"]!.string(pattern: "a name of 1 to 40 letters, digits or '-'") {
      (1...40).contains($0.count)
        && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
    let summary = try root["description"]?.string(pattern: "text of at most 200 characters") {
      $0.count <= 200
    }
    let emitters = try root["emitters"]!.array(count: 1...16).map { (node) throws(ConfigError) in
      try node.emitter()
    }
    let cells = emitters.reduce(0) { $0 + $1.cells.count }
    guard cells <= cellCapacity else {
      throw ConfigError(
        path: "$.emitters",
        message: "\(cells) cells in all; at most \(cellCapacity) (one emitter table entry each)")
    }
    return EffectConfig(name: name, summary: summary ?? "", emitters: emitters)
  }
}

/// One value of the document and its path, with the checks every field goes through.
struct ConfigNode {
  let value: JSONValue
  let path: String

  init(_ value: JSONValue, path: String) {
    (self.value, self.path) = (value, path)
  }

  func fail(_ message: String) -> ConfigError {
    ConfigError(path: path, message: message)
  }

  func members(allowed: [String], required: [String] = []) throws(ConfigError) -> ConfigMembers {
    guard case .object(let members) = value else {
      throw fail(
        "must be an object with keys \(allowed.joined(separator: ", ")), not \(value.kind)")
    }
    for member in members where !allowed.contains(member.key) {
      throw ConfigError(
        path: path + pathComponent(member.key),
        message: "unknown key; allowed here: \(allowed.joined(separator: ", "))")
    }
    for key in required where !members.contains(where: { $0.key == key }) {
      throw fail("missing \"\(key)\", which is required here")
    }
    return ConfigMembers(members: members, path: path)
  }

  func number(_ range: ClosedRange<Double>, _ unit: String) throws(ConfigError) -> Double {
    guard case .number(let number) = value, range.contains(number) else {
      throw fail(
        "must be a number from \(format(range.lowerBound)) to \(format(range.upperBound))"
          + "\(unit.isEmpty ? "" : " (\(unit))"), not \(describe())")
    }
    return number
  }

  func integer(_ range: ClosedRange<Int>) throws(ConfigError) -> Int {
    guard case .number(let number) = value, number.rounded() == number,
      Double(range.lowerBound) <= number, number <= Double(range.upperBound)
    else {
      throw fail(
        "must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(describe())")
    }
    return Int(number)
  }

  func bool() throws(ConfigError) -> Bool {
    guard case .bool(let flag) = value else {
      throw fail("must be true or false, not \(describe())")
    }
    return flag
  }

  func string(pattern: String, _ valid: (String) -> Bool) throws(ConfigError) -> String {
    guard case .string(let text) = value, valid(text) else {
      throw fail("must be \(pattern), not \(describe())")
    }
    return text
  }

  func choice<T: RawRepresentable & CaseIterable>(_: T.Type) throws(ConfigError) -> T
  where T.RawValue == String {
    let names = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    guard case .string(let text) = value, let choice = T(rawValue: text) else {
      throw fail("must be one of \(names), not \(describe())")
    }
    return choice
  }

  func array(count: ClosedRange<Int>) throws(ConfigError) -> [ConfigNode] {
    guard case .array(let elements) = value else {
      throw fail(
        "must be an array of \(count.lowerBound) to \(count.upperBound) items, not \(describe())")
    }
    guard count.contains(elements.count) else {
      throw fail(
        elements.isEmpty
          ? "must not be empty (\(count.lowerBound) to \(count.upperBound) items)"
          : "must have \(count.lowerBound) to \(count.upperBound) items, not \(elements.count)")
    }
    return elements.enumerated().map { ConfigNode($1, path: "\(path)[\($0)]") }
  }

  /// A number, or an object {"value": v, "range": r} for v ± r; both ends must lie in `range`.
  func varied(_ range: ClosedRange<Double>, _ unit: String) throws(ConfigError) -> Varied {
    if case .number = value { return Varied(try number(range, unit)) }
    guard case .object = value else {
      throw fail(
        "must be a number or {\"value\": v, \"range\": r} (v ± r, \(unit)), not \(describe())")
    }
    let members = try members(allowed: ["value", "range"], required: ["value"])
    let base = try members["value"]!.number(range, unit)
    let spread = try members["range"]?.number(0...(range.upperBound - range.lowerBound), unit) ?? 0
    let varied = Varied(base, range: spread)
    guard range.contains(varied.bounds.lowerBound), range.contains(varied.bounds.upperBound) else {
      throw fail(
        "value ± range must stay within \(format(range.lowerBound)) to "
          + "\(format(range.upperBound)) (\(unit)), not \(format(base)) ± \(format(spread))")
    }
    return varied
  }

  /// An object {"x": …, "y": …}.
  func pair(_ range: ClosedRange<Double>, _ unit: String) throws(ConfigError) -> SIMD2<Double> {
    let members = try members(allowed: ["x", "y"], required: ["x", "y"])
    return SIMD2(try members["x"]!.number(range, unit), try members["y"]!.number(range, unit))
  }

  /// An object with any of "red", "green", "blue", "alpha" (0 when absent).
  func channels(_ range: ClosedRange<Double>, _ unit: String) throws(ConfigError) -> SIMD4<Double> {
    let names = ["red", "green", "blue", "alpha"]
    let members = try members(allowed: names)
    var result = SIMD4<Double>.zero
    for (index, name) in names.enumerated() {
      result[index] = try members[name]?.number(range, unit) ?? 0
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

/// An object's members, looked up by key, each with its path.
struct ConfigMembers {
  let members: [(key: String, value: JSONValue)]
  let path: String

  subscript(key: String) -> ConfigNode? {
    members.first { $0.key == key }.map { ConfigNode($0.value, path: path + pathComponent(key)) }
  }
}

/// A key as a JSON path writes it: `.key` when it is a plain name, else `["key"]` with escapes.
func pathComponent(_ key: String) -> String {
  let plain =
    !key.isEmpty && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
  return plain ? "." + key : "[\"" + printable(key) + "\"]"
}

/// Text for a one-line message: control characters, line breaks and quotes escaped as in JSON.
func printable<S: StringProtocol>(_ text: S) -> String {
  var result = ""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\n": result += "\\n"
    case "\r": result += "\\r"
    case "\t": result += "\\t"
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    default:
      if scalar.properties.generalCategory == .control || scalar.properties.isNoncharacterCodePoint
        || [.lineSeparator, .paragraphSeparator, .format].contains(
          scalar.properties.generalCategory)
      {
        result += String(format: "\\u%04x", scalar.value)
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
    let m = try members(
      allowed: ["trigger", "position", "shape", "emission", "wind", "cells"], required: ["cells"])
    var emitter = EmitterConfig()
    emitter.trigger = try m["trigger"]?.choice(EmitterTrigger.self) ?? .start
    emitter.position = try m["position"]?.pair(-1...2, "shares of the window") ?? emitter.position
    emitter.shape = try m["shape"]?.emitterShape() ?? .point
    emitter.emission = try m["emission"]?.emission() ?? .burst
    if let wind = m["wind"] {
      let w = try wind.members(allowed: ["speed", "gust", "gustPeriod"])
      emitter.wind = try w["speed"]?.number(-2000...2000, "pt/s") ?? 0
      emitter.gustAmplitude = try w["gust"]?.number(0...2000, "pt") ?? 0
      emitter.gustPeriod = try w["gustPeriod"]?.number(0.1...600, "s") ?? 4
    }
    let rated = emitter.emission != .burst
    emitter.cells = try m["cells"]!.array(count: 1...EffectConfig.cellCapacity).map {
      (node) throws(ConfigError) in try node.cell(rated: rated)
    }
    return emitter
  }

  func emitterShape() throws(ConfigError) -> EmitterShape {
    let kinds = ["point", "line", "rectangle", "circle"]
    let m = try members(
      allowed: ["kind", "length", "width", "height", "radius"], required: ["kind"])
    let kind = try m["kind"]!.string(pattern: "one of \(kinds.joined(separator: ", "))") {
      kinds.contains($0)
    }
    let needs: [String: [String]] = [
      "point": [], "line": ["length"], "rectangle": ["width", "height"], "circle": ["radius"],
    ]
    for member in m.members where member.key != "kind" && !needs[kind]!.contains(member.key) {
      throw ConfigError(
        path: path + "." + member.key,
        message: "a \(kind) has no \(member.key); it takes "
          + (needs[kind]!.isEmpty ? "nothing but its kind" : needs[kind]!.joined(separator: ", ")))
    }
    for key in needs[kind]! where m[key] == nil {
      throw fail("missing \"\(key)\", which a \(kind) needs")
    }
    let share = "shares of the window"
    switch kind {
    case "line": return .line(length: try m["length"]!.number(0...4, share))
    case "rectangle":
      return .rectangle(
        width: try m["width"]!.number(0...4, share), height: try m["height"]!.number(0...4, share))
    case "circle": return .circle(radius: try m["radius"]!.number(0...4, share))
    default: return .point
    }
  }

  func emission() throws(ConfigError) -> Emission {
    let modes = ["burst", "timed", "continuous"]
    let m = try members(allowed: ["mode", "duration", "fadeOut"], required: ["mode"])
    let mode = try m["mode"]!.string(pattern: "one of \(modes.joined(separator: ", "))") {
      modes.contains($0)
    }
    guard mode == "timed" else {
      for key in ["duration", "fadeOut"] where m[key] != nil {
        throw ConfigError(path: path + "." + key, message: "only a timed emission has \(key)")
      }
      return mode == "burst" ? .burst : .continuous
    }
    return .timed(
      duration: try m["duration"]?.number(0.1...300, "s") ?? 3,
      fadeOut: try m["fadeOut"]?.number(0...60, "s") ?? 1)
  }

  static let cellKeys = [
    "count", "birthRate", "lifetime", "fade", "speed", "speedUnit", "direction", "kick", "gravity",
    "accelerationX", "drag", "rotation", "spin", "scale", "scaleSpeed", "shrinksWithLife", "sizes",
    "colors", "colorRange", "colorSpeed", "shapes", "flutterAmplitude", "flutterFrequency", "flips",
    "flipFrequency", "darkensBack", "spread", "trail", "trailSpacing",
  ]

  func cell(rated: Bool) throws(ConfigError) -> CellConfig {
    let m = try members(allowed: Self.cellKeys, required: [rated ? "birthRate" : "count"])
    if let wrong = m[rated ? "count" : "birthRate"] {
      throw wrong.fail(
        rated
          ? "a timed or continuous emitter's cells have a birthRate, not a count"
          : "a burst's cells have a count, not a birthRate")
    }
    var c = CellConfig()
    c.count = try m["count"]?.integer(1...1_000_000) ?? 0
    c.birthRate = try m["birthRate"]?.number(0.01...1_000_000, "particles/s") ?? 0
    c.lifetime = try m["lifetime"]?.varied(0.01...ParticleRecord.maximumLifetime, "s") ?? c.lifetime
    c.fade = try m["fade"]?.number(0...ParticleRecord.maximumLifetime, "s") ?? c.fade
    c.speedUnit = try m["speedUnit"]?.choice(SpeedUnit.self) ?? .points
    c.speed =
      try m["speed"]?.varied(0...100_000, c.speedUnit == .points ? "pt/s" : "window heights/s")
      ?? c.speed
    c.direction = try m["direction"]?.varied(-720...720, "degrees clockwise from +x") ?? c.direction
    c.kick = try m["kick"]?.pair(-100_000...100_000, "pt/s") ?? c.kick
    c.gravity = try m["gravity"]?.number(-60_000...60_000, "pt/s²") ?? c.gravity
    c.accelerationX = try m["accelerationX"]?.number(-60_000...60_000, "pt/s²") ?? 0
    if let drag = m["drag"] {
      if case .number = drag.value {
        let k = try drag.number(0...60, "1/s")
        c.drag = SIMD2(k, k)
      } else {
        c.drag = try drag.pair(0...60, "1/s")
      }
    }
    c.rotation = try m["rotation"]?.varied(-3600...3600, "degrees") ?? c.rotation
    c.spin = try m["spin"]?.varied(-7200...7200, "degrees/s") ?? c.spin
    c.scale = try m["scale"]?.varied(0...100, "times the size") ?? c.scale
    c.scaleSpeed = try m["scaleSpeed"]?.number(-100...100, "1/s") ?? 0
    c.shrinksWithLife = try m["shrinksWithLife"]?.bool() ?? false
    if let sizes = m["sizes"] {
      c.sizes = try sizes.array(count: 1...64).map { (node) throws(ConfigError) in
        let wh = try node.array(count: 2...2)
        return Size(
          width: try wh[0].number(0.1...4096, "pt"), height: try wh[1].number(0.1...4096, "pt"))
      }
    }
    if let colors = m["colors"] {
      c.colors = try colors.array(count: 1...64).map { (node) throws(ConfigError) in
        try node.color()
      }
    }
    c.colorRange = try m["colorRange"]?.channels(0...1, "shares of full scale") ?? .zero
    c.colorSpeed = try m["colorSpeed"]?.channels(-100...100, "shares of full scale per s") ?? .zero
    if let shapes = m["shapes"] {
      c.shapes = try shapes.array(count: 1...32).map { (node) throws(ConfigError) in
        try node.shape()
      }
    }
    c.flutterAmplitude = try m["flutterAmplitude"]?.varied(0...10_000, "pt") ?? c.flutterAmplitude
    c.flutterFrequency = try m["flutterFrequency"]?.varied(0...1000, "rad/s") ?? c.flutterFrequency
    c.flips = try m["flips"]?.bool() ?? false
    c.flipFrequency = try m["flipFrequency"]?.varied(0...1000, "rad/s") ?? c.flipFrequency
    c.darkensBack = try m["darkensBack"]?.bool() ?? true
    c.spread = try m["spread"]?.varied(-10_000...10_000, "pt/s²") ?? c.spread
    c.trail = try m["trail"]?.integer(0...Int(ConfettiParticle.maximumTrail)) ?? 0
    c.trailSpacing = try m["trailSpacing"]?.number(0.001...1, "s") ?? c.trailSpacing
    return c
  }

  /// "#rrggbb" or "#rrggbbaa".
  func color() throws(ConfigError) -> RGBA8 {
    let text = try string(pattern: "a colour \"#rrggbb\" or \"#rrggbbaa\"") { text in
      (text.count == 7 || text.count == 9) && text.first == "#"
        && text.dropFirst().allSatisfy(\.isHexDigit)
    }
    let digits = Array(text.dropFirst())
    let byte = { (i: Int) in UInt8(String(digits[(2 * i)..<(2 * i + 2)]), radix: 16)! }
    return RGBA8(
      red: byte(0), green: byte(1), blue: byte(2), alpha: digits.count == 8 ? byte(3) : 255)
  }

  /// "rectangle", "circle", "triangle", "star", {"polygon": [[x, y], …]} or {"image": "file.png"}.
  func shape() throws(ConfigError) -> ShapeChoice {
    let names = ParticleShape.named.map(\.0)
    let allowed =
      names.map { "\"\($0)\"" }.joined(separator: ", ")
      + ", {\"polygon\": [[x, y], …]} or {\"image\": \"file.png\"}"
    if case .string(let name) = value {
      guard let shape = ParticleShape.named.first(where: { $0.0 == name })?.1 else {
        throw fail("must be one of \(allowed), not \"\(name)\"")
      }
      return .builtIn(shape)
    }
    guard case .object(let members) = value, members.count == 1 else {
      throw fail("must be one of \(allowed)")
    }
    let m = try self.members(allowed: ["polygon", "image"])
    if let image = m["image"] {
      return .image(
        try image.string(pattern: "the path of a PNG file") { !$0.isEmpty && $0.count < 1024 })
    }
    let polygon = m["polygon"]!
    let corners = try polygon.array(count: 3...ShapeTable.cornerCapacity).map {
      (corner) throws(ConfigError) -> SIMD2<Double> in
      let xy = try corner.array(count: 2...2)
      return SIMD2(try xy[0].number(-10_000...10_000, ""), try xy[1].number(-10_000...10_000, ""))
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
