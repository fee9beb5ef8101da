/// `text` fit for one line of a terminal or a C host's log: what a user cannot see or that would
/// break the line — control characters (a newline, an escape), format characters (zero-width
/// spaces, byte-order marks, tags, direction overrides), line and paragraph separators, private
/// and unassigned code points — written as escapes (`\n`, `\t`, `\u{2028}`); and a text over
/// 2,000 characters keeps its start and end around "…".
package func oneLine(_ text: String) -> String {
  var shown = ""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\n": shown += "\\n"
    case "\t": shown += "\\t"
    case _ where isInvisible(scalar):
      shown += "\\u{\(String(scalar.value, radix: 16))}"
    default: shown.unicodeScalars.append(scalar)
    }
  }
  let longest = 2000
  guard shown.count > longest else { return shown }
  return String(shown.prefix(longest / 2)) + " … " + String(shown.suffix(longest / 2))
}

/// Whether `scalar` shows nothing of its own, or breaks a line, where a message echoes it:
/// besides the categories above, every default-ignorable code point (a Hangul filler, a
/// combining grapheme joiner) and every space but the plain one (a no-break space would read as
/// a legal one).
package func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
  if scalar.properties.isDefaultIgnorableCodePoint { return true }
  switch scalar.properties.generalCategory {
  case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned,
    .surrogate:
    return true
  case .spaceSeparator: return scalar != " "
  default: return false
  }
}
