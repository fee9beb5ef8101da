import ConfettiImage
import ConfettiTestSupport
import Foundation
import XCTest

/// The celebration in a terminal (`confetti overlay --terminal`, and `run` where no desktop
/// is): what tmux's cells, xterm's sixels and kitty's pictures show, compared with `confetti
/// render` of the same moment; the terminal given back as it was, after a key or a signal at
/// any moment; nothing written where output is no terminal.
final class TerminalCelebrationTests: XCTestCase {
  /// The moment drawn still, in seconds, and the seed: the same in the terminal and in render.
  let moment = "1.2"
  let seed = "7"

  /// The overlay's arguments for the still moment (or `moment`), its first frame written to
  /// `snapshot`.
  func overlay(_ extra: [String], snapshot: String, at moment: String? = nil) -> String {
    ([
      confettiBinary.path, "overlay", "--terminal", "--terminal-still", moment ?? self.moment,
      "--duration", "300", "--seed", seed, "--snapshot", snapshot,
    ] + extra).joined(separator: " ")
  }

  /// `confetti render` of the still moment at `size` and `scale`, over `background`.
  func reference(
    size: String, scale: Int, background: String, in folder: URL, extra: [String] = [],
    at moment: String? = nil
  ) throws -> RGBAImage {
    let out = folder.appendingPathComponent("reference.png").path
    let rendered = try confetti(
      [
        "render", "--preset", "celebrate", "--time", moment ?? self.moment, "--seed", seed,
        "--size", size,
        "--scale", "\(scale)", "--background", background, "--out", out,
      ] + extra)
    XCTAssertEqual(rendered.status, 0, rendered.stderr)
    return try PNG.read(URL(fileURLWithPath: out))
  }

  // MARK: Cells, in tmux

  func testTmuxShowsTheMomentInCellsAndIsGivenBackAtAKeyItLeavesForTheShell() throws {
    let (columns, rows) = (80, 24)
    let tmux = try Tmux(columns: columns, rows: rows)
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let snapshot = folder.appendingPathComponent("first.png").path
    try tmux.type("clear; echo before; stty -a > \(folder.path)/before.txt")
    try waitUntil("the shell", timeout: 30) { try tmux.screen().contains("before") }
    try tmux.type(
      "COLORTERM=truecolor \(overlay([], snapshot: snapshot)); echo status=$?; "
        + "stty -a > \(folder.path)/after.txt")

    // Drawn: on the alternate screen, the cursor hidden, the picture in coloured cells.
    var cells = ScreenCells(capture: "")
    try waitUntil("the celebration in tmux's cells") {
      guard try tmux.borrowed, FileManager.default.fileExists(atPath: snapshot + ".choice") else {
        return false
      }
      cells = ScreenCells(capture: try tmux.screen(escapes: true))
      return cells.rows.joined().filter(\.isDrawn).count > 40
    }
    XCTAssertFalse(try tmux.cursorShown, "the cursor is hidden while it draws")
    XCTAssertEqual(
      try String(contentsOfFile: snapshot + ".choice", encoding: .utf8), "cells direct\n",
      "inside tmux: cells, in 24-bit colour as COLORTERM says")

    // The picture is the moment render makes: 8×16 pixels a cell, two pixels a point.
    let first = try PNG.read(URL(fileURLWithPath: snapshot))
    XCTAssertEqual(first.width, columns * 8)
    XCTAssertEqual(first.height, rows * 16)
    let reference = try reference(
      size: "\(first.width)x\(first.height)", scale: 2, background: "transparent", in: folder)
    let block = (width: 8, height: 16)
    let expected = coverage(of: reference, block: block, background: nil)
    XCTAssertGreaterThan(
      correlation(coverage(of: first, block: block, background: nil), expected), 0.97,
      "the terminal's picture is render's")

    // Each cell shows what its part of the picture holds: pieces where they are, in their
    // colours, and nothing where there are none.
    var (full, fullDrawn, empty, emptyBlank, coloured, colouredRight) = (0, 0, 0, 0, 0, 0)
    for row in 0..<rows {
      for column in 0..<columns {
        let share = expected[row][column]
        let cell = cells[row, column]
        if share >= 0.4 {
          full += 1
          if cell.isDrawn { fullDrawn += 1 }
        } else if share == 0 {
          empty += 1
          if !cell.isDrawn { emptyBlank += 1 }
        }
        // A cell the picture fills shows the mean of its pixels in one of its two colours.
        if share >= 0.9, !cell.colours.isEmpty {
          coloured += 1
          var mean = [0, 0, 0]
          for y in 0..<16 {
            for x in 0..<8 {
              let at = ((row * 16 + y) * reference.width + column * 8 + x) * 4
              for channel in 0..<3 { mean[channel] += Int(reference.bytes[at + channel]) }
            }
          }
          let close = cell.colours.contains { shown in
            (0..<3).allSatisfy { abs(mean[$0] / 128 - shown[$0]) <= 80 }
          }
          if close { colouredRight += 1 }
        }
      }
    }
    XCTAssertGreaterThan(full, 20, "the moment has pieces to show")
    XCTAssertGreaterThanOrEqual(Double(fullDrawn), 0.9 * Double(full), "cells under pieces")
    XCTAssertGreaterThanOrEqual(Double(emptyBlank), 0.98 * Double(empty), "cells with none")
    XCTAssertGreaterThan(coloured, 5)
    XCTAssertGreaterThanOrEqual(
      Double(colouredRight), 0.75 * Double(coloured), "the pieces' colours")

    // A key ends it at once; the screen, the cursor and the terminal's modes are as they were,
    // and the key is the shell's.
    try tmux.press("x")
    try waitUntil("the celebration to end at a key", timeout: 10) {
      try tmux.screen().contains("status=0")
    }
    XCTAssertFalse(try tmux.borrowed)
    XCTAssertTrue(try tmux.cursorShown)
    let screen = try tmux.screen()
    XCTAssert(screen.contains("before"), screen)
    try waitUntil("stty's report", timeout: 10) {
      FileManager.default.fileExists(atPath: folder.path + "/after.txt")
    }
    XCTAssertEqual(
      try String(contentsOfFile: folder.path + "/after.txt", encoding: .utf8),
      try String(contentsOfFile: folder.path + "/before.txt", encoding: .utf8),
      "the terminal's modes (echo, canonical input) as they were")
    let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    XCTAssertEqual(lines.last, "$ x", "the key is left for the shell: \(screen)")
  }

