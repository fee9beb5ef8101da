import CChafa
import ConfettiCore
import ConfettiGL
import ConfettiImage
import ConfettiTestSupport
import XCTest

@testable import ConfettiTerminal

/// How a terminal's replies are read and what is drawn with, from its replies and environment.
final class TerminalGraphicsTests: XCTestCase {
  private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  func testEveryReplyIsReadWhateverComesAroundIt() {
    // kitty: its graphics, its text area, its background (ST-terminated), the attributes.
    let kitty = TerminalReplies.parse(
      bytes(
        "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[4;493;800t\u{1B}]11;rgb:1010/1414/1818\u{1B}\\\u{1B}[?62;c"))
    XCTAssertTrue(kitty.kittyGraphics)
    XCTAssertFalse(kitty.sixel)
    XCTAssertTrue(kitty.answered)
    XCTAssertEqual(kitty.textArea, PixelSize(width: 800, height: 493))
    XCTAssertEqual(kitty.background, RGBA8(red: 16, green: 20, blue: 24))

    // xterm as a VT340: sixels (4 among the attributes), a BEL-terminated two-digit colour, a
    // key typed meanwhile, and no text area (its window operations are off).
    let xterm = TerminalReplies.parse(
      bytes("q\u{1B}]11;rgb:ff/80/00\u{7}\u{1B}[?63;1;2;4;6;9;15;22c"))
    XCTAssertFalse(xterm.kittyGraphics)
    XCTAssertTrue(xterm.sixel)
    XCTAssertNil(xterm.textArea)
    XCTAssertEqual(xterm.background, RGBA8(red: 255, green: 128, blue: 0))

    // A kitty error, a 14 (not 4) attribute, cut-off and malformed replies: nothing claimed.
    let wrong = TerminalReplies.parse(
      bytes(
        "\u{1B}_Gi=31;ENOTSUPPORTED\u{1B}\\\u{1B}[4;0;0t\u{1B}]11;rgb:zz/00/00\u{7}\u{1B}[?14;64c\u{1B}[4;20"
      ))
    XCTAssertEqual(wrong.kittyGraphics || wrong.sixel, false)
    XCTAssertTrue(wrong.answered)
    XCTAssertNil(wrong.textArea)
    XCTAssertNil(wrong.background)

    // Silence: nothing answered.
    XCTAssertEqual(TerminalReplies.parse([]), TerminalReplies())
  }

  func testRepliesThatComeLateAreToldFromKeys() {
    // Every reply a round brings, an arrow key and a q among them, and the next round's reply
    // cut off where the read ended.
    let late = TerminalReplies.lateReplies(
      in: bytes(
        "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[4;493;800t\u{1B}[Aq\u{1B}]11;rgb:10/14/18\u{7}"
          + "\u{1B}[?63;4c\u{1B}[?2;0;1000;1000S\u{1B}[?6"))
    XCTAssertEqual(late.answered, 1)
    XCTAssertEqual(late.keys, bytes("\u{1B}[Aq"))
    XCTAssertEqual(late.rest, bytes("\u{1B}[?6"))
    // The rest, read again with what followed: the round's end.
    let next = TerminalReplies.lateReplies(in: late.rest + bytes("3;4c"))
    XCTAssertEqual(next.answered, 1)
    XCTAssertEqual(next.keys, [])
    XCTAssertEqual(next.rest, [])
    // A cut string reply waits for its end, and so does an ESC at the end (the Esc key, or a
    // reply's first byte: the reader tells by the time the next takes); Alt-x is keys.
    XCTAssertEqual(TerminalReplies.lateReplies(in: bytes("\u{1B}]11;rgb:1")).rest.count, 10)
    XCTAssertEqual(TerminalReplies.lateReplies(in: bytes("q\u{1B}")).keys, bytes("q"))
    XCTAssertEqual(TerminalReplies.lateReplies(in: bytes("q\u{1B}")).rest, [0x1B])
    XCTAssertEqual(TerminalReplies.lateReplies(in: bytes("\u{1B}x")).keys, bytes("\u{1B}x"))
  }

