/// A parsed JSON value. Values keep no positions: a syntax error carries its line and column
/// (``JSONSyntaxError``), and the decoder names the place of any other mistake by its JSON path.
public indirect enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  /// Members in the order written (duplicates are a syntax error).
  case object([(key: String, value: JSONValue)])

  public static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): true
    case (.bool(let x), .bool(let y)): x == y
    case (.number(let x), .number(let y)): x == y
    case (.string(let x), .string(let y)): x == y
    case (.array(let x), .array(let y)): x == y
    case (.object(let x), .object(let y)):
      x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: false
    }
  }

  /// What kind of value this is, as an error message names it.
  public var kind: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// A syntax error: what is wrong and where (1-based line and column).
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
  public var line: Int
  public var column: Int
  public var message: String

  public var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict JSON parser (RFC 8259): no trailing commas, no comments, no duplicate keys, no
/// leading zeros, no NaN or Infinity, nothing after the value, nesting at most 64 deep. Unlike
/// JSONDecoder it says where a mistake is.
public struct StrictJSON {
  private let bytes: [UInt8]
  private var index = 0
  private var depth = 0
  static let maximumDepth = 64

  private init(_ text: String) {
    bytes = Array(text.utf8)
  }

  /// Parses `text` as one JSON value.
  public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    var parser = StrictJSON(text)
    parser.skipWhitespace()
    let value = try parser.value()
    parser.skipWhitespace()
    guard parser.index == parser.bytes.count else {
      throw parser.error("unexpected \(parser.describeNext()) after the end of the document")
    }
    return value
  }

  private mutating func value() throws(JSONSyntaxError) -> JSONValue {
    guard index < bytes.count else { throw error("the document ends where a value should be") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    default: throw error("expected a value, found \(describeNext())")
    }
  }

  private mutating func object() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    index += 1
    var members: [(key: String, value: JSONValue)] = []
    var keys = Set<String>()
    skipWhitespace()
    if peek(UInt8(ascii: "}")) {
      index += 1
      depth -= 1
      return .object([])
    }
    while true {
      skipWhitespace()
      guard peek(UInt8(ascii: "\"")) else {
        // Only a '}' after the comma makes it a trailing comma; anything else (a comment, a
        // bare word) is named by describeNext alone, so it gets one hint, the right one.
        throw error(
          members.isEmpty
            ? "expected a key in double quotes, found \(describeNext())"
            : peek(UInt8(ascii: "}"))
              ? "expected a key after ',', found '}' (trailing commas are not JSON)"
              : "expected a key after ',', found \(describeNext())")
      }
      let keyStart = index
      let key = try string()
      guard keys.insert(key).inserted else {
        throw error("duplicate key \"\(printable(key))\"", at: keyStart)
      }
      skipWhitespace()
      guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after \"\(printable(key))\"") }
      index += 1
      skipWhitespace()
      members.append((key, try value()))
      skipWhitespace()
      if peek(UInt8(ascii: ",")) {
        index += 1
        continue
      }
      guard peek(UInt8(ascii: "}")) else {
        throw error("expected ',' or '}' in an object, found \(describeNext())")
      }
      index += 1
      depth -= 1
      return .object(members)
    }
  }

  private mutating func array() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if peek(UInt8(ascii: "]")) {
      index += 1
      depth -= 1
      return .array([])
    }
    while true {
      skipWhitespace()
      if peek(UInt8(ascii: "]")) {
        throw error("expected a value after ',', found ']' (trailing commas are not JSON)")
      }
      elements.append(try value())
      skipWhitespace()
      if peek(UInt8(ascii: ",")) {
        index += 1
        continue
      }
      guard peek(UInt8(ascii: "]")) else {
        throw error("expected ',' or ']' in an array, found \(describeNext())")
      }
      index += 1
      depth -= 1
      return .array(elements)
    }
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    guard depth <= Self.maximumDepth else {
      throw error("nested more than \(Self.maximumDepth) levels deep")
    }
  }

  private mutating func string() throws(JSONSyntaxError) -> String {
    let start = index
    index += 1
    var scalars = String.UnicodeScalarView()
    var run = index  // start of the current run of plain bytes
    func flush(_ end: Int) {
      scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        flush(index)
        index += 1
        return String(scalars)
      }
      if byte < 0x20 {
        throw error("a control character inside a string (write it as an escape such as \\n)")
      }
      if byte == UInt8(ascii: "\\") {
        flush(index)
        scalars.append(try escape())
        run = index
        continue
      }
      index += 1
    }
    throw error("a string that never ends", at: start)
  }

  private mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
    index += 1
    guard index < bytes.count else { throw error("a string that never ends") }
    let byte = bytes[index]
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{8}"
    case UInt8(ascii: "f"): return "\u{c}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let first = try hex4()
      if (0xD800..<0xDC00).contains(first) {
        guard peek(UInt8(ascii: "\\")), index + 1 < bytes.count,
          bytes[index + 1] == UInt8(ascii: "u")
        else { throw error("a lone UTF-16 high surrogate in a \\u escape") }
        index += 2
        let second = try hex4()
        guard (0xDC00..<0xE000).contains(second) else {
          throw error("a UTF-16 high surrogate without its low half")
        }
        return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
      }
      guard let scalar = Unicode.Scalar(first) else {
        throw error("a lone UTF-16 low surrogate in a \\u escape")
      }
      return scalar
    default:
      index -= 1
      throw error("an unknown escape \\\(describeNext())")
    }
  }

  private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard index < bytes.count, let digit = hexDigit(bytes[index]) else {
        throw error("\\u needs four hexadecimal digits")
      }
      value = value * 16 + digit
      index += 1
    }
    return value
  }

  private func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  private mutating func number() throws(JSONSyntaxError) -> Double {
    let start = index
    if peek(UInt8(ascii: "-")) { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else {
      throw error("a '-' must be followed by digits")
    }
    if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, isDigit(bytes[index + 1]) {
      throw error("a number cannot start with 0 (leading zeros are not JSON)")
    }
    digits()
    if peek(UInt8(ascii: ".")) {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw error("a '.' in a number must be followed by digits")
      }
      digits()
    }
    if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
      index += 1
      if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw error("an exponent needs digits")
      }
      digits()
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw error("the number \(text) is too large", at: start)
    }
    return value
  }

  private mutating func digits() {
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private mutating func literal(_ word: String) throws(JSONSyntaxError) {
    let expected = Array(word.utf8)
    guard bytes.count - index >= expected.count,
      Array(bytes[index..<(index + expected.count)]) == expected
    else { throw error("expected a value, found \(describeNext())") }
    index += expected.count
  }

  private func peek(_ byte: UInt8) -> Bool {
    index < bytes.count && bytes[index] == byte
  }

  private mutating func skipWhitespace() {
    while index < bytes.count,
      [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(
        bytes[index])
    {
      index += 1
    }
  }

  /// The next character, quoted, or "the end".
  private func describeNext() -> String {
    guard index < bytes.count else { return "the end of the document" }
    let rest = String(decoding: bytes[index..<min(bytes.count, index + 4)], as: UTF8.self)
    guard let character = rest.first else { return "a byte that is not UTF-8" }
    if character == "/" { return "'/' (comments are not JSON)" }
    return character.isNewline ? "a line break" : "'\(printable(String(character)))'"
  }

  private func error(_ message: String, at position: Int? = nil) -> JSONSyntaxError {
    let position = min(position ?? index, bytes.count)
    var line = 1
    var lineStart = 0
    for offset in 0..<position where bytes[offset] == UInt8(ascii: "\n") {
      line += 1
      lineStart = offset + 1
    }
    let column = String(decoding: bytes[lineStart..<position], as: UTF8.self).count + 1
    return JSONSyntaxError(line: line, column: column, message: message)
  }
}

// MARK: - Writing

extension JSONValue {
  /// How ``text(_:)`` lays JSON out.
  package enum Layout: Sendable {
    /// Two spaces a level, an array of plain values on one line: for a person to read (the
    /// schema, a render's records description).
    case indented
    /// One line, a space after each `:` and `,`: for a program that reads a line
    /// (`confetti bench --json`).
    case oneLine
  }

  /// This value as JSON text laid out as `layout`, members in their order
  /// (``sortedByKey`` orders them). The package's one JSON writer: the schema, a render's
  /// records description and the bench's report are all written by it. Numbers are written
  /// as short as they read back exactly, whole ones with no decimal point.
  ///
  /// - Throws: ``JSONWriteError`` for a number that JSON cannot hold (NaN, an infinity).
  package func text(_ layout: Layout) throws(JSONWriteError) -> String {
    if let unwritable = firstNonFinite(at: "$") { throw unwritable }
    return switch layout {
    case .indented: prettyText()
    case .oneLine: compactText
    }
  }

  /// The same value with the members of every object, at every depth, in the order of their
  /// keys' UTF-8 bytes.
  package var sortedByKey: JSONValue {
    switch self {
    case .array(let elements): .array(elements.map(\.sortedByKey))
    case .object(let members):
      .object(
        members.map { (key: $0.key, value: $0.value.sortedByKey) }
          .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
    default: self
    }
  }

  /// The first number JSON cannot hold, found depth first from here, at `path` (a JSON path).
  private func firstNonFinite(at path: String) -> JSONWriteError? {
    switch self {
    case .number(let number) where !number.isFinite:
      return JSONWriteError(number: number, path: path)
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        if let found = element.firstNonFinite(at: "\(path)[\(index)]") { return found }
      }
    case .object(let members):
      for member in members {
        if let found = member.value.firstNonFinite(at: "\(path).\(member.key)") { return found }
      }
    default: break
    }
    return nil
  }
}

/// A value that JSON cannot hold, found as it was about to be written.
package struct JSONWriteError: Error, CustomStringConvertible {
  /// The number: NaN or an infinity.
  package var number: Double
  /// Where it is in the value, as a JSON path (`$.uniforms[3].values[0]`).
  package var path: String

  /// What cannot be written, and where.
  package var description: String { "JSON has no number \(number) (at \(path))" }
}
