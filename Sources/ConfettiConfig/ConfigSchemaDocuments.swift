/// What ``ConfigSchema`` writes from its table: the words of error messages, a JSON Schema and
/// the configuration reference's tables (docs/configuration.md).
extension ConfigSchema {
  /// The whole format as a JSON Schema (draft 2020-12): types, choices, ranges, defaults,
  /// descriptions, required keys, no other keys. Pretty-printed, keys in a fixed order.
  public static func jsonSchema() -> String {
    var root: [(key: String, value: JSONValue)] = [
      ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
      ("title", .string("Confetti effect")),
    ]
    root += objectSchema(effect, field: nil).filter { $0.key != "title" }
    var definitions: [(key: String, value: JSONValue)] = []
    for object in referencedObjects(from: effect) {
      definitions.append((object.id, .object(objectSchema(object, field: nil))))
    }
    root.append(("$defs", .object(definitions)))
    return JSONValue.object(root).prettyText() + "\n"
  }

  /// The configuration reference's tables (docs/configuration.md): one for each object, a row for each key.
  public static func markdownTables() -> String {
    objects.map(markdownTable).joined(separator: "\n")
  }

  /// The objects that keys of `root` and their objects name as `.object`, in the order of
  /// ``objects``; these are the JSON Schema's definitions. The small value objects are written
  /// inline, with each field's own range.
  static func referencedObjects(from root: Object) -> [Object] {
    var found: [String] = []
    func visit(_ kind: Kind) {
      switch kind {
      case .object(let object):
        guard !found.contains(object.id) else { return }
        found.append(object.id)
        object.keys.forEach { visit($0.kind) }
      case .list(let element, _): visit(element)
      case .either(let kinds): kinds.forEach(visit)
      default: break
      }
    }
    root.keys.forEach { visit($0.kind) }
    return objects.filter { found.contains($0.id) }
  }

  // MARK: JSON Schema

  static func objectSchema(_ object: Object, field: ClosedRange<Double>?) -> [(
    key: String, value: JSONValue
  )] {
    var schema: [(key: String, value: JSONValue)] = [
      ("type", .string("object")), ("title", .string(object.title)),
      ("description", .string(object.summary)),
      ("properties", .object(object.keys.map { ($0.name, .object(keySchema($0, field: field))) })),
    ]
    if !object.required.isEmpty {
      schema.append(("required", .array(object.required.map(JSONValue.string))))
    }
    if let count = object.memberCount {
      schema += [
        ("minProperties", .number(Double(count.lowerBound))),
        ("maxProperties", .number(Double(count.upperBound))),
      ]
    }
    schema.append(("additionalProperties", .bool(false)))
    if let variants = object.variants { schema += variantSchema(variants) }
    return schema
  }

  /// What each case of `variants` requires and forbids: `if`/`then` for each value of the
  /// object's own selector key; a `oneOf` of the cases' key sets when the context selects.
  static func variantSchema(_ variants: Variants) -> [(key: String, value: JSONValue)] {
    func then(_ chosen: Variants.Case) -> JSONValue {
      var then: [(key: String, value: JSONValue)] = []
      if !chosen.required.isEmpty {
        then.append(("required", .array(chosen.required.map(JSONValue.string))))
      }
      let forbidden = variants.conditionalKeys.filter { !chosen.keys.contains($0) }
      if !forbidden.isEmpty {
        then.append(("properties", .object(forbidden.map { ($0, .bool(false)) })))
      }
      return .object(then)
    }
    guard let key = variants.key else {
      var alternatives: [(keys: [String], values: [String])] = []
      for chosen in variants.cases {
        if let index = alternatives.firstIndex(where: { $0.keys == chosen.keys }) {
          alternatives[index].values.append(chosen.value)
        } else {
          alternatives.append((chosen.keys, [chosen.value]))
        }
      }
      return [
        (
          "oneOf",
          .array(
            alternatives.map { alternative in
              let chosen = variants[alternative.values[0]]!
              guard case .object(let then) = then(chosen) else { return then(chosen) }
              let whom = alternative.values.map { variants.subject($0) }
              return .object([("description", .string(whom.joined(separator: " or ")))] + then)
            })
        )
      ]
    }
    return [
      (
        "allOf",
        .array(
          variants.cases.map { chosen in
            .object([
              (
                "if",
                .object([
                  ("properties", .object([(key, .object([("const", .string(chosen.value))]))])),
                  ("required", .array([.string(key)])),
                ])
              ),
              ("then", then(chosen)),
            ])
          })
      )
    ]
  }

