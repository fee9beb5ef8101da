import ConfettiConfig
import ConfettiCore
import ConfettiPresets
import Foundation
import XCTest

/// The schema table: the configuration reference's tables (docs/configuration.md) and the JSON Schema are written from it, the presets
/// stay inside it, its defaults are the structs', and the decoder takes its ranges and keys
/// from it.
final class ConfigSchemaTests: XCTestCase {
  static let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appending(
      path: "docs/configuration.md")
  static let begin = "<!-- schema:begin -->"
  static let end = "<!-- schema:end -->"

  /// The configuration reference's tables are the generated ones. Run the tests with
  /// `CONFETTI_WRITE_SCHEMA_TABLES=1` to write them into docs/configuration.md after changing the table.
  func testTheReferenceTablesAreTheSchemasTables() throws {
    let tables = ConfigSchema.markdownTables()
    if ProcessInfo.processInfo.environment["CONFETTI_WRITE_SCHEMA_TABLES"] == "1" {
      // Written, then checked like any other run: read back below.
      let text = try String(contentsOf: Self.reference, encoding: .utf8)
      let start = try XCTUnwrap(
        text.range(of: Self.begin), "docs/configuration.md has \(Self.begin)")
      let stop = try XCTUnwrap(text.range(of: Self.end), "docs/configuration.md has \(Self.end)")
      let updated = text.replacingCharacters(
        in: start.upperBound..<stop.lowerBound, with: "\n\n" + tables + "\n")
      try updated.write(to: Self.reference, atomically: true, encoding: .utf8)
    }
    let text = try String(contentsOf: Self.reference, encoding: .utf8)
    let start = try XCTUnwrap(text.range(of: Self.begin), "docs/configuration.md has \(Self.begin)")
    let stop = try XCTUnwrap(text.range(of: Self.end), "docs/configuration.md has \(Self.end)")
    XCTAssertLessThan(start.upperBound, stop.lowerBound)
    let block = String(text[start.upperBound..<stop.lowerBound])
    XCTAssertEqual(
      block.trimmingCharacters(in: .whitespacesAndNewlines),
      tables.trimmingCharacters(in: .whitespacesAndNewlines),
      "docs/configuration.md's tables differ from ConfigSchema.markdownTables(); run the tests "
        + "with CONFETTI_WRITE_SCHEMA_TABLES=1 to rewrite them")
    for object in ConfigSchema.objects {
      XCTAssert(tables.contains("**\(object.title).**"), "a table for \(object.title)")
      for key in object.keys {
        XCTAssert(tables.contains("| `\(key.name)` |"), "\(object.title) has a row for \(key.name)")
      }
    }
  }

  func testTheJSONSchemaParsesAndNamesEveryKeyOfTheTable() throws {
    let text = ConfigSchema.jsonSchema()
    let schema = try StrictJSON.parse(text)
    XCTAssertEqual(
      schema[path: "$schema"], .string("https://json-schema.org/draft/2020-12/schema"))
    XCTAssertEqual(schema[path: "additionalProperties"], .bool(false))
    // Every object of the table is some object schema's properties, key for key, in order.
    var propertyLists: [[String]] = []
    var closed = 0
    var objectSchemas = 0
    func visit(_ value: JSONValue) {
      switch value {
      case .object(let members):
        if case .object(let properties)? = members.first(where: { $0.key == "properties" })?.value {
          propertyLists.append(properties.map(\.key))
          objectSchemas += 1
          if members.contains(where: {
            $0.key == "additionalProperties" && $0.value == .bool(false)
          }) {
            closed += 1
          }
        }
        members.forEach { visit($0.value) }
      case .array(let elements): elements.forEach(visit)
      default: break
      }
    }
    visit(schema)
    for object in ConfigSchema.objects {
      XCTAssert(
        propertyLists.contains(object.names),
        "the JSON Schema lists \(object.title)'s keys \(object.names)")
    }
    // The variants' if/then parts name keys too; every object schema with a type is closed.
    XCTAssertGreaterThanOrEqual(closed, ConfigSchema.objects.count)
    XCTAssertEqual(
      schema[path: "required"], .array(ConfigSchema.effect.required.map(JSONValue.string)))
    XCTAssertEqual(
      schema[path: "$defs", "wind", "properties", "gustPeriod", "default"],
      .number(EmitterConfig().gustPeriod))
    XCTAssertEqual(
      schema[path: "$defs", "cell", "properties", "trail", "maximum"],
      .number(Double(ConfettiParticle.maximumTrail)))
    XCTAssertEqual(
      schema[path: "$defs", "emitter", "properties", "trigger", "enum"],
      .array(EmitterTrigger.allCases.map { .string($0.rawValue) }))
    XCTAssertEqual(
      schema[path: "$defs", "cell", "properties", "fade", "default"], .number(CellConfig().fade))
    XCTAssertEqual(text, ConfigSchema.jsonSchema(), "the same text every time")
    XCTAssert(text.hasSuffix("}\n"))
  }

