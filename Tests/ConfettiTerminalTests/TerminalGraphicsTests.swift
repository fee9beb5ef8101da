import ConfettiCore
import ConfettiGL
import ConfettiTerminal
import XCTest

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
