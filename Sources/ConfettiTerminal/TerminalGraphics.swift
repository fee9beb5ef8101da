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

  /// The same questions without kitty's, for terminals that would print it (the Linux console).
  public static let queryWithoutKitty: [UInt8] = Array(
    "\u{1B}[14t\u{1B}]11;?\u{1B}\\\u{1B}[c".utf8)

  /// Asked of a terminal that draws sixels, once it said so: the largest sixel picture it
  /// shows (XTSMGRAPHICS), then the device attributes again, the end of the reply. (Not asked
  /// of others: kitty logs it as a parse error.)
  public static let sixelQuery: [UInt8] = Array("\u{1B}[?2;4;0S\u{1B}[c".utf8)

  /// Where a string sequence (after ESC _ or ESC ]) whose text starts at `start` ends: its
  /// terminator (BEL, or ESC \) and the index after it; nil where none has come yet.
  static func stringEnd(in bytes: [UInt8], from start: Int) -> (end: Int, next: Int)? {
    for end in start..<max(start, bytes.count) {
      if bytes[end] == 0x07 { return (end, end + 1) }
      if bytes[end] == 0x1B, end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "\\") {
        return (end, end + 2)
      }
    }
    return nil
  }

  /// Where a control sequence (after ESC [) whose parameters start at `start` ends: its final
  /// byte, from @ to ~; nil where none has come yet.
  static func finalByte(in bytes: [UInt8], from start: Int) -> Int? {
    bytes.indices.dropFirst(start).first { (0x40...0x7E).contains(bytes[$0]) }
  }

  /// Splits `bytes` read while replies were still owed (the terminal answered after confetti
  /// stopped waiting: a slow link) into the replies, the keys typed among them, and what may
  /// be a reply begun but not yet whole (to be read again with what follows, or taken for keys
  /// if nothing follows soon). `answered` counts the device attributes among the replies: each
  /// ends one round of questions.
  static func lateReplies(in bytes: [UInt8]) -> (answered: Int, keys: [UInt8], rest: [UInt8]) {
    let escape: UInt8 = 0x1B
    var (answered, keys, index) = (0, [UInt8](), 0)
    while index < bytes.count {
      guard bytes[index] == escape else {
        keys.append(bytes[index])
        index += 1
        continue
      }
      // An ESC at the end: a reply's start, or the Esc key (the reader tells by what follows).
      guard index + 1 < bytes.count else { return (answered, keys, [escape]) }
      let kind = bytes[index + 1]
      if kind == UInt8(ascii: "_") || kind == UInt8(ascii: "]") {
        // A string reply (kitty's, the background colour).
        guard let (_, next) = stringEnd(in: bytes, from: index + 2) else {
          return (answered, keys, Array(bytes[index...]))
        }
        index = next
      } else if kind == UInt8(ascii: "[") {
        guard let end = finalByte(in: bytes, from: index + 2) else {
          return (answered, keys, Array(bytes[index...]))
        }
        let (parameters, final) = (bytes[(index + 2)..<end], Character(Unicode.Scalar(bytes[end])))
        // The device attributes, the largest sixel picture, the text area's size.
        let isReply =
          (parameters.first == UInt8(ascii: "?") && (final == "c" || final == "S"))
          || (final == "t" && parameters.starts(with: Array("4;".utf8)))
        if isReply {
          if final == "c" { answered += 1 }
        } else {
          keys += bytes[index...end]  // an arrow or function key
        }
        index = end + 1
      } else {
        keys.append(bytes[index])
        index += 1
      }
    }
    return (answered, keys, [])
  }

  /// Reads the replies in `bytes` (and whatever else is there: keys typed meanwhile).
  public static func parse(_ bytes: [UInt8]) -> TerminalReplies {
    var replies = TerminalReplies()
    let escape: UInt8 = 0x1B
    var index = 0
    /// The text of the string sequence from `start` up to its terminator, and the index after it.
    func string(from start: Int) -> (text: [UInt8], next: Int)? {
      stringEnd(in: bytes, from: start).map { (Array(bytes[start..<$0.end]), $0.next) }
    }
    while index + 1 < bytes.count {
      guard bytes[index] == escape else {
        index += 1
        continue
      }
      let kind = bytes[index + 1]
      if kind == UInt8(ascii: "_"), let (text, next) = string(from: index + 2) {
        let reply = String(decoding: text, as: UTF8.self)
        if reply.hasPrefix("Gi=31;") && reply.hasSuffix("OK") { replies.kittyGraphics = true }
        index = next
      } else if kind == UInt8(ascii: "]"), let (text, next) = string(from: index + 2) {
        let reply = String(decoding: text, as: UTF8.self)
        if reply.hasPrefix("11;rgb:") { replies.background = colour(reply.dropFirst(7)) }
        index = next
      } else if kind == UInt8(ascii: "[") {
        // A control sequence: parameters, then a final byte.
        guard let end = finalByte(in: bytes, from: index + 2) else { break }
        let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        switch bytes[end] {
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
        index = end + 1
      } else {
        index += 1
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
    let multiplexed =
      !(environment["TMUX"] ?? "").isEmpty || term.hasPrefix("screen") || term.hasPrefix("tmux")
    var graphics = TerminalGraphics.cells
    if let forced {
      graphics = forced
    } else if !noColor && !multiplexed {
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