  static func keySchema(_ key: Key, field: ClosedRange<Double>?) -> [(
    key: String, value: JSONValue
  )] {
    let description = key.help + (key.unit.isEmpty ? "" : "; in \(key.unit)")
    var schema: [(key: String, value: JSONValue)] = [("description", .string(description))]
    schema += kindSchema(key.kind, field: field).filter { $0.key != "description" }
    if let value = key.defaultValue { schema.append(("default", value)) }
    return schema
  }

  static func kindSchema(_ kind: Kind, field: ClosedRange<Double>?) -> [(
    key: String, value: JSONValue
  )] {
    func bounds(_ range: ClosedRange<Double>) -> [(key: String, value: JSONValue)] {
      [("minimum", .number(range.lowerBound)), ("maximum", .number(range.upperBound))]
    }
    switch kind {
    case .number(let range):
      return [("type", .string("number"))] + bounds(range)
    case .integer(let range):
      return [("type", .string("integer"))]
        + bounds(Double(range.lowerBound)...Double(range.upperBound))
    case .boolean:
      return [("type", .string("boolean"))]
    case .text(let rule):
      var schema: [(key: String, value: JSONValue)] = [("type", .string("string"))]
      if rule.length.lowerBound > 0 {
        schema.append(("minLength", .number(Double(rule.length.lowerBound))))
      }
      schema.append(("maxLength", .number(Double(rule.length.upperBound))))
      if let pattern = rule.pattern { schema.append(("pattern", .string(pattern))) }
      return schema
    case .choice(let names):
      return [("type", .string("string")), ("enum", .array(names.map(JSONValue.string)))]
    case .varied(let range):
      return [
        (
          "anyOf",
          .array([
            .object(kindSchema(.number(range), field: nil)),
            .object(objectSchema(varied, field: range)),
          ])
        )
      ]
    case .pair(let range):
      return objectSchema(pair, field: range)
    case .channels(let range):
      return objectSchema(channels, field: range)
    case .list(let element, let count):
      return [
        ("type", .string("array")), ("items", .object(kindSchema(element, field: field))),
        ("minItems", .number(Double(count.lowerBound))),
        ("maxItems", .number(Double(count.upperBound))),
      ]
    case .object(let object):
      return [("$ref", .string("#/$defs/\(object.id)"))]
    case .either(let kinds):
      return [("anyOf", .array(kinds.map { .object(kindSchema($0, field: field)) }))]
    case .fieldRange:
      return kindSchema(.number(field!), field: nil)
    case .fieldSpread:
      return kindSchema(.number(0...(field!.upperBound - field!.lowerBound)), field: nil)
    }
  }

  // MARK: Markdown