  /// Keys typed ahead of the replies (Ctrl-D among them, typed while the terminal still edited
  /// lines), and keys typed after the replies came (Ctrl-U among them), are given back in the
  /// order typed, and read as the terminal's settings read keys: lines, Ctrl-D ending one,
  /// Ctrl-U erasing one.
  func testKeysTypedAheadAreGivenBackInTheOrderTyped() throws {
    XCTAssertEqual(try givenBack(typedAhead: "ab\u{4}", typedSince: "x\u{15}cd\n"), ["ab", "cd\n"])
    // Keys pressed while it drew, with none typed ahead: one line, not the first key alone.
    XCTAssertEqual(try givenBack(typedAhead: "", typedSince: "x\u{15}cd\n"), ["cd\n"])
  }

  /// What a program reading lines from a terminal reads after a screen there asked it
  /// questions (its reply typed back at once) and was left, with `typedAhead` typed before the
  /// screen took the terminal and `typedSince` after the reply came.
  func givenBack(typedAhead: String, typedSince: String) throws -> [String] {
    var (master, slave): (Int32, Int32) = (-1, -1)
    guard openpty(&master, &slave, nil, nil, nil) == 0 else {
      throw TestFailure("no pseudo-terminal: \(String(cString: strerror(errno)))")
    }
    defer { _ = (close(master), close(slave)) }
    func type(_ text: String) { _ = write(master, Array(text.utf8), text.utf8.count) }
    // Putting keys back (TIOCSTI) in a terminal not its own takes CAP_SYS_ADMIN; CI has it.
    var probe = UInt8(ascii: "\n")
    guard ioctl(slave, UInt(TIOCSTI), &probe) == 0 else {
      throw unavailable("cannot put keys back in a terminal of its own making (TIOCSTI)")
    }
    var line = [UInt8](repeating: 0, count: 64)
    _ = read(slave, &line, line.count)  // the probe's empty line

    var waiting = pollfd(fd: slave, events: Int16(POLLIN), revents: 0)
    if !typedAhead.isEmpty {
      type(typedAhead)
      XCTAssertEqual(poll(&waiting, 1, 5000), 1, "the line typed ahead")
    }
    let screen = TerminalScreen(input: slave, output: slave)
    screen.enter()
    type("\u{1B}[?63;4c")  // the terminal's reply
    XCTAssert(screen.ask(Array("\u{1B}[c".utf8), timeout: 5).answered)
    XCTAssertEqual(screen.keyWaiting(within: 0), !typedAhead.isEmpty, "keys typed ahead")
    type(typedSince)
    XCTAssertEqual(poll(&waiting, 1, 5000), 1, "the keys typed since reached the terminal")
    XCTAssert(screen.keyWaiting(within: 0), "keys typed are keys pressed")
    screen.leave()

    var lines: [String] = []
    while poll(&waiting, 1, lines.isEmpty ? 5000 : 100) == 1 {
      let count = read(slave, &line, line.count)
      guard count > 0 else { break }
      lines.append(String(decoding: line[0..<count], as: UTF8.self))
    }
    return lines
  }

  /// Keys typed ahead of the replies that look like a reply's start (Alt-[, Alt-], Alt-_, an
  /// ESC [ cut short) are keys, and the replies after them are still replies.
  func testKeysLikeARepliesStartDoNotSwallowTheReplies() {
    let reply = "\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}[?1;2c"
    for typed in ["abc\u{1B}[", "\u{1B}]", "\u{1B}_", "\u{1B}[1;", "\u{1B}]11", "\u{1B}]1x"] {
      let late = TerminalReplies.lateReplies(in: bytes(typed + reply))
      XCTAssertEqual(late.answered, 1, typed.debugDescription)
      XCTAssertEqual(late.keys, bytes(typed), typed.debugDescription)
      XCTAssertEqual(late.rest, [], typed.debugDescription)
      let parsed = TerminalReplies.parse(bytes(typed + reply))
      XCTAssert(parsed.answered, typed.debugDescription)
      XCTAssertEqual(parsed.background, RGBA8(red: 255, green: 255, blue: 255, alpha: 255))
    }
    // A control byte inside a string or a control sequence ends it as keys.
    for typed in ["\u{1B}]11;a\rb", "\u{1B}[1\tq"] {
      XCTAssertEqual(TerminalReplies.lateReplies(in: bytes(typed)).keys, bytes(typed))
    }
  }