  func testEveryPresetUsesOnlyKeysTheSchemaLists() throws {
    XCTAssertFalse(Presets.names.isEmpty)
    for name in Presets.names {
      let json = try StrictJSON.parse(try XCTUnwrap(Presets.source(of: name)))
      var checked = 0
      let unknown = Self.unknownKeys(in: json, kind: .object(ConfigSchema.effect), path: "$") {
        checked += 1
      }
      XCTAssertEqual(unknown, [], "Presets/\(name).json")
      XCTAssertGreaterThan(checked, 10, "Presets/\(name).json was walked")
    }
    // The walk finds what it looks for.
    let stray = try StrictJSON.parse(
      #"{"name": "a", "emitters": [{"wind": {"gusts": 1}, "cells": [{"count": 1, "speed": "#
        + #"{"value": 1, "rnage": 2}}]}]}"#)
    XCTAssertEqual(
      Self.unknownKeys(in: stray, kind: .object(ConfigSchema.effect), path: "$") {},
      ["$.emitters[0].wind.gusts", "$.emitters[0].cells[0].speed.rnage"])
  }

  /// The paths of keys in `value` that the schema does not list where they are.
  static func unknownKeys(
    in value: JSONValue, kind: ConfigSchema.Kind, path: String, checked: () -> Void
  ) -> [String] {
    func object(_ object: ConfigSchema.Object) -> [String] {
      guard case .object(let members) = value else { return [] }
      return members.flatMap { member -> [String] in
        checked()
        guard let key = object[member.key] else { return [path + "." + member.key] }
        return unknownKeys(
          in: member.value, kind: key.kind, path: path + "." + member.key, checked: checked)
      }
    }
    switch kind {
    case .object(let schema): return object(schema)
    case .varied: return object(ConfigSchema.varied)
    case .pair: return object(ConfigSchema.pair)
    case .channels: return object(ConfigSchema.channels)
    case .list(let element, _):
      guard case .array(let elements) = value else { return [] }
      return elements.enumerated().flatMap {
        unknownKeys(in: $1, kind: element, path: "\(path)[\($0)]", checked: checked)
      }
    case .either(let kinds):
      let objectKinds = kinds.filter {
        if case .object = $0 { true } else { false }
      }
      guard case .object = value, let first = objectKinds.first else { return [] }
      return unknownKeys(in: value, kind: first, path: path, checked: checked)
    default: return []
    }
  }

  func testTheTablesDefaultsAreTheStructs() {
    XCTAssertEqual(ConfigSchema.wind["gustPeriod"]?.defaultValue, .number(4))
    XCTAssertEqual(EmitterConfig().gustPeriod, 4, "the wind's gust period is finite by default")
    XCTAssertEqual(
      ConfigSchema.wind["gustPeriod"]?.defaultValue, .number(EmitterConfig().gustPeriod))
    XCTAssertEqual(ConfigSchema.wind["gust"]?.defaultValue, .number(EmitterConfig().gustAmplitude))
    XCTAssertEqual(ConfigSchema.cell["fade"]?.defaultValue, .number(CellConfig().fade))
    XCTAssertEqual(ConfigSchema.cell["gravity"]?.defaultValue, .number(ConfettiPhysics.gravity))
    XCTAssertEqual(
      ConfigSchema.cell["flipFrequency"]?.defaultValue,
      .object([("value", .number(4.5)), ("range", .number(1.5))]))
    XCTAssertEqual(ConfigSchema.cell["colors"]?.defaultValue, .array([.string("#ffffff")]))
    XCTAssertEqual(ConfigSchema.emission["duration"]?.defaultValue, .number(3))
    XCTAssertEqual(ConfigSchema.emitter["trigger"]?.defaultValue, .string("start"))
    XCTAssertEqual(
      ConfigSchema.emitter["position"]?.defaultValue,
      .object([("x", .number(0.5)), ("y", .number(0.5))]))
  }

  /// Writing a key's default from the table decodes to what leaving the key out does: the table's
  /// defaults are the decoder's, for every key that has one.
  func testWritingEveryDefaultOutChangesNothing() throws {
    var compared = 0
    for object in [
      ConfigSchema.effect, ConfigSchema.emitter, ConfigSchema.wind, ConfigSchema.emission,
      ConfigSchema.cell,
    ] {
      for key in object.keys {
        guard let value = key.defaultValue,
          let written = Self.configuration(object, key.name, value: Self.text(of: value)),
          let absent = Self.configuration(object, key.name, value: nil)
        else { continue }
        XCTAssertEqual(
          try EffectConfig.decode(written), try EffectConfig.decode(absent),
          "\(object.title).\(key.name): \(written)")
        compared += 1
      }
    }
    XCTAssertGreaterThan(compared, 35)
  }

  /// The decoder's ranges are the table's: each number's ends are accepted and one past the top
  /// is refused with the table's range in the message.
  func testTheDecodersRangesAreTheTables() throws {
    var checked = 0
    for object in [
      ConfigSchema.wind, ConfigSchema.emission, ConfigSchema.emitterShape, ConfigSchema.cell,
    ] {
      for key in object.keys {
        let range: ClosedRange<Double>
        switch key.kind {
        case .number(let r), .varied(let r): range = r
        case .integer(let r): range = Double(r.lowerBound)...Double(r.upperBound)
        default: continue
        }
        for end in [range.lowerBound, range.upperBound] {
          let json = try XCTUnwrap(Self.configuration(object, key.name, value: "\(end)"))
          XCTAssertNoThrow(try EffectConfig.decode(json), json)
        }
        let json = try XCTUnwrap(
          Self.configuration(object, key.name, value: "\(range.upperBound + 1)"))
        XCTAssertThrowsError(try EffectConfig.decode(json), json) { error in
          let message = "\(error)"
          XCTAssert(message.contains(".\(key.name): must be"), message)
          XCTAssert(message.contains(Self.words(range)), "\(message) names \(Self.words(range))")
          if !key.unit.isEmpty { XCTAssert(message.contains("(\(key.unit))"), message) }
        }
        checked += 1
      }
    }
    XCTAssertGreaterThan(checked, 25)
  }

  func testAMisspeltKeyGetsASuggestionAndAFarOffOneDoesNot() {
    let cases: [(json: String, path: String, suggestion: String?)] = [
      (
        #"{"name": "a", "emitters": [{"cells": [{"count": 1, "birthrate": 2}]}]}"#,
        "$.emitters[0].cells[0].birthrate", "birthRate"
      ),
      (
        #"{"name": "a", "emitters": [{"cells": [{"count": 1, "gravty": 2}]}]}"#,
        "$.emitters[0].cells[0].gravty", "gravity"
      ),
      (#"{"name": "a", "emiters": []}"#, "$.emiters", "emitters"),
      (
        #"{"name": "a", "emitters": [{"wind": {"gustPreiod": 2}, "cells": [{"count": 1}]}]}"#,
        "$.emitters[0].wind.gustPreiod", "gustPeriod"
      ),
      (
        #"{"name": "a", "emitters": [{"cells": [{"count": 1, "wobble": 2}]}]}"#,
        "$.emitters[0].cells[0].wobble", nil
      ),
      (
        #"{"name": "a", "emitters": [{"position": {"x": 1, "y": 1, "z": 1}, "cells": [{"count": 1}]}]}"#,
        "$.emitters[0].position.z", nil
      ),
    ]
    for (json, path, suggestion) in cases {
      XCTAssertThrowsError(try EffectConfig.decode(json), json) { error in
        let message = "\(error)"
        XCTAssert(message.hasPrefix("\(path): unknown key"), message)
        XCTAssert(message.contains("allowed here: "), message)
        XCTAssertFalse(message.contains("\n"), message)
        if let suggestion {
          XCTAssert(message.contains("did you mean \"\(suggestion)\"?"), message)
        } else {
          XCTAssertFalse(message.contains("did you mean"), message)
        }
      }
    }
    XCTAssertEqual(ConfigSchema.suggestion(for: "colour", among: ["colors", "shapes"]), nil)
    XCTAssertEqual(ConfigSchema.suggestion(for: "colours", among: ["colors", "shapes"]), "colors")
    XCTAssertEqual(ConfigSchema.suggestion(for: "flpis", among: ["flips", "spin"]), "flips")
  }

  func testACommentGetsTheCommentHintAlone() {
    let inputs = [
      "{\"name\": \"a\",\n  // note\n  \"emitters\": []}",
      "{\"name\": \"a\", /* note */ \"emitters\": []}",
      "{\"name\": \"a\"\n  // note\n}",
    ]
    for json in inputs {
      XCTAssertThrowsError(try EffectConfig.decode(json), json) { error in
        let message = "\(error)"
        XCTAssert(message.contains("(comments are not JSON)"), message)
        XCTAssertFalse(message.contains("trailing comma"), message)
        XCTAssertEqual(message.components(separatedBy: "are not JSON").count, 2, message)
      }
    }
    XCTAssertThrowsError(try EffectConfig.decode("{\"name\": \"a\",\n}")) { error in
      let message = "\(error)"
      XCTAssert(message.contains("line 2, column 1"), message)
      XCTAssert(message.contains("(trailing commas are not JSON)"), message)
      XCTAssertFalse(message.contains("comment"), message)
    }
  }

  func testAnEditorsSchemaKeyIsAllowedAtTheRootOnly() throws {
    let config = try EffectConfig.decode(
      #"{"$schema": "confetti.schema.json", "name": "a", "emitters": [{"cells": [{"count": 1}]}]}"#)
    XCTAssertEqual(config.name, "a")
    XCTAssertThrowsError(
      try EffectConfig.decode(
        #"{"name": "a", "emitters": [{"$schema": "x", "cells": [{"count": 1}]}]}"#)
    ) { XCTAssert("\($0)".contains("$.emitters[0][\"$schema\"]: unknown key"), "\($0)") }
  }

  // MARK: Helpers

  /// A small effect with `key` of `object` set to `value` (JSON text), or left out when nil;
  /// nil when the key cannot be set alone this way.
  static func configuration(_ object: ConfigSchema.Object, _ key: String, value: String?)
    -> String?
  {
    let member = value.map { "\"\(key)\": \($0)" }
    func join(_ parts: String?...) -> String { parts.compactMap { $0 }.joined(separator: ", ") }
    let cell = #"{"count": 1}"#
    switch object.id {
    case "effect":
      guard !object[key]!.required else { return nil }
      return "{" + join(#""name": "a""#, #""emitters": [{"cells": [\#(cell)]}]"#, member) + "}"
    case "emitter":
      guard key != "cells" else { return nil }
      return #"{"name": "a", "emitters": [{"# + join(member, #""cells": [\#(cell)]"#) + "}]}"
    case "wind":
      return #"{"name": "a", "emitters": [{"wind": {"# + join(member)
        + #"}, "cells": [\#(cell)]}]}"#
    case "emission":
      guard key != "mode" else { return nil }
      return #"{"name": "a", "emitters": [{"emission": {"# + join(#""mode": "timed""#, member)
        + #"}, "cells": [{"birthRate": 1}]}]}"#
    case "emitterShape":
      guard let variants = object.variants,
        let chosen = variants.cases.first(where: { $0.required.contains(key) })
      else { return nil }
      let others = chosen.required.filter { $0 != key }.map { "\"\($0)\": 1" }
      let shape = ["\"kind\": \"\(chosen.value)\""] + others + [member].compactMap { $0 }
      return #"{"name": "a", "emitters": [{"shape": {"# + shape.joined(separator: ", ")
        + #"}, "cells": [\#(cell)]}]}"#
    case "cell":
      switch key {
      case "count":
        return #"{"name": "a", "emitters": [{"cells": [{"# + (member ?? "") + "}]}]}"
      case "birthRate":
        return #"{"name": "a", "emitters": [{"emission": {"mode": "continuous"}, "cells": [{"#
          + (member ?? "") + "}]}]}"
      default:
        return #"{"name": "a", "emitters": [{"cells": [{"# + join(#""count": 1"#, member)
          + "}]}]}"
      }
    default:
      return nil
    }
  }

  /// JSON text of a value, as the table's defaults hold them.
  static func text(of value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool(let flag): "\(flag)"
    case .number(let number): "\(number)"
    case .string(let text): "\"\(text)\""
    case .array(let elements): "[" + elements.map(text).joined(separator: ", ") + "]"
    case .object(let members):
      "{" + members.map { "\"\($0.key)\": \(text(of: $0.value))" }.joined(separator: ", ") + "}"
    }
  }

  /// "from 0.01 to 600", as a message writes a range.
  static func words(_ range: ClosedRange<Double>) -> String {
    func number(_ x: Double) -> String {
      x.rounded() == x && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
    return "from \(number(range.lowerBound)) to \(number(range.upperBound))"
  }

  func testEveryReferenceInTheJSONSchemaHasItsDefinition() throws {
    let schema = ConfigSchema.jsonSchema()
    guard case .object(let root) = try StrictJSON.parse(schema),
      case .object(let definitions)? = root.first(where: { $0.key == "$defs" })?.value
    else { return XCTFail("the schema has no $defs") }
    let defined = Set(definitions.map(\.key))
    let references = schema.matches(of: /"\$ref": "#\/\$defs\/(\w+)"/).map { String($0.1) }
    XCTAssertFalse(references.isEmpty)
    for name in references {
      XCTAssert(defined.contains(name), "$ref to \(name), which has no definition")
    }
    // And every object a key holds is in the documentation's list.
    let listed = Set(ConfigSchema.objects.map(\.id))
    for object in ConfigSchema.objects {
      for key in object.keys {
        if case .object(let inner) = key.kind {
          XCTAssert(
            listed.contains(inner.id), "\(object.id).\(key.name): \(inner.id) is not listed")
        }
      }
    }
  }
}

extension JSONValue {
  /// The value at a path of object keys, or nil.
  subscript(path keys: String...) -> JSONValue? {
    var value: JSONValue? = self
    for key in keys {
      guard case .object(let members)? = value else { return nil }
      value = members.first { $0.key == key }?.value
    }
    return value
  }

}
