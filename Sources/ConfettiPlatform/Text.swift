import Glibc

/// The C locale, made once: numbers with a point, whatever a host set.
nonisolated(unsafe) private let cLocale = newlocale(1 << LC_NUMERIC, "C", nil)

extension String {
  /// `format` filled in as C's `printf` does (`%.2f`, `%g`, `%02X`, `%ld`), in the C locale
  /// whatever the process's (a host's `setlocale` would write `0,6`), and without Foundation's
  /// formatting, which brings ICU.
  package init(formatting format: String, _ arguments: any CVarArg...) {
    self = Self.printed(format, arguments)
  }

  private static func printed(_ format: String, _ arguments: [any CVarArg]) -> String {
    let previous = uselocale(cLocale)
    defer { uselocale(previous) }
    let length = Int(withVaList(arguments) { vsnprintf(nil, 0, format, $0) })
    guard length > 0 else { return "" }
    var bytes = [CChar](repeating: 0, count: length + 1)
    _ = withVaList(arguments) { vsnprintf(&bytes, length + 1, format, $0) }
    return String(decoding: bytes.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

extension StringProtocol {
  /// The text without the white space (spaces, tabs, line ends) at either end.
  package var trimmed: String {
    guard let first = firstIndex(where: { !$0.isWhitespace }),
      let last = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[first...last])
  }
}