  func testTheChoiceFollowsTheTerminalAndTheUser() {
    var kitty = TerminalReplies()
    kitty.kittyGraphics = true
    kitty.sixel = true
    var sixel = TerminalReplies()
    sixel.sixel = true
    let plain = TerminalReplies()
    func choose(
      _ environment: [String: String], _ replies: TerminalReplies,
      forced: TerminalGraphics? = nil
    ) -> TerminalChoice {
      TerminalChoice.choose(environment: environment, replies: replies, forced: forced)
    }
    let kittyTerm = ["TERM": "xterm-kitty"]
    XCTAssertEqual(choose(kittyTerm, kitty), TerminalChoice(graphics: .kitty, colors: .direct))
    XCTAssertEqual(
      choose(["TERM": "xterm-256color"], sixel),
      TerminalChoice(graphics: .sixel, colors: .indexed256))
    XCTAssertEqual(
      choose(["TERM": "xterm-256color", "COLORTERM": "truecolor"], plain),
      TerminalChoice(graphics: .cells, colors: .direct))
    XCTAssertEqual(
      choose(["TERM": "xterm"], plain), TerminalChoice(graphics: .cells, colors: .indexed16))
    XCTAssertEqual(choose(["TERM": "linux"], plain).colors, .indexed16)
    // tmux and screen: cells, whatever passes their replies on.
    XCTAssertEqual(choose(["TERM": "tmux-256color", "TMUX": "/tmp/x,1,0"], kitty).graphics, .cells)
    XCTAssertEqual(choose(["TERM": "screen"], sixel).graphics, .cells)
    // NO_COLOR: cells in the terminal's own colours; empty, it says nothing.
    XCTAssertEqual(
      choose(["TERM": "xterm-kitty", "NO_COLOR": "1"], kitty),
      TerminalChoice(graphics: .cells, colors: .none))
    XCTAssertEqual(choose(["TERM": "xterm-kitty", "NO_COLOR": ""], kitty).graphics, .kitty)
    // What the user asks for wins.
    XCTAssertEqual(choose(kittyTerm, kitty, forced: .cells).graphics, .cells)
    XCTAssertEqual(choose(["TERM": "xterm"], plain, forced: .sixel).graphics, .sixel)
    XCTAssertEqual(
      choose(["TERM": "xterm", "NO_COLOR": "1"], plain, forced: .kitty).graphics, .kitty)

    XCTAssertTrue(TerminalChoice.canDraw(in: ["TERM": "xterm"]))
    XCTAssertFalse(TerminalChoice.canDraw(in: ["TERM": "dumb"]))
    XCTAssertFalse(TerminalChoice.canDraw(in: [:]))
  }
}

/// How a terminal is laid out, and the sixels drawn in it.
final class SixelLayoutTests: XCTestCase {
  private let sixelChoice = TerminalChoice(graphics: .sixel, colors: .direct)