  /// Inside tmux, and inside a tmux inside tmux, a celebration leaves every pane's title, its
  /// window's name and the pane's modes as they were: nothing is asked that tmux takes for a
  /// title. (kitty's graphics query once became the pane's title for good.)
  func testInsideTmuxAndNestedTmuxTheTitlesAndModesStayAsTheyWere() throws {
    let tmux = try Tmux(columns: 80, rows: 24)
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let inner = "confetti-inner-\(UUID().uuidString.prefix(8))"
    let tmuxProgram = try requiredProgram("tmux", for: "tmux inside tmux")
    defer { _ = try? runProgram(tmuxProgram, ["-L", inner, "kill-server"], timeout: 30) }
    /// The outer pane's title and window name, and the inner pane's where it runs.
    func titles() throws -> [String] {
      var seen = [try tmux.value("#{pane_title}"), try tmux.value("#{window_name}")]
      let nested = try runProgram(
        tmuxProgram, ["-L", inner, "display-message", "-p", "#{pane_title}|#{window_name}"],
        timeout: 30)
      if nested.status == 0 { seen.append(nested.stdout) }
      return seen
    }
    /// A celebration drawn in the pane that runs a shell now, ended by a key once drawn (Enter,
    /// which is left for the shell: an empty line).
    func celebrate(_ name: String) throws {
      let snapshot = folder.appendingPathComponent("\(name).png").path
      try tmux.type("\(overlay([], snapshot: snapshot)); echo \(name)-over")
      try waitUntil("the celebration \(name)", timeout: 60) {
        FileManager.default.fileExists(atPath: snapshot + ".choice")
      }
      try tmux.press("Enter")
      try waitUntil("its end", timeout: 30) { try tmux.screen().contains("\(name)-over") }
    }

    // Window names as a terminal's sequences set them (allow-rename), not as tmux follows the
    // program that runs (automatic-rename), which would change them by itself.
    let names = [
      ["set-option", "-g", "allow-rename", "on"], ["set-option", "-g", "automatic-rename", "off"],
    ]
    for option in names { try tmux.command(option) }
    try tmux.command(["rename-window", "-t", "0", "outer"])
    try tmux.type("printf '\\033]2;my title\\033\\\\'; clear; echo ready")
    try waitUntil("the shell", timeout: 30) { try tmux.screen().contains("ready") }
    let before = try titles()
    XCTAssertEqual(before, ["my title", "outer"])
    try celebrate("outer")
    XCTAssertEqual(try titles(), before, "tmux's titles")
    XCTAssertFalse(try tmux.borrowed)
    XCTAssertTrue(try tmux.cursorShown)

    try tmux.type(
      "env -u TMUX \(tmuxProgram.path) -L \(inner) -f /dev/null new-session "
        + "\"env PS1='$ ' bash --norc --noprofile\"")
    try waitUntil("tmux inside tmux", timeout: 30) {
      (try? runProgram(tmuxProgram, ["-L", inner, "has-session"], timeout: 30))?.status == 0
    }
    for option in names + [["rename-window", "inner"]] {
      _ = try runProgram(tmuxProgram, ["-L", inner] + option, timeout: 30)
    }
    try tmux.type("printf '\\033]2;inner title\\033\\\\'; clear; echo inner-ready")
    try waitUntil("the inner shell", timeout: 30) { try tmux.screen().contains("inner-ready") }
    let nestedBefore = try titles()
    XCTAssertEqual(nestedBefore, ["my title", "outer", "inner title|inner\n"])
    try celebrate("inner")
    XCTAssertEqual(try titles(), nestedBefore, "both tmux's titles")
    let innerModes = try runProgram(
      tmuxProgram, ["-L", inner, "display-message", "-p", "#{alternate_on}#{cursor_flag}"],
      timeout: 30)
    XCTAssertEqual(innerModes.stdout, "01\n", "the inner pane given back")
  }