  static func markdownTable(_ object: Object) -> String {
    var lines = [
      "**\(object.title).** \(object.summary)", "",
      "| key | type | unit | default | range | meaning |", "| --- | --- | --- | --- | --- | --- |",
    ]
    for key in object.keys {
      let cells = [
        "`\(key.name)`", typeWords(key.kind), unitWords(key), defaultWords(key, in: object),
        rangeWords(key.kind), meaningWords(key, in: object),
      ]
      let escaped = cells.map { $0.isEmpty ? "—" : $0.replacing("|", with: "\\|") }
      lines.append("| " + escaped.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The type column: "number", "array of cells".
  static func typeWords(_ kind: Kind, plural: Bool = false) -> String {
    let s = plural ? "s" : ""
    switch kind {
    case .number, .fieldRange, .fieldSpread: return "number\(s)"
    case .integer: return "whole number\(s)"
    case .boolean: return "boolean\(s)"
    case .text, .choice: return "string\(s)"
    case .varied: return "number\(s) or varied value\(s)"
    case .pair: return "pair\(s)"
    case .channels: return "colour channels"
    case .object(let object): return object.title.lowercased() + s
    case .either(let kinds):
      return kinds.map { typeWords($0, plural: plural) }.joined(separator: " or ")
    case .list(let element, let count):
      if case .number = element, count.lowerBound == count.upperBound {
        return "[" + Array(repeating: "number", count: count.lowerBound).joined(separator: ", ")
          + "]"
      }
      return (plural ? "arrays of " : "array of ") + typeWords(element, plural: true)
    }
  }

  /// The range column: "0.01 to 600", "1 to 64 items, each …".
  static func rangeWords(_ kind: Kind) -> String {
    switch kind {
    case .number(let range), .varied(let range):
      return "\(format(range.lowerBound)) to \(format(range.upperBound))"
    case .integer(let range):
      return "\(range.lowerBound) to \(range.upperBound)"
    case .pair(let range), .channels(let range):
      return "\(format(range.lowerBound)) to \(format(range.upperBound)) each"
    case .boolean, .object:
      return ""
    case .text(let rule):
      if let characters = rule.characters {
        return rule.length.lowerBound == 0
          ? "at most \(rule.length.upperBound) \(characters)"
          : "\(countWords(rule.length)) \(characters)"
      }
      return rule.pattern == nil ? "\(countWords(rule.length)) characters" : rule.noun
    case .choice(let names):
      return names.map { "`\"\($0)\"`" }.joined(separator: ", ")
    case .list(let element, let count):
      let items = "\(countWords(count)) items"
      if case .list(.number(let range), _) = element {
        return items + " of numbers \(format(range.lowerBound)) to \(format(range.upperBound))"
      }
      let each = rangeWords(element)
      return each.isEmpty ? items : "\(items), each \(each)"
    case .either(let kinds):
      return kinds.map { kind in
        if case .object(let object) = kind { return "a \(object.title.lowercased())" }
        return rangeWords(kind)
      }.filter { !$0.isEmpty }.joined(separator: " or ")
    case .fieldRange:
      return "the field's range"
    case .fieldSpread:
      return "0 to the width of the field's range"
    }
  }

  /// The unit column: the key's, or the field's for the parts of a small value object.
  static func unitWords(_ key: Key) -> String {
    switch key.kind {
    case .fieldRange, .fieldSpread: key.unit.isEmpty ? "the field's" : key.unit
    default: key.unit
    }
  }

  /// The default column: the default as JSON, or when the key is required.
  static func defaultWords(_ key: Key, in object: Object) -> String {
    if key.required { return "required" }
    if let variants = object.variants {
      let needing = variants.cases.filter { $0.required.contains(key.name) }.map(\.value)
      if !needing.isEmpty { return "required when \(variants.selector) is \(choices(needing))" }
    }
    return key.defaultValue.map { "`\($0.compactText)`" } ?? ""
  }

  /// The meaning column: the help, and the cases an optional conditional key belongs to.
  static func meaningWords(_ key: Key, in object: Object) -> String {
    guard let variants = object.variants,
      !variants.cases.contains(where: { $0.required.contains(key.name) })
    else { return key.help }
    let taking = variants.cases.filter { $0.optional.contains(key.name) }.map(\.value)
    guard !taking.isEmpty else { return key.help }
    return "\(key.help) (only when \(variants.selector) is \(choices(taking)))"
  }

  /// `"a"` or `"b"`.
  private static func choices(_ values: [String]) -> String {
    values.map { "`\"\($0)\"`" }.joined(separator: " or ")
  }
}

extension ConfigSchema.Kind {
  /// What a value of this kind must be, as an error message says it: "a number from 0 to 60
  /// (1/s)".
  func words(unit: String) -> String {
    let inUnit = unit.isEmpty ? "" : " (\(unit))"
    switch self {
    case .number(let range):
      return "a number from \(format(range.lowerBound)) to \(format(range.upperBound))\(inUnit)"
    case .integer(let range):
      return "a whole number from \(range.lowerBound) to \(range.upperBound)\(inUnit)"
    case .boolean:
      return "true or false"
    case .text(let rule):
      return rule.words
    case .choice(let names):
      return "one of " + names.map { "\"\($0)\"" }.joined(separator: ", ")
    case .varied(let range):
      return "\(Self.number(range).words(unit: unit)) or {\"value\": v, \"range\": r} for v ± r"
    case .pair(let range):
      return "{\"x\": x, \"y\": y}, each \(Self.span(range))\(inUnit)"
    case .channels(let range):
      let names = ConfigSchema.channels.names.joined(separator: ", ")
      return "an object with any of \(names), each \(Self.span(range))\(inUnit)"
    case .list(_, let count):
      return "an array of \(countWords(count)) items"
    case .object(let object):
      return "an object with keys \(object.names.joined(separator: ", "))"
    case .either(let kinds):
      return kinds.map { $0.words(unit: unit) }.joined(separator: ", or ")
    case .fieldRange, .fieldSpread:
      return "a number"
    }
  }

  /// "from 0 to 60".
  private static func span(_ range: ClosedRange<Double>) -> String {
    "from \(format(range.lowerBound)) to \(format(range.upperBound))"
  }

  /// Whether `value`'s JSON type is this kind's (its range aside).
  func fits(_ value: JSONValue) -> Bool {
    switch (self, value) {
    case (.number, .number), (.integer, .number), (.varied, .number), (.fieldRange, .number),
      (.fieldSpread, .number):
      true
    case (.varied, .object), (.pair, .object), (.channels, .object), (.object, .object): true
    case (.text, .string), (.choice, .string): true
    case (.list, .array): true
    case (.boolean, .bool): true
    case (.either(let kinds), _): kinds.contains { $0.fits(value) }
    default: false
    }
  }
}

extension JSONValue {
  /// One line of JSON with a space after each ':' and ',': `{"x": 0.5, "y": 0.5}`.
  var compactText: String {
    switch self {
    case .array(let elements): "[" + elements.map(\.compactText).joined(separator: ", ") + "]"
    case .object(let members):
      "{" + members.map { jsonText($0.key) + ": " + $0.value.compactText }.joined(separator: ", ")
        + "}"
    default: scalarText
    }
  }

  /// Indented JSON, two spaces a level, members in their order; arrays of plain values on one
  /// line.
  func prettyText(indent: String = "") -> String {
    let inner = indent + "  "
    switch self {
    case .array(let elements) where elements.contains(where: \.isContainer):
      return "[\n" + elements.map { inner + $0.prettyText(indent: inner) }.joined(separator: ",\n")
        + "\n\(indent)]"
    case .object(let members) where !members.isEmpty:
      return "{\n"
        + members.map { inner + jsonText($0.key) + ": " + $0.value.prettyText(indent: inner) }
        .joined(separator: ",\n") + "\n\(indent)}"
    default:
      return compactText
    }
  }

  private var isContainer: Bool {
    switch self {
    case .array, .object: true
    default: false
    }
  }

  private var scalarText: String {
    switch self {
    case .null: "null"
    case .bool(let flag): "\(flag)"
    case .number(let number):
      if number.isFinite { format(number) } else { preconditionFailure("JSON has no \(number)") }
    case .string(let text): jsonText(text)
    case .array, .object: compactText
    }
  }
}

/// A JSON string literal: quotes, backslashes and control characters escaped; the rest as is.
func jsonText(_ text: String) -> String {
  "\"" + jsonEscaped(text) + "\""
}