  func testXtermsLargestSixelPictureIsReadAndNoBiggerOneIsDrawn() {
    // xterm's XTSMGRAPHICS reply (its largest sixel picture) among the others; a failed
    // reply (status 3) and one for another item (1: colour registers) say nothing of it.
    let replies = TerminalReplies.parse(
      Array("\u{1B}[?2;0;480;300S\u{1B}[?1;0;256S\u{1B}[?63;4c".utf8))
    XCTAssertEqual(replies.largestSixels, PixelSize(width: 480, height: 300))
    XCTAssertTrue(replies.sixel)
    XCTAssertNil(TerminalReplies.parse(Array("\u{1B}[?2;3;0;0S\u{1B}[?63c".utf8)).largestSixels)
    XCTAssertNil(TerminalReplies.parse(Array("\u{1B}[?1;0;256S\u{1B}[?63c".utf8)).largestSixels)

    // 80×24 cells of 8×17 pixels: 60 columns and 17 rows fit in 480×300 (the last row is never
    // drawn), centred.
    let terminal = (columns: 80, rows: 24, pixels: PixelSize(width: 640, height: 408) as PixelSize?)
    let layout = TerminalLayout(terminal, choice: sixelChoice, replies: replies)
    XCTAssertEqual(layout.cell, PixelSize(width: 8, height: 17))
    XCTAssertEqual([layout.columns, layout.rows], [60, 17])
    XCTAssertEqual([layout.origin.column, layout.origin.row], [10, 3])
    XCTAssertEqual(layout.picture, PixelSize(width: 480, height: 289))
    XCTAssertEqual(layout.points, Size(width: 480, height: 289))
    // Kitty's pictures and cells have no such bound: the whole terminal, from the top left.
    for graphics in [TerminalGraphics.kitty, .cells] {
      let whole = TerminalLayout(
        terminal, choice: TerminalChoice(graphics: graphics, colors: .direct), replies: replies)
      XCTAssertEqual(whole.columns, 80)
      XCTAssertEqual([whole.origin.column, whole.origin.row], [0, 0])
    }
    // A terminal that does not answer: all of it.
    let silent = TerminalLayout(terminal, choice: sixelChoice, replies: TerminalReplies())
    XCTAssertEqual([silent.columns, silent.rows], [80, 23])
  }

  func testAResizedTerminalThatNoLongerSaysItsPixelsKeepsItsCell() {
    // xterm answered its text area at 80×24; resized to 120×40 it says no pixels.
    var replies = TerminalReplies()
    replies.textArea = PixelSize(width: 640, height: 408)
    let first = TerminalLayout(
      (80, 24, nil), choice: sixelChoice, replies: replies)
    XCTAssertEqual(first.cell, PixelSize(width: 8, height: 17))
    let resized = TerminalLayout(
      (120, 40, nil), choice: sixelChoice, replies: replies, lastCell: first.cell)
    XCTAssertEqual(resized.cell, PixelSize(width: 8, height: 17), "not 640×408 over 120×40")
    XCTAssertEqual(resized.points, Size(width: 960, height: 663))
    // Where the terminal says its pixels, they count.
    let said = TerminalLayout(
      (120, 40, PixelSize(width: 1200, height: 800)), choice: sixelChoice, replies: replies,
      lastCell: first.cell)
    XCTAssertEqual(said.cell, PixelSize(width: 10, height: 20))
  }