  /// A command typed ahead while the one before ran (`make`, then the next line) is in the
  /// terminal's input when the celebration starts: it is read with the terminal's replies, so
  /// it ends the celebration as a key does, and it is given back to the shell, which runs it.
  func testACommandTypedAheadEndsTheCelebrationAndReachesTheShell() throws {
    let tmux = try Tmux(columns: 80, rows: 24)
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let go = folder.appendingPathComponent("go").path
    let snapshot = folder.appendingPathComponent("first.png").path
    try tmux.type(
      "clear; while [ ! -e \(go) ]; do sleep 0.05; done; \(overlay([], snapshot: snapshot)); "
        + "echo status=$?")
    // Typed while the loop runs: echoed by the terminal, waiting in its input.
    try tmux.type("echo ahead-$((6 * 7))")
    try waitUntil("the typed-ahead line in the terminal", timeout: 30) {
      try tmux.screen().contains("echo ahead-$((6 * 7))")
    }
    XCTAssert(FileManager.default.createFile(atPath: go, contents: Data()))
    // The celebration would last 300 s; the line ends it, and the shell runs it after.
    try waitUntil("the typed-ahead command's output", timeout: 30) {
      try tmux.screen().contains("ahead-42")
    }
    let screen = try tmux.screen()
    XCTAssert(screen.contains("status=0"), screen)
    XCTAssertFalse(try tmux.borrowed)
    XCTAssertTrue(try tmux.cursorShown)
  }

  func testReducedMotionIsHonouredInTheTerminal() throws {
    let tmux = try Tmux(columns: 80, rows: 24)
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let snapshot = folder.appendingPathComponent("first.png").path
    // (Reduced, the pieces are gone by 1.2 s: a moment while they show.)
    try tmux.type("CONFETTI_REDUCE_MOTION=1 \(overlay([], snapshot: snapshot, at: "0.6"))")
    try waitUntil("the celebration in tmux's cells") {
      FileManager.default.fileExists(atPath: snapshot + ".choice")
    }
    try tmux.press("q")
    let first = try PNG.read(URL(fileURLWithPath: snapshot))
    let size = "\(first.width)x\(first.height)"
    let block = (width: 8, height: 16)
    let shown = coverage(of: first, block: block, background: nil)
    let calm = try reference(
      size: size, scale: 2, background: "transparent", in: folder, extra: ["--reduce-motion"],
      at: "0.6")
    XCTAssertGreaterThan(
      correlation(shown, coverage(of: calm, block: block, background: nil)), 0.97,
      "the moment with reduced motion")
    let moving = try reference(
      size: size, scale: 2, background: "transparent", in: folder, at: "0.6")
    XCTAssertLessThan(
      correlation(shown, coverage(of: moving, block: block, background: nil)), 0.9,
      "not the moment in full motion")
    try waitUntil("the end at a key", timeout: 30) { try !tmux.borrowed }
  }

  func testNoColorDrawsInTheTerminalsOwnColours() throws {
    let tmux = try Tmux(columns: 60, rows: 20)
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let snapshot = folder.appendingPathComponent("first.png").path
    try tmux.type("NO_COLOR=1 COLORTERM=truecolor \(overlay([], snapshot: snapshot))")
    var cells = ScreenCells(capture: "")
    try waitUntil("the celebration in tmux's cells") {
      guard FileManager.default.fileExists(atPath: snapshot + ".choice") else { return false }
      cells = ScreenCells(capture: try tmux.screen(escapes: true))
      return cells.rows.joined().filter { $0.character != " " }.count > 20
    }
    XCTAssertEqual(
      try String(contentsOfFile: snapshot + ".choice", encoding: .utf8), "cells none\n")
    let drawn = cells.rows.joined().filter(\.isDrawn)
    XCTAssert(
      drawn.allSatisfy { $0.foreground == nil && $0.background == nil },
      "no colour at all under NO_COLOR")
    try tmux.press("q")
    try waitUntil("the end at a key", timeout: 10) { try !tmux.borrowed }
  }

  func testRunCelebratesInTheTerminalWhereThereIsNoDesktop() throws {
    let tmux = try Tmux(columns: 60, rows: 20)
    // A remote shell: no display. The command's output stays; the status is its own.
    try tmux.type("clear; \(confettiBinary.path) run -- echo built; echo status=$?")
    try waitUntil("the celebration after the command") { try tmux.borrowed }
    try waitUntil("its frames") {
      ScreenCells(capture: try tmux.screen(escapes: true)).rows.joined().filter(\.isDrawn).count
        > 10
    }
    // It ends by itself (about 4 s); the screen is given back with the command's output.
    try waitUntil("the end", timeout: 60) { try tmux.screen().contains("status=0") }
    XCTAssertFalse(try tmux.borrowed)
    XCTAssert(try tmux.screen().contains("built"))
    // A failure is not celebrated, and its status kept.
    try tmux.type("clear; \(confettiBinary.path) run -- false; echo status=$?")
    try waitUntil("the failure's status", timeout: 30) {
      try tmux.screen().contains("status=1")
    }
    // A background job cannot take the terminal over: one line says why neither celebrated;
    // where the foreground would not help either (TERM=dumb), that is what it says.
    let jobs = [
      (
        "",
        "it runs in the background of its terminal, which it would have to take over; run "
          + "it in the foreground"
      ),
      ("TERM=dumb ", "this terminal (TERM=dumb) shows no colours or pictures"),
    ]
    for (number, (prefix, why)) in jobs.enumerated() {
      try tmux.type(
        "clear; \(prefix)\(confettiBinary.path) run -- true & wait $!; echo job\(number)=$?")
      try waitUntil("the background job's status", timeout: 30) {
        try tmux.screen().contains("job\(number)=0")
      }
      let said = try tmux.command(["capture-pane", "-p", "-J", "-t", "0"])
      XCTAssert(
        said.contains(
          "confetti: no desktop to celebrate on (DISPLAY is not set); nor in this terminal: "
            + "\(why); the command succeeded"), said)
      XCTAssertFalse(try tmux.borrowed)
    }
  }

