import ConfettiCore
import ConfettiGL

/// How a celebration is drawn in a terminal.
public enum TerminalGraphics: String, CaseIterable, Sendable {
  /// kitty's graphics protocol (kitty, WezTerm, Ghostty, Konsole): a picture a frame.
  case kitty
  /// Sixel pictures (foot, `xterm -ti vt340`, mlterm, WezTerm, Windows Terminal).
  case sixel
  /// Coloured Unicode block characters (half blocks, quadrants): any terminal.
  case cells
}

/// The colours a terminal's character cells are drawn in.
public enum TerminalColors: String, Sendable {
  /// 24-bit colour (`COLORTERM=truecolor`).
  case direct
  /// The 256-colour palette (`TERM=…-256color`).
  case indexed256
  /// The 16 colours every colour terminal has.
  case indexed16
  /// None: the terminal's own foreground on its background (`NO_COLOR`).
  case none
}

/// What a terminal answered to ``TerminalReplies/query``: its graphics, its text area's size in
/// pixels and its background colour. Read by ``parse(_:)``; a terminal that does not know a
/// question leaves it unanswered.
public struct TerminalReplies: Sendable, Equatable {
  /// kitty's graphics protocol answered its query (`ESC _ G i=31 ; OK ESC \`).
  public var kittyGraphics = false
  /// The primary device attributes list 4: sixel graphics.
  public var sixel = false
  /// The primary device attributes came back: the terminal answered every question before it.
  public var answered = false
  /// The text area's size in pixels (`ESC [ 4 ; height ; width t`).
  public var textArea: PixelSize?
  /// The largest sixel picture the terminal shows, in pixels (xterm's XTSMGRAPHICS:
  /// `ESC [ ? 2 ; 0 ; width ; height S`); xterm shows nothing of a bigger one.
  public var largestSixels: PixelSize?
  /// The default background colour (`ESC ] 11 ; rgb:RRRR/GGGG/BBBB`).
  public var background: RGBA8?

  /// No reply at all: a terminal that answered nothing.
  public init() {}

  /// The questions, in one write: kitty's graphics query (a 1×1 picture it only checks), the
  /// text area's size, the background colour, and last the primary device attributes, which
  /// every terminal answers, after the others it answers: the end of the replies.
  public static let query: [UInt8] = kittyQuery + queryWithoutKitty