  func testSixelsKeepEveryPiecesColourAndCoverTheBackground() throws {
    // Seven small pieces, the default effect's colours, on a wide background: most of the
    // picture. chafa given it whole made a palette of the background and lost the colours.
    let background = RGBA8(red: 16, green: 20, blue: 24)
    let colours: [(UInt8, UInt8, UInt8)] = [
      (255, 214, 10), (46, 204, 113), (255, 77, 109), (30, 144, 255), (155, 89, 182),
      (255, 140, 0), (220, 20, 60),
    ]
    let width = 640
    /// The seven pieces, 12 pixels square in a row, on a picture `height` pixels down filled
    /// with `backdrop`.
    func pieces(on backdrop: RGBA8, height: Int) -> RGBAImage {
      var picture = RGBAImage(
        width: width, height: height,
        fill: .init(red: backdrop.red, green: backdrop.green, blue: backdrop.blue))
      for (index, colour) in colours.enumerated() {
        for y in 100..<112 {
          for x in (40 + index * 80)..<(52 + index * 80) {
            let at = (y * width + x) * 4
            picture.bytes[at..<(at + 4)] = [colour.0, colour.1, colour.2, 255]
          }
        }
      }
      return picture
    }
    // 20 rows of 18 pixels: sixels come 6 rows at a time, so chafa draws all 360, unscaled.
    let height = 360
    let picture = pieces(on: background, height: height)
    let layout = TerminalLayout(
      (80, 21, PixelSize(width: 640, height: 378)), choice: sixelChoice,
      replies: TerminalReplies())
    XCTAssertEqual(layout.picture, PixelSize(width: width, height: height))
    let canvas = layout.canvas(sixelChoice, background: background)
    defer { chafa_canvas_unref(canvas) }
    let info = try chafaTerminal(["TERM": "xterm-256color"])
    defer { chafa_term_info_unref(info) }

    let sixels = SixelPicture.text(of: picture, over: background, on: canvas, for: info)
    let shown = try XCTUnwrap(DecodedSixels(sixels), "one sixel picture")
    XCTAssertEqual(shown.width, width)
    XCTAssertEqual(shown.height, height)
    /// The colour's channels as sixels carry them: whole percents.
    func percents(_ channels: [UInt8]) -> [Int] {
      channels.map { Int((Double($0) * 100 / 255).rounded()) }
    }
    var worst = 0
    for y in 0..<height {
      for x in 0..<width {
        let at = (y * width + x) * 4
        let expected = percents(Array(picture.bytes[at..<(at + 3)]))
        guard let colour = shown.colour(x: x, y: y) else {
          return XCTFail("(\(x), \(y)) left unset: the terminal's older picture would show")
        }
        worst = max(worst, zip(colour, expected).map { abs($0 - $1) }.max()!)
      }
    }
    XCTAssertLessThanOrEqual(worst, 1, "every pixel, pieces and background, in its colour")

    // Drawn as chafa draws it, the background's pixels in the palette, the colours are lost.
    let plain = try XCTUnwrap(DecodedSixels(chafaText(of: picture, on: canvas, for: info)))
    let lost = colours.indices.filter { index in
      let expected = percents([colours[index].0, colours[index].1, colours[index].2])
      let colour = plain.colour(x: 46 + index * 80, y: 106) ?? [0, 0, 0]
      return zip(colour, expected).map { abs($0 - $1) }.max()! > 5
    }
    XCTAssertFalse(lost.isEmpty, "the check above would see chafa's own palette fail")

    // A light background, and a picture whose 340 rows chafa draws as 336 (sixels come six
    // rows at a time), blending rows at the pieces' edges with the cleared background: laid
    // over chafa's own black, they were dark rims. None is darker than the darkest piece.
    let light = RGBA8(red: 244, green: 241, blue: 234)
    let onLight = pieces(on: light, height: 340)
    let shorter = TerminalLayout(
      (80, 21, PixelSize(width: 640, height: 357)), choice: sixelChoice,
      replies: TerminalReplies())
    XCTAssertEqual(shorter.picture, PixelSize(width: width, height: 340))
    let lightCanvas = shorter.canvas(sixelChoice, background: light)
    defer { chafa_canvas_unref(lightCanvas) }
    let rimmed = try XCTUnwrap(
      DecodedSixels(SixelPicture.text(of: onLight, over: light, on: lightCanvas, for: info)))
    XCTAssertEqual(rimmed.height, 336)
    let darkest = colours.map { percents([$0.0, $0.1, $0.2]).max()! }.min()!
    var dimmest = 100
    for y in 0..<rimmed.height {
      for x in 0..<width {
        dimmest = min(dimmest, rimmed.colour(x: x, y: y)?.max() ?? 0)
      }
    }
    XCTAssertGreaterThanOrEqual(dimmest, darkest - 5, "no rim darker than the pieces")
  }

  func testSixelsNotInChafasFormAreLeftAlone() {
    let background = RGBA8(red: 0, green: 0, blue: 0)
    XCTAssertNil(SixelPicture.filling([], with: background))
    XCTAssertNil(SixelPicture.filling(Array("no sixels".utf8), with: background))
    // No raster attributes (no size to paint), or every colour number taken.
    XCTAssertNil(
      SixelPicture.filling(Array("\u{1B}P0;1;0q#0;2;1;2;3~\u{1B}\\".utf8), with: background))
    let all = (0..<256).map { "#\($0);2;0;0;0" }.joined()
    XCTAssertNil(
      SixelPicture.filling(
        Array("\u{1B}P0;1;0q\"1;1;4;6\(all)~\u{1B}\\".utf8), with: background))
  }