  func testAResizedTerminalIsDrawnAtItsNewSize() throws {
    let tmux = try Tmux(columns: 60, rows: 20)
    // Snow: it goes on, and new flakes are born across the terminal as it is now.
    try tmux.type(
      "COLORTERM=truecolor \(confettiBinary.path) overlay --terminal --preset snow "
        + "--duration 300; echo status=$?")
    /// The rightmost column and the lowest row with anything drawn.
    func extent() throws -> (column: Int, row: Int) {
      let cells = ScreenCells(capture: try tmux.screen(escapes: true))
      var (column, row) = (-1, -1)
      for (y, line) in cells.rows.enumerated() {
        for (x, cell) in line.enumerated() where cell.isDrawn {
          (column, row) = (max(column, x), max(row, y))
        }
      }
      return (column, row)
    }
    try waitUntil("snow at 60×20") { try tmux.borrowed && extent().column > 40 }
    // Wider and taller: snow over the new room, to its right edge and down to its floor.
    try tmux.command(["resize-window", "-t", "0", "-x", "120", "-y", "36"])
    try waitUntil("snow at 120×36", timeout: 90) {
      let (column, row) = try extent()
      return column > 90 && row > 24
    }
    // Smaller, and on until a key.
    try tmux.command(["resize-window", "-t", "0", "-x", "40", "-y", "12"])
    try waitUntil("snow at 40×12") { try extent().column > 20 }
    try tmux.press("q")
    try waitUntil("the end at a key", timeout: 30) { try tmux.screen().contains("status=0") }
    XCTAssertFalse(try tmux.borrowed)
  }

  // MARK: Signals and keys at every moment

  func testTheTerminalIsGivenBackAfterASignalAtAnyMoment() throws {
    let tmux = try Tmux(columns: 70, rows: 20)
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try tmux.type("clear; echo before; stty -a > \(folder.path)/before.txt")
    try waitUntil("the shell", timeout: 30) { try tmux.screen().contains("before") }
    let before = try String(contentsOfFile: folder.path + "/before.txt", encoding: .utf8)
    let pkill = try requiredProgram("pkill", for: "signals")
    // (how it is stopped, seconds after the start; nil: once its first frame is out)
    let cases: [(String, Double?)] = [
      ("TERM", 0), ("TERM", 0.15), ("INT", 0.3), ("HUP", 0.6), ("TERM", nil), ("HUP", nil),
      ("C-c", nil), ("C-z", nil), ("C-c", 0.4),
    ]
    for (index, (stop, delay)) in cases.enumerated() {
      let context = "\(stop) at \(delay.map { "\($0) s" } ?? "the first frame")"
      let snapshot = folder.appendingPathComponent("first-\(index).png").path
      let marker = "\(folder.path)/done-\(index).txt"
      try tmux.type("clear; echo before-\(index)")
      try waitUntil("the shell", timeout: 30) { try tmux.screen().contains("before-\(index)") }
      try tmux.type(
        "\(overlay(["--capacity", "\(1000 + index)"], snapshot: snapshot)); "
          + "echo $? > \(marker); stty -a > \(folder.path)/after-\(index).txt")
      if let delay {
        // The moment is what is tested, not a stand-in: whenever it comes, the terminal is
        // given back as it was.
        usleep(useconds_t(delay * 1_000_000))
      } else {
        try waitUntil("the first frame (\(context))") {
          FileManager.default.fileExists(atPath: snapshot + ".choice")
        }
      }
      if stop.hasPrefix("C-") {
        try tmux.press(stop)
      } else {
        // Until it is gone: a signal before it has started (a shell still starting it) finds
        // no process.
        try waitUntil("the signal to reach it (\(context))", timeout: 30) {
          let sent = try runProgram(
            pkill, ["-\(stop)", "-f", "capacity \(1000 + index)$"], timeout: 10)
          return sent.status == 0 || FileManager.default.fileExists(atPath: marker)
        }
      }
      try waitUntil("the end (\(context))", timeout: 30) {
        FileManager.default.fileExists(atPath: folder.path + "/after-\(index).txt")
          && (try? String(contentsOfFile: folder.path + "/after-\(index).txt", encoding: .utf8))?
            .isEmpty == false
      }
      XCTAssertFalse(try tmux.borrowed, "the main screen back after \(context)")
      XCTAssertTrue(try tmux.cursorShown, "the cursor back after \(context)")
      XCTAssertEqual(
        try String(contentsOfFile: folder.path + "/after-\(index).txt", encoding: .utf8), before,
        "the terminal's modes as they were after \(context)")
      XCTAssert(
        try tmux.screen().contains("before-\(index)"), "the screen as it was after \(context)")
    }
  }

  // MARK: Not a terminal