  /// kitty's graphics query.
  static let kittyQuery = Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8)

  /// The same questions without kitty's, for terminals that would print it (the Linux console)
  /// or take it for a title (tmux, screen).
  public static let queryWithoutKitty: [UInt8] = Array(
    "\u{1B}[14t\u{1B}]11;?\u{1B}\\\u{1B}[c".utf8)

  /// Asked of a terminal that draws sixels, once it said so: the largest sixel picture it
  /// shows (XTSMGRAPHICS), then the device attributes again, the end of the reply. (Not asked
  /// of others: kitty logs it as a parse error.)
  public static let sixelQuery: [UInt8] = Array("\u{1B}[?2;4;0S\u{1B}[c".utf8)

  /// What begins at an ESC in bytes read from a terminal.
  enum Sequence: Equatable {
    /// A whole control sequence (ESC [, parameters, a final byte): a reply, or a key's (an
    /// arrow's).
    case control(parameters: Range<Int>, final: UInt8, next: Int)
    /// A whole string reply, up to its terminator (BEL, or ESC \): the background colour's
    /// (ESC ] 11;) or kitty's (ESC _ G).
    case string(text: Range<Int>, next: Int)
    /// Keys, up to `next`: the Esc key, or an Alt key's ESC (its key follows), or a sequence
    /// cut short by another ESC or a control byte (Alt-[ typed ahead of a reply).
    case keys(next: Int)
    /// The start of a sequence whose rest has not come yet.
    case incomplete
  }

  /// The string replies' openings after ESC ] and ESC _: only these are replies.
  static let stringOpenings: [UInt8: [UInt8]] = [
    UInt8(ascii: "]"): Array("11;".utf8), UInt8(ascii: "_"): Array("G".utf8),
  ]

  /// What begins at `index`, an ESC in `bytes` (``Sequence``).
  static func sequence(in bytes: [UInt8], at index: Int) -> Sequence {
    let (escape, bell) = (UInt8(0x1B), UInt8(0x07))
    guard index + 1 < bytes.count else { return .incomplete }
    let kind = bytes[index + 1]
    let start = index + 2
    if kind == UInt8(ascii: "[") {
      for at in start..<max(start, bytes.count) {
        switch bytes[at] {
        case 0x40...0x7E: return .control(parameters: start..<at, final: bytes[at], next: at + 1)
        case 0x20...0x3F: continue
        default: return .keys(next: at)
        }
      }
      return .incomplete
    }
    guard let opening = stringOpenings[kind] else { return .keys(next: index + 1) }
    for (offset, byte) in opening.enumerated() {
      guard start + offset < bytes.count else { return .incomplete }
      if bytes[start + offset] != byte { return .keys(next: index + 1) }
    }
    for at in start..<max(start, bytes.count) {
      switch bytes[at] {
      case bell: return .string(text: start..<at, next: at + 1)
      case escape:
        guard at + 1 < bytes.count else { return .incomplete }
        return bytes[at + 1] == UInt8(ascii: "\\")
          ? .string(text: start..<at, next: at + 2) : .keys(next: at)
      case 0x00..<0x20: return .keys(next: at)
      default: continue
      }
    }
    return .incomplete
  }

  /// Splits `bytes` read while replies were still owed (the terminal answered after confetti
  /// stopped waiting: a slow link) into the replies, the keys typed among them, and what may
  /// be a reply begun but not yet whole (to be read again with what follows, or taken for keys
  /// if nothing follows soon). `answered` counts the device attributes among the replies: each
  /// ends one round of questions.
  static func lateReplies(in bytes: [UInt8]) -> (answered: Int, keys: [UInt8], rest: [UInt8]) {
    var (answered, keys, index) = (0, [UInt8](), 0)
    while index < bytes.count {
      guard bytes[index] == 0x1B else {
        keys.append(bytes[index])
        index += 1
        continue
      }
      switch sequence(in: bytes, at: index) {
      case .incomplete:
        // (An ESC at the end: a reply's start, or the Esc key; the reader tells by what
        // follows, and how soon.)
        return (answered, keys, Array(bytes[index...]))
      case .keys(let next):
        keys += bytes[index..<next]
        index = next
      case .string(_, let next):
        index = next
      case .control(let parameters, let final, let next):
        // The device attributes, the largest sixel picture, the text area's size.
        let isReply =
          (bytes[parameters].first == UInt8(ascii: "?")
            && (final == UInt8(ascii: "c") || final == UInt8(ascii: "S")))
          || (final == UInt8(ascii: "t") && bytes[parameters].starts(with: Array("4;".utf8)))
        if !isReply {
          keys += bytes[index..<next]  // an arrow or function key
        } else if final == UInt8(ascii: "c") {
          answered += 1
        }
        index = next
      }
    }
    return (answered, keys, [])
  }

  /// Reads the replies in `bytes` (and whatever else is there: keys typed meanwhile).
  public static func parse(_ bytes: [UInt8]) -> TerminalReplies {
    var replies = TerminalReplies()
    var index = 0
    scanning: while index + 1 < bytes.count {
      guard bytes[index] == 0x1B else {
        index += 1
        continue
      }
      switch sequence(in: bytes, at: index) {
      case .incomplete: break scanning
      case .keys(let next): index = next
      case .string(let text, let next):
        let reply = String(decoding: bytes[text], as: UTF8.self)
        if reply.hasPrefix("Gi=31;") && reply.hasSuffix("OK") { replies.kittyGraphics = true }
        if reply.hasPrefix("11;rgb:") { replies.background = colour(reply.dropFirst(7)) }
        index = next
      case .control(let range, let final, let next):
        let parameters = String(decoding: bytes[range], as: UTF8.self)
        switch final {
        case UInt8(ascii: "c") where parameters.hasPrefix("?"):
          replies.answered = true
          replies.sixel = parameters.dropFirst().split(separator: ";").contains("4")
        case UInt8(ascii: "S") where parameters.hasPrefix("?"):
          // XTSMGRAPHICS: item 2 (sixel geometry), status 0 (success), width, height.
          let numbers = parameters.dropFirst().split(separator: ";").map { Int($0) }
          if numbers.count == 4, numbers[0] == 2, numbers[1] == 0, let width = numbers[2],
            let height = numbers[3], width > 0, height > 0
          {
            replies.largestSixels = PixelSize(width: width, height: height)
          }
        case UInt8(ascii: "t"):
          let numbers = parameters.split(separator: ";").map { Int($0) }
          if numbers.count == 3, numbers[0] == 4, let height = numbers[1], let width = numbers[2],
            width > 0, height > 0
          {
            replies.textArea = PixelSize(width: width, height: height)
          }
        default: break
        }
        index = next
      }
    }
    return replies
  }

  /// `RRRR/GGGG/BBBB`, each of 1 to 4 hexadecimal digits, as an opaque colour.
  static func colour(_ text: Substring) -> RGBA8? {
    let parts = text.split(separator: "/")
    guard parts.count == 3 else { return nil }
    var channels: [UInt8] = []
    for part in parts {
      guard (1...4).contains(part.count), let value = UInt32(part, radix: 16) else { return nil }
      let most = Double((1 << (4 * part.count)) - 1)
      channels.append(UInt8((Double(value) / most * 255).rounded()))
    }
    return RGBA8(red: channels[0], green: channels[1], blue: channels[2], alpha: 255)
  }
}

