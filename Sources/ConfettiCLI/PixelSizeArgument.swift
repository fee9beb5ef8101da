import ArgumentParser
import ConfettiGL

/// A size given as WIDTHxHEIGHT, or by name (1080p), on the command line.
extension PixelSize {
  /// `argument` as a size, for an option's `transform:`: one that is not a size is refused
  /// with the forms a size takes, after the parser's "The value '…' is invalid for '--size'".
  static func parsing(argument: String) throws -> PixelSize {
    guard let size = PixelSize(parsing: argument) else {
      throw ValidationError("give \(forms)")
    }
    return size
  }

  /// How an option's help ends when this is its default, as the parser ends it for a value it
  /// parses itself (one with a `transform:` has no default shown).
  var defaultInHelp: String { "(default: \(self))" }
}