  func testOutputThatIsNoTerminalGetsNoEscapes() throws {
    let headless: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "TERM": "xterm"]
    let overlay = try confetti(["overlay", "--terminal"], environment: headless)
    XCTAssertEqual(overlay.status, 1)
    XCTAssertEqual(overlay.stdout, "")
    XCTAssertEqual(
      overlay.stderr, "confetti: standard output is not a terminal, so nothing is drawn in it\n")
    let run = try confetti(["run", "--terminal", "--", "echo", "built"], environment: headless)
    XCTAssertEqual(run.status, 0)
    XCTAssertEqual(run.stdout, "built\n", "the command's output, and nothing else")
    XCTAssertEqual(
      run.stderr,
      "confetti: standard output is not a terminal, so nothing is drawn in it; the command "
        + "succeeded\n")
    let graphics = try confetti(["overlay", "--terminal-graphics", "ascii"], environment: headless)
    XCTAssertEqual(graphics.status, 64)
    XCTAssert(graphics.stderr.contains("'kitty', 'sixel' or 'cells'"), graphics.stderr)
  }

  // MARK: Pictures: sixels in xterm, kitty's graphics in kitty

  /// Starts `terminal` (a command line) on an X display of its own, running the overlay
  /// still in it; waits until its screenshot shows the first frame's picture where its layout
  /// puts it, in its colours, and returns the choice the overlay made and that layout (the
  /// columns and rows drawn, the first's column and row, a cell's width and height).
  func showPicture(in terminal: (String) -> [String], name: String) throws -> (
    choice: String, layout: [Int]
  ) {
    let ffmpeg = try requiredProgram("ffmpeg", for: "screenshots of the terminal")
    let (display, server) = try startXvfb(size: "800x600x24")
    defer { stopXvfb(server) }
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let snapshot = folder.appendingPathComponent("first.png").path
    let command = overlay([], snapshot: snapshot) + "; sleep 600"
    let arguments = terminal(command)
    let program = try requiredProgram(arguments[0], for: "\(name)'s graphics")
    let process = try launch(program.path, Array(arguments.dropFirst()), display: display)
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    try waitUntil("the first frame in \(name)") {
      FileManager.default.fileExists(atPath: snapshot + ".choice")
    }
    let layout = try String(contentsOfFile: snapshot + ".layout", encoding: .utf8)
      .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    XCTAssertEqual(layout.count, 6, "columns, rows, column, row, cell width and height")
    guard layout.count == 6 else { return ("", layout) }
    let first = try PNG.read(URL(fileURLWithPath: snapshot))
    // The picture is render's moment, over the terminal's background, which it asked for.
    let background = "#101418"
    let reference = try reference(
      size: "\(first.width)x\(first.height)", scale: 1, background: background, in: folder)
    let block = (width: 8, height: 8)
    let colour = [16, 20, 24]
    let expected = coverage(of: reference, block: block, background: colour)
    XCTAssertGreaterThan(
      correlation(coverage(of: first, block: block, background: colour), expected), 0.97,
      "the picture is render's, over the terminal's own background")
    // And the terminal shows it, where the layout puts it (its first cell's top left, give or
    // take the window's border), with its pieces in their colours: the median difference of
    // a piece's pixel from render's at most 24 of 255 (chafa's own palette for sixels,
    // which the background took, made it 58); and its background the terminal's: 98 % of
    // those pixels within 6 (a picture filled with black is 24 off).
    let origin = (x: layout[2] * layout[4], y: layout[3] * layout[5])
    let shot = folder.appendingPathComponent("shot.png").path
    var seen = "nothing yet"
    try waitUntil("\(name) to show the picture (the closest: \(seen))") {
      let grabbed = try runProgram(
        ffmpeg,
        [
          "-loglevel", "error", "-y", "-f", "x11grab", "-video_size", "800x600", "-i", display,
          "-frames:v", "1", shot,
        ], timeout: 30)
      guard grabbed.status == 0 else { return false }
      let screen = try PNG.read(URL(fileURLWithPath: shot))
      var best: (match: Double, at: (x: Int, y: Int)) = (-1, origin)
      for dx in 0...3 {
        for dy in 0...3 {
          let at = (origin.x + dx, origin.y + dy)
          let shown = coverage(
            of: screen, block: block, origin: at, size: (first.width, first.height),
            background: colour)
          let match = correlation(shown, expected)
          if match > best.match { best = (match, at) }
        }
      }
      let colours = colourErrors(screen, at: best.at, against: reference, background: colour)
      seen =
        "correlation \(best.match), pieces' colour error \(colours.pieces), "
        + "background within 6: \(colours.background)"
      return best.match > 0.9 && colours.pieces <= 24 && colours.background >= 0.98
    }
    return (try String(contentsOfFile: snapshot + ".choice", encoding: .utf8), layout)
  }

  /// How `screen` shows `reference` laid at `origin` in it: the median difference (the
  /// largest of a pixel's channels) over the reference's pixels of pieces (those far from
  /// `background`), and the share of its pixels of `background` shown within 6 of it.
  func colourErrors(
    _ screen: RGBAImage, at origin: (x: Int, y: Int), against reference: RGBAImage,
    background: [Int]
  ) -> (pieces: Int, background: Double) {
    var errors: [Int] = []
    var (backdrop, backdropRight) = (0, 0)
    for y in 0..<min(reference.height, screen.height - origin.y) {
      for x in 0..<min(reference.width, screen.width - origin.x) {
        let wanted = (y * reference.width + x) * 4
        let channels = (0..<3).map { Int(reference.bytes[wanted + $0]) }
        let shownAt = ((y + origin.y) * screen.width + x + origin.x) * 4
        let shown = (0..<3).map { Int(screen.bytes[shownAt + $0]) }
        let fromBackground = zip(channels, background).map { abs($0 - $1) }.max()!
        if fromBackground == 0 {
          backdrop += 1
          if zip(shown, background).map({ abs($0 - $1) }).max()! <= 6 { backdropRight += 1 }
        } else if fromBackground > 60 {
          errors.append(zip(shown, channels).map { abs($0 - $1) }.max()!)
        }
      }
    }
    return (
      errors.isEmpty ? 255 : errors.sorted()[errors.count / 2],
      backdrop == 0 ? 0 : Double(backdropRight) / Double(backdrop)
    )
  }

  /// xterm as a VT340 with 256 colour registers, at 80×24 cells, `extra` its other settings.
  func xterm(_ extra: [String] = []) -> (String) -> [String] {
    { command in
      ["xterm", "-ti", "vt340", "-xrm", "XTerm*numColorRegisters: 256"] + extra + [
        "-geometry", "80x24+0+0", "-b", "0", "-fa", "DejaVu Sans Mono", "-fs", "10", "-bg",
        "#101418", "-fg", "white", "-e", "sh", "-c", command,
      ]
    }
  }

  func testXtermAsAVT340ShowsTheMomentInSixels() throws {
    let (choice, layout) = try showPicture(in: xterm(), name: "xterm")
    XCTAssert(choice.hasPrefix("sixel "), "xterm as a VT340 says it has sixels: \(choice)")
    XCTAssertEqual(Array(layout.prefix(4)), [80, 23, 0, 0], "all of it but the last row")
  }

  func testXtermShowsNoSixelPictureBiggerThanItCanCentred() throws {
    // xterm shows nothing of a sixel picture bigger than its largest (1000×1000 unless set):
    // a big terminal once showed no celebration at all. Here it is set smaller than 80×24.
    let (choice, layout) = try showPicture(
      in: xterm(["-xrm", "XTerm*maxGraphicSize: 480x300"]), name: "xterm")
    XCTAssert(choice.hasPrefix("sixel "), choice)
    guard layout.count == 6 else {
      return XCTFail("columns, rows, column, row, cell width and height: \(layout)")
    }
    let (columns, rows, column, row, width, height) = (
      layout[0], layout[1], layout[2], layout[3], layout[4], layout[5]
    )
    XCTAssertLessThanOrEqual(columns * width, 480)
    XCTAssertGreaterThan(columns * width, 480 - width, "as many columns as fit")
    XCTAssertLessThanOrEqual(rows * height, 300)
    XCTAssertGreaterThan(rows * height, 300 - height, "as many rows as fit")
    XCTAssertEqual(column, (80 - columns) / 2, "centred across")
    XCTAssertEqual(row, (23 - rows) / 2, "centred down")
  }

  func testKittyShowsTheMomentInItsGraphics() throws {
    let (choice, _) = try showPicture(
      in: { command in
        [
          "kitty", "-o", "background=#101418", "-o", "window_padding_width=0", "-o",
          "initial_window_width=640", "-o", "initial_window_height=400", "-o",
          "remember_window_size=no", "-o", "font_size=10", "sh", "-c", command,
        ]
      }, name: "kitty")
    XCTAssert(choice.hasPrefix("kitty "), "kitty answers its graphics query: \(choice)")
  }
}