/// How to draw in a terminal: its graphics and its cells' colours.
public struct TerminalChoice: Sendable, Equatable {
  /// Pictures (kitty's, sixels) or cells.
  public var graphics: TerminalGraphics
  /// The cells' colours (pictures are in full colour whatever this says).
  public var colors: TerminalColors

  /// A choice of `graphics` with cells in `colors`.
  public init(graphics: TerminalGraphics, colors: TerminalColors) {
    (self.graphics, self.colors) = (graphics, colors)
  }

  /// Whether `environment` is inside tmux or screen, which pass pictures on unreliably and take
  /// kitty's graphics query for a title.
  public static func isMultiplexer(_ environment: [String: String]) -> Bool {
    let term = environment["TERM"] ?? ""
    return !(environment["TMUX"] ?? "").isEmpty || !(environment["STY"] ?? "").isEmpty
      || term.hasPrefix("screen") || term.hasPrefix("tmux")
  }

  /// What to draw with in the terminal `environment` describes (TERM, COLORTERM, NO_COLOR,
  /// TMUX) and that gave `replies`: the graphics asked for (`forced`), else kitty's where it
  /// answered, else sixels where it has them, else cells; never pictures inside tmux or
  /// screen, which pass them on unreliably. Cells in 24-bit colour where COLORTERM or the
  /// terminal says so, 256 where TERM does, else 16; with `NO_COLOR` set (and not empty),
  /// cells in no colour unless pictures were asked for.
  public static func choose(
    environment: [String: String], replies: TerminalReplies, forced: TerminalGraphics? = nil
  ) -> TerminalChoice {
    let term = environment["TERM"] ?? ""
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    var graphics = TerminalGraphics.cells
    if let forced {
      graphics = forced
    } else if !noColor && !isMultiplexer(environment) {
      if replies.kittyGraphics {
        graphics = .kitty
      } else if replies.sixel {
        graphics = .sixel
      }
    }
    let colorterm = (environment["COLORTERM"] ?? "").lowercased()
    let directTerminals = ["xterm-kitty", "foot", "foot-extra", "wezterm", "alacritty", "contour"]
    let colors: TerminalColors =
      if noColor {
        .none
      } else if colorterm == "truecolor" || colorterm == "24bit" || term.hasSuffix("-direct")
        || directTerminals.contains(term) || environment["KITTY_WINDOW_ID"] != nil
      {
        .direct
      } else if term.contains("256") {
        .indexed256
      } else {
        .indexed16
      }
    return TerminalChoice(graphics: graphics, colors: colors)
  }

  /// Whether `environment`'s terminal can be drawn in at all: a TERM that is set and not
  /// `dumb` (an editor's shell, a pipe's log).
  public static func canDraw(in environment: [String: String]) -> Bool {
    let term = environment["TERM"] ?? ""
    return !term.isEmpty && term != "dumb"
  }
}