  func testEveryBandIsPaintedAndChafasColoursKeepTheirPlaces() throws {
    // Two bands of a 3×8 picture: chafa's colour 0 (red) at the top left, colour 1 (green)
    // carried over the band's end without being chosen again.
    let sixels = Array(
      "\u{1B}P0;1;0q\"1;1;3;8#0;2;100;0;0#1;2;0;100;0#0@#1?@-@\u{1B}\\".utf8)
    let filled = try XCTUnwrap(
      SixelPicture.filling(sixels, with: RGBA8(red: 0, green: 0, blue: 255)))
    let shown = try XCTUnwrap(DecodedSixels(filled))
    XCTAssertEqual([shown.width, shown.height], [3, 8])
    XCTAssertEqual(shown.colour(x: 0, y: 0), [100, 0, 0], "chafa's colour 0, moved")
    XCTAssertEqual(shown.colour(x: 2, y: 0), [0, 100, 0])
    XCTAssertEqual(shown.colour(x: 0, y: 6), [0, 100, 0], "the colour carried into band two")
    for (x, y) in [(1, 0), (2, 1), (0, 1), (1, 6), (2, 7), (0, 7)] {
      XCTAssertEqual(shown.colour(x: x, y: y), [0, 0, 100], "(\(x), \(y)): the background")
    }
    // Nothing painted below the picture's 8 rows.
    XCTAssertNil(shown.colour(x: 0, y: 8))
  }
}

/// A sixel picture read back as a terminal shows it (xterm's way): each pixel a colour
/// number, resolved to its colour (in percents) at the end; pixels no sixel sets take colour 0
/// where the background mode (P2) is 0 or 2, and are left unset (transparent) where it is 1.
struct DecodedSixels {
  var width = 0
  var height = 0
  private var pixels: [Int: Int] = [:]
  private var colours: [Int: [Int]] = [:]
  private var transparent = false

  init?(_ bytes: [UInt8]) {
    guard let start = bytes.firstIndex(of: 0x1B), start + 1 < bytes.count,
      bytes[start + 1] == UInt8(ascii: "P"),
      let q = bytes[start...].firstIndex(of: UInt8(ascii: "q"))
    else { return nil }
    let parameters = String(decoding: bytes[(start + 2)..<q], as: UTF8.self)
      .split(separator: ";", omittingEmptySubsequences: false)
    transparent = parameters.count > 1 && parameters[1] == "1"
    var index = q + 1
    func numbers() -> [Int] {
      var values: [Int] = []
      var value: Int?
      while index < bytes.count {
        let byte = bytes[index]
        if (48...57).contains(byte) {
          value = (value ?? 0) * 10 + Int(byte - 48)
        } else if byte == UInt8(ascii: ";") {
          values.append(value ?? 0)
          value = nil
        } else {
          break
        }
        index += 1
      }
      if let value { values.append(value) }
      return values
    }
    var (x, y, current, repeats) = (0, 0, 0, 1)
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case 0x1B: return
      case UInt8(ascii: "\""):
        let raster = numbers()
        if raster.count == 4 { (width, height) = (raster[2], raster[3]) }
      case UInt8(ascii: "#"):
        let values = numbers()
        guard let number = values.first else { return nil }
        current = number
        if values.count == 5, values[1] == 2 { colours[number] = Array(values[2...]) }
      case UInt8(ascii: "!"): repeats = numbers().first ?? 1
      case UInt8(ascii: "$"): x = 0
      case UInt8(ascii: "-"): (x, y) = (0, y + 6)
      case 0x3F...0x7E:
        let bits = Int(byte - 0x3F)
        for _ in 0..<repeats {
          for bit in 0..<6 where bits & (1 << bit) != 0 {
            pixels[(y + bit) * 1_000_000 + x] = current
          }
          x += 1
        }
        width = max(width, x)
        repeats = 1
      default: break
      }
    }
    return nil
  }

  /// The colour shown at (`x`, `y`), in percents; nil: none (transparent).
  func colour(x: Int, y: Int) -> [Int]? {
    guard let number = pixels[y * 1_000_000 + x] ?? (transparent ? nil : 0) else { return nil }
    return colours[number] ?? [0, 0, 0]
  }
}