/// Sixels in terminals of the tests' own making (``FakeTerminal``): sizes and answers no real
/// terminal here gives on demand.
final class SixelTerminalTests: XCTestCase {
  /// The overlay in the terminal, drawing the moment at 1 s still for `duration` seconds.
  func still(_ extra: [String] = [], snapshot: String? = nil, duration: String = "0.5")
    -> [String]
  {
    ["overlay", "--terminal", "--terminal-still", "1", "--duration", duration, "--seed", "7"]
      + (snapshot.map { ["--snapshot", $0] } ?? []) + extra
  }

  func testWithNoRoomForAPictureCellsAreDrawnAndNothingCrashes() throws {
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Two rows of 5 pixels: a picture has one row, under the six pixels chafa's sixels need
    // (it stopped with a floating-point exception, the terminal left borrowed). (Where the
    // terminal's answer came too late on a busy machine, cells are chosen all the same.)
    let snapshot = folder.appendingPathComponent("low.png").path
    let low = try FakeTerminal(
      still(snapshot: snapshot), columns: 40, rows: 2, pixels: (400, 10))
    XCTAssertEqual(try low.status(), 0, String(decoding: low.output, as: UTF8.self))
    XCTAssertEqual(
      try String(contentsOfFile: snapshot + ".choice", encoding: .utf8), "cells direct\n")
    XCTAssert(low.sixelSizes.isEmpty, "no sixels")
    // Asked for sixels there: refused in one line, the terminal given back.
    let asked = try FakeTerminal(
      still(["--terminal-graphics", "sixel"]), columns: 40, rows: 2, pixels: (400, 10))
    XCTAssertEqual(try asked.status(), 1)
    let said = String(decoding: asked.output, as: UTF8.self)
    XCTAssert(said.contains("no room for sixel pictures"), said)
    XCTAssert(said.contains("\u{1B}[?1049l"), "the terminal given back")
    XCTAssert(asked.sixelSizes.isEmpty)
    // A largest sixel picture under a cell: cells too.
    let tinyLargest = folder.appendingPathComponent("tiny.png").path
    var replies = FakeTerminal.Replies()
    replies.largestSixels = (4, 4)
    let tiny = try FakeTerminal(
      still(snapshot: tinyLargest), columns: 80, rows: 24, pixels: (640, 408), replies: replies)
    XCTAssertEqual(try tiny.status(), 0)
    XCTAssertEqual(
      try String(contentsOfFile: tinyLargest + ".choice", encoding: .utf8), "cells direct\n")
  }

