import Glibc

/// The program's own arguments, as the system gave them, checked before any parser reads them.
package enum ProgramArguments {
  /// Why the program's arguments are refused before they are parsed, in one line; nil when
  /// they are not: more than `most` of them (a parser's time can grow with the square of their
  /// count, and thousands would hang it), or one that is not UTF-8.
  package static func refusal(most: Int) -> String? {
    let count = CommandLine.arguments.count - 1
    guard count <= most else {
      return "\(count) arguments are too many: at most \(most)"
    }
    return notUTF8()
  }

  /// Says which argument is not UTF-8, if one is: Swift would read it with its bad bytes
  /// replaced, and a file name so changed names another file, or none.
  package static func notUTF8() -> String? {
    for index in 1..<Int(CommandLine.argc) {
      guard let argument = CommandLine.unsafeArgv[index] else { continue }
      let bytes = UnsafeBufferPointer(start: argument, count: strlen(argument))
        .map { UInt8(bitPattern: $0) }
      guard String(validating: bytes, as: UTF8.self) == nil else { continue }
      let shown = bytes.map {
        (0x20..<0x7F).contains($0)
          ? String(UnicodeScalar($0)) : String(formatting: "\\x%02X", $0)
      }
      return "argument \(index) (\(shown.joined())) is not UTF-8 text: give names and values "
        + "in UTF-8 (rename the file if need be)"
    }
    return nil
  }
}