  func testAPictureIsNeverBiggerThanAScreensWhateverTheTerminalSays() throws {
    // 65,535 pixels each way and a largest picture of 100,000: GLib aborted, unable to
    // allocate for chafa's canvas; 16,000 took 1.3 GB and a second a frame.
    var replies = FakeTerminal.Replies()
    replies.largestSixels = (100_000, 100_000)
    // Sixels asked for: drawn with them however late the terminal answers on a busy machine.
    let sixels = ["--terminal-graphics", "sixel"]
    let huge = try FakeTerminal(
      still(sixels), columns: 80, rows: 24, pixels: (65_535, 65_535), replies: replies)
    XCTAssertEqual(try huge.status(), 0)
    let sizes = huge.sixelSizes
    XCTAssertFalse(sizes.isEmpty, "sixels drawn")
    XCTAssert(sizes.allSatisfy { $0.width <= 4096 && $0.height <= 4096 }, "\(sizes)")
    // No answer at all: the same bound.
    replies.largestSixels = nil
    let silent = try FakeTerminal(
      still(sixels), columns: 80, rows: 24, pixels: (16_000, 16_000), replies: replies)
    XCTAssertEqual(try silent.status(), 0)
    XCTAssertFalse(silent.sixelSizes.isEmpty, "sixels drawn")
    XCTAssert(silent.sixelSizes.allSatisfy { $0.width <= 4096 && $0.height <= 4096 })
  }

  /// A terminal that says it is 65,535 cells and pixels each way (the most it can say) is
  /// drawn in every graphics mode, on at most 512×256 of its cells in the middle, and given
  /// back: never a crash (kitty's graphics once trapped in GLib, the terminal left borrowed) nor
  /// a picture the GL cannot make (cells once asked for one of 524,280×1,048,560 pixels).
  func testAGiantTerminalIsDrawnInEveryModeAndGivenBack() throws {
    var replies = FakeTerminal.Replies()
    replies.largestSixels = nil
    for graphics in ["kitty", "sixel", "cells"] {
      let folder = try temporaryDirectory()
      defer { try? FileManager.default.removeItem(at: folder) }
      let snapshot = folder.appendingPathComponent("giant.png").path
      let terminal = try FakeTerminal(
        still(["--terminal-graphics", graphics], snapshot: snapshot), columns: 65_535,
        rows: 65_535, pixels: (65_535, 65_535), replies: replies)
      let output = { String(decoding: terminal.output.suffix(300), as: UTF8.self) }
      XCTAssertEqual(try terminal.status(within: 120), 0, "\(graphics): \(output())")
      let layout = try String(contentsOfFile: snapshot + ".layout", encoding: .utf8)
        .split(separator: " ").compactMap {
          Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
      XCTAssertEqual(layout.count, 6, layout.description)
      if layout.count == 6 {
        XCTAssertLessThanOrEqual(layout[0], 512, "\(graphics): columns drawn")
        XCTAssertLessThanOrEqual(layout[1], 256, "\(graphics): rows drawn")
        XCTAssertGreaterThan(layout[2], 30_000, "\(graphics): in the middle, across")
        XCTAssertGreaterThan(layout[3], 30_000, "\(graphics): in the middle, down")
      }
      XCTAssert(
        output().hasSuffix("\u{1B}[?25h\u{1B}[?1049l"), "\(graphics): given back: \(output())")
    }
  }

  /// A crash mid-celebration gives the terminal back first (the frame ended, the main screen,
  /// the cursor), then says so in a line and a short backtrace, and ends at once by its signal:
  /// never Swift's interactive prompt, which held the terminal for 30 s.
  func testACrashGivesTheTerminalBackAndHoldsNothing() throws {
    let terminal = try FakeTerminal(
      still(["--terminal-graphics", "cells"], duration: "60"), columns: 60, rows: 20,
      pixels: (480, 320))
    try waitUntil("the first frame") {
      String(decoding: terminal.output, as: UTF8.self).contains("\u{1B}[?2026l")
    }
    let celebration = try XCTUnwrap(terminal.celebration)
    let crashed = Date()
    XCTAssertEqual(kill(celebration, SIGSEGV), 0)
    XCTAssertNotEqual(try terminal.status(within: 60), 0)
    XCTAssertLessThan(Date().timeIntervalSince(crashed), 10, "ended at once, no prompt")
    let said = String(decoding: terminal.output, as: UTF8.self)
    let report = try XCTUnwrap(said.range(of: "confetti: crashed with a segmentation fault"), said)
    let givenBack = try XCTUnwrap(said.range(of: "\u{1B}[?25h\u{1B}[?1049l", options: .backwards))
    XCTAssertLessThan(givenBack.lowerBound, report.lowerBound, "given back before the report")
    XCTAssertFalse(said.contains("Press space"), said)
    // The open terminal is the shell's too: not left non-blocking (its writes would fail).
    let flags = try XCTUnwrap(terminal.flagsLeft)
    XCTAssertEqual(flags & O_NONBLOCK, 0, "the terminal's flags as they were")
    XCTAssertLessThanOrEqual(said[report.lowerBound...].split(separator: "\n").count, 20)
  }

  /// Ctrl-C in a celebration the overlay drew in the terminal when its desktop failed (a display
  /// that is not there), while the replies the terminal owes keep it waiting as it leaves: the
  /// overlay's deadline for ending (half a second after the signal) gives the terminal back
  /// before it ends the process, its modes as they were. (It once ended the process first: the
  /// terminal left without echo, and a frame cut there left synchronised output open.)
  func testTheDeadlineAfterASignalGivesTheTerminalBackFirst() throws {
    var replies = FakeTerminal.Replies()
    replies.delays = [3]  // owed until after the end
    let terminal = try FakeTerminal(
      ["overlay", "--terminal-still", "1", "--duration", "60", "--seed", "7"], columns: 60,
      rows: 20, pixels: (480, 320), replies: replies, display: ":97")
    try waitUntil("the first frame") {
      String(decoding: terminal.output, as: UTF8.self).contains("\u{1B}[?2026l")
    }
    XCTAssertFalse(terminal.echoesAndEditsLines, "borrowed: keys one at a time, unechoed")
    XCTAssertEqual(kill(try XCTUnwrap(terminal.celebration), SIGINT), 0)
    XCTAssertEqual(try terminal.status(within: 60), 0)
    XCTAssertEqual(try XCTUnwrap(terminal.flagsLeft) & O_NONBLOCK, 0, "not left non-blocking")
    let said = String(decoding: terminal.output, as: UTF8.self)
    XCTAssertTrue(
      terminal.echoesAndEditsLines,
      "the terminal's modes given back: \(said.suffix(300).debugDescription)")
    XCTAssert(said.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"), said.suffix(200).debugDescription)
  }

  func testRepliesThatComeLateDoNotEndTheCelebration() throws {
    // A terminal over a slow link answers a second after it is asked, past the half second
    // confetti waits: its first round of replies, or its second (the largest sixel picture).
    // They came mid-celebration and ended it as a key does (after about a second of the 2.5).
    // (Its first round unanswered, the terminal is not known to draw sixels: cells.)
    // Or a byte at a time, 2 ms apart, as over a slow serial line.
    let sixels = ["--terminal-graphics", "sixel"]
    let cases: [([String], [Double], TimeInterval)] = [
      ([], [1], 0), (sixels, [0, 1], 0), (sixels, [1], 0), ([], [1], 0.002),
    ]
    for (extra, delays, pause) in cases {
      var replies = FakeTerminal.Replies()
      (replies.delays, replies.bytePause) = (delays, pause)
      let started = Date()
      let terminal = try FakeTerminal(
        still(extra, duration: "2.5"), columns: 60, rows: 20, pixels: (480, 320),
        replies: replies)
      XCTAssertEqual(try terminal.status(), 0, String(decoding: terminal.output, as: UTF8.self))
      XCTAssertGreaterThanOrEqual(
        Date().timeIntervalSince(started), 2.5, "\(extra) \(delays): ended by its duration")
      XCTAssertEqual(terminal.sixelSizes.isEmpty, extra.isEmpty, "\(extra) \(delays)")
    }
  }

  func testAKeyEndsTheCelebrationWhateverTheRepliesDo() throws {
    // A reply that never ends (its string terminator missing), or Alt-] (which starts one)
    // typed while replies are owed, swallowed every key after it: nothing but Ctrl-C ended the
    // celebration.
    var endless = FakeTerminal.Replies()
    endless.endlessBackground = true
    var late = FakeTerminal.Replies()
    late.delays = [3]
    for (replies, keys) in [(endless, ["q"]), (late, ["\u{1B}]", "q"])] {
      let terminal = try FakeTerminal(
        still(["--terminal-graphics", "sixel"], duration: "30"), columns: 60, rows: 20,
        pixels: (480, 320), replies: replies)
      try waitUntil("a picture") { !terminal.sixelSizes.isEmpty }
      let pressed = Date()
      for key in keys { terminal.press(key) }
      XCTAssertEqual(try terminal.status(within: 40), 0)
      XCTAssertLessThan(Date().timeIntervalSince(pressed), 10, "\(keys) ended it")
    }
  }

  func testANewFontSizeIsDrawnAtTheTerminalsNewPixels() throws {
    // The same 60×20 cells, their pixels doubled (a font made bigger): the picture follows.
    var replies = FakeTerminal.Replies()
    replies.largestSixels = (4000, 4000)
    let terminal = try FakeTerminal(
      still(["--terminal-graphics", "sixel"], duration: "300"), columns: 60, rows: 20,
      pixels: (480, 320), replies: replies)
    try waitUntil("a picture 480 pixels wide") {
      terminal.sixelSizes.contains { $0.width == 480 }
    }
    terminal.resize(columns: 60, rows: 20, pixels: (960, 640))
    try waitUntil("a picture 960 pixels wide") {
      terminal.sixelSizes.contains { $0.width == 960 }
    }
    terminal.press("q")
    XCTAssertEqual(try terminal.status(), 0)
  }
}
