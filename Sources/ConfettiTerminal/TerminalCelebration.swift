import CChafa
import Confetti
import ConfettiCore
import ConfettiGL
import ConfettiImage
import ConfettiPlatform
import Dispatch
import FoundationEssentials
import Glibc

/// A celebration inside the terminal, where no desktop can show one (a remote shell, a
/// container, a console): the effect rendered headless by the same engine at the terminal's
/// size, each frame turned by libchafa into the best the terminal has (kitty's graphics,
/// sixels, or coloured block characters), drawn on the terminal's alternate screen and given
/// back as it was.
///
/// It ends when the effect is over (a continuous one after ``Settings/duration``), at a key
/// (left for the shell to read), or when ``Settings/shouldStop`` says so (a signal). Standard
/// output must be a terminal: nothing is written anywhere else.
public enum TerminalCelebration {
  /// How a terminal celebration is drawn and for how long.
  public struct Settings {
    /// The graphics to draw with; nil: the best the terminal answers it has
    /// (``TerminalChoice/choose(environment:replies:forced:)``).
    public var graphics: TerminalGraphics?
    /// Every random draw comes from it.
    public var seed: UInt64 = 1
    /// The most particles alive at once.
    public var capacity = 100_000
    /// How long a continuous effect (snow, rain) is on the screen, in seconds.
    public var duration: Seconds = 10
    /// Keep going until stopped.
    public var loop = false
    /// Each piece fades in place instead of moving.
    public var reduceMotion = false
    /// What each piece is drawn as (``SpritePrimitive``).
    public var primitive: SpritePrimitive = .auto
    /// The environment the terminal is read from (TERM, COLORTERM, NO_COLOR, TMUX).
    public var environment = ProcessInfo.processInfo.environment
    /// Asked between frames and between pieces of a frame: true ends the celebration.
    public var shouldStop: () -> Bool = { false }
    /// How long to wait for the terminal's replies, in seconds.
    public var replyTimeout: Seconds = 0.5
    /// Called once the first frame is written.
    public var shown: (() -> Void)?
    /// Draws this moment of the effect, in seconds, still, for ``duration`` (or until a key)
    /// (`--terminal-still`): one moment to look at, as `confetti render --time` renders it.
    package var still: Seconds?
    /// A PNG to write the first frame's picture to (as rendered, before the terminal's
    /// graphics), with the choice made beside it in `PATH.choice` ("sixel direct") and the
    /// layout in `PATH.layout` (the columns and rows drawn, the first's column and row from 0,
    /// a cell's width and height in pixels: "75 23 2 0 8 17") (`--snapshot`): what was drawn
    /// and how, for a bug report.
    package var snapshot: String?

    /// The defaults: the best graphics the terminal has, seed 1, 10 s for a continuous effect.
    public init() {}
  }

  /// What was drawn, for the caller to say or test.
  public struct Outcome: Sendable {
    /// How the terminal was drawn in.
    public var choice: TerminalChoice
    /// The frames written.
    public var frames: Int
    /// Why it ended.
    public var ending: Ending
  }

  /// Why a terminal celebration ended.
  public enum Ending: Sendable, Equatable {
    /// The effect was over (a continuous one at its duration).
    case over
    /// A key was pressed (left for the shell to read).
    case key
    /// ``Settings/shouldStop`` said so (a signal).
    case stopped
  }

  /// The frames a second each kind of graphics is drawn at: pictures are bigger to send.
  static func framesPerSecond(_ graphics: TerminalGraphics) -> Double {
    graphics == .cells ? 30 : 20
  }

  /// The widest picture rendered for kitty or sixels: the terminal scales it to its cells.
  static let widestPicture = 960

  /// Why the terminal on standard output cannot be drawn in, in one line; nil when it can.
  /// It cannot where standard output is no terminal, where `environment`'s TERM shows nothing
  /// (unset, `dumb`), or where this process is a background job of it (its writes and settings
  /// would stop it).
  public static func refusal(in environment: [String: String]) -> String? {
    guard isatty(STDOUT_FILENO) == 1 else {
      return "standard output is not a terminal, so nothing is drawn in it"
    }
    // (What the terminal is comes first: in the foreground it would be refused all the same.)
    guard TerminalChoice.canDraw(in: environment) else {
      let term = environment["TERM"] ?? ""
      return term.isEmpty
        ? "TERM is not set, so the terminal is not known: nothing is drawn in it"
        : "this terminal (TERM=\(oneLine(term))) shows no colours or pictures"
    }
    guard tcgetpgrp(STDOUT_FILENO) == getpgrp() else {
      return "it runs in the background of its terminal, which it would have to take over; "
        + "run it in the foreground"
    }
    return nil
  }

  /// Draws `effect` in the terminal on standard output until it is over, a key is pressed or
  /// `settings.shouldStop` says so. Throws a one-line error, having written nothing, where
  /// the terminal cannot be drawn in (``refusal(in:)``) or no GL context can be made.
  public static func run(_ effect: Effect, _ settings: Settings) throws -> Outcome {
    if let why = refusal(in: settings.environment) {
      throw TerminalScreen.Refusal(description: why)
    }
    let screen = TerminalScreen()
    let context = try HeadlessContext()
    StartTimings.mark("context")
    screen.enter()
    defer { screen.leave() }
    // kitty's graphics are asked after only where their answer can choose them: not where
    // graphics were named, nor in the Linux console (which prints the query) or inside tmux and
    // screen (which take it for the window's title, and draw no pictures here anyway).
    let asksKitty =
      settings.graphics == nil && settings.environment["TERM"] != "linux"
      && !TerminalChoice.isMultiplexer(settings.environment)
    var replies = screen.ask(
      asksKitty ? TerminalReplies.query : TerminalReplies.queryWithoutKitty,
      timeout: settings.replyTimeout)
    var choice = TerminalChoice.choose(
      environment: settings.environment, replies: replies, forced: settings.graphics)
    if choice.graphics == .sixel {
      replies.largestSixels =
        screen.ask(TerminalReplies.sixelQuery, timeout: settings.replyTimeout).largestSixels
    }
    var terminalSize = screen.size()
    var layout = TerminalLayout(terminalSize, choice: choice, replies: replies)
    if !layout.canBeDrawn, choice.graphics != .cells {
      // No room for a picture (a row, or a largest sixel picture under a cell): cells, unless
      // a picture was asked for.
      guard settings.graphics == nil else {
        throw TerminalScreen.Refusal(
          description: "the terminal has no room for \(choice.graphics.rawValue) pictures "
            + "(\(terminalSize.columns)×\(terminalSize.rows) cells); try --terminal-graphics cells")
      }
      choice.graphics = .cells
      layout = TerminalLayout(terminalSize, choice: choice, replies: replies)
    }
    guard layout.canBeDrawn else {
      throw TerminalScreen.Refusal(description: "the terminal has no room to draw in")
    }
    screen.drewKittyPictures = choice.graphics == .kitty
    let info = try chafaTerminal(settings.environment)
    defer { chafa_term_info_unref(info) }
    var target = try OffscreenTarget(
      width: layout.picture.width, height: layout.picture.height, info: context.info)
    defer { target.release() }
    let system = try ConfettiSystem(
      effect: effect, size: layout.points, capacity: settings.capacity, seed: settings.seed,
      reduceMotion: settings.reduceMotion, primitive: settings.primitive)
    StartTimings.mark("effect")
    defer { system.close() }
    system.glStatePolicy = .cache
    // Pictures are opaque, over the terminal's own background; cells are transparent where
    // no piece is, and keep the terminal's.
    let background =
      choice.graphics == .cells
      ? RGBA8(red: 0, green: 0, blue: 0, alpha: 0)
      : (replies.background ?? RGBA8(red: 0, green: 0, blue: 0))
    system.laysLightOverTheBackdrop = background.alpha > 0
    // A light terminal's light is covered as a light page's is.
    if background.alpha > 0 { system.backdrop = background }
    var canvas = layout.canvas(choice, background: background)
    defer { chafa_canvas_unref(canvas) }

    let period = 1 / framesPerSecond(choice.graphics)
    let start = now()
    system.fireOpening(time: 0)
    var frames = 0
    var ending = Ending.over
    target.bind()
    while true {
      if settings.shouldStop() {
        ending = .stopped
        break
      }
      let elapsed = now() - start
      let time = settings.still ?? elapsed
      system.advance(to: time)
      if settings.still != nil {
        guard elapsed < settings.duration else { break }
      } else {
        guard
          system.goesOn(
            at: time, elapsed: elapsed, duration: settings.duration, loop: settings.loop)
        else { break }
      }
      let size = screen.size()
      // Resized, or its font changed (the same cells, other pixels): where that moves or sizes
      // what is drawn, a new picture and canvas, the screen cleared; a size with no room keeps
      // the last picture. (A window dragged wider by less than a cell changes nothing.)
      if size.columns != terminalSize.columns || size.rows != terminalSize.rows
        || size.pixels != terminalSize.pixels
      {
        terminalSize = size
        let resized = TerminalLayout(
          size, choice: choice, replies: replies, lastCell: layout.cell)
        if resized.canBeDrawn, !resized.drawsAsDrawn(by: layout) {
          layout = resized
          target.release()
          target = try OffscreenTarget(
            width: layout.picture.width, height: layout.picture.height, info: context.info)
          target.bind()
          try system.resize(to: layout.points)
          chafa_canvas_unref(canvas)
          canvas = layout.canvas(choice, background: background)
          try screen.write(Array("\u{1B}[2J".utf8))
        }
      }
      GLFrame.clear(to: background)
      try system.draw(in: target.rect, time: time)
      let picture = try target.read()
      if frames == 0, let snapshot = settings.snapshot {
        try PNG.write(picture, to: URL(fileURLWithPath: snapshot))
        let numbers = [
          layout.columns, layout.rows, layout.origin.column, layout.origin.row,
          layout.cell.width, layout.cell.height,
        ]
        try Data((numbers.map(String.init).joined(separator: " ") + "\n").utf8).write(
          to: URL(fileURLWithPath: snapshot + ".layout"))
        try Data("\(choice.graphics.rawValue) \(choice.colors.rawValue)\n".utf8).write(
          to: URL(fileURLWithPath: snapshot + ".choice"))
      }
      var frame = TerminalScreen.frameStart(at: layout.origin)
      switch choice.graphics {
      case .kitty:
        frame += try KittyPicture.frame(picture, columns: layout.columns, rows: layout.rows)
      case .sixel:
        frame += SixelPicture.text(of: picture, over: background, on: canvas, for: info)
      case .cells:
        frame += chafaText(of: picture, on: canvas, for: info)
      }
      frame += TerminalScreen.frameEnd
      try screen.write(frame, shouldStop: settings.shouldStop)
      frames += 1
      if frames == 1 { settings.shown?() }
      let next = start + elapsed + period
      if screen.keyWaiting(within: max(0, next - now())) {
        ending = .key
        break
      }
    }
    return Outcome(choice: choice, frames: frames, ending: ending)
  }
}

/// libchafa's description of the terminal `environment` names (TERM and the like).
/// chafa_term_info_unref() it.
func chafaTerminal(_ environment: [String: String]) throws -> OpaquePointer {
  var entries = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer { entries.forEach { free($0) } }
  guard let info = confetti_chafa_term_info(&entries) else {
    throw TerminalScreen.Refusal(description: "libchafa knows no terminal")
  }
  return info
}

/// `picture` drawn on chafa's `canvas` and printed for the terminal `info` describes.
func chafaText(of picture: RGBAImage, on canvas: OpaquePointer, for info: OpaquePointer)
  -> [UInt8]
{
  picture.bytes.withUnsafeBytes { pixels in
    chafa_canvas_draw_all_pixels(
      canvas, CHAFA_PIXEL_RGBA8_PREMULTIPLIED,
      pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(picture.width),
      Int32(picture.height), Int32(picture.width * 4))
  }
  var text: UnsafeMutablePointer<CChar>?
  let count = confetti_chafa_print(canvas, info, &text)
  guard let text else { return [] }
  defer { confetti_chafa_free(text) }
  return text.withMemoryRebound(to: UInt8.self, capacity: count) {
    Array(UnsafeBufferPointer(start: $0, count: count))
  }
}

/// A frame in kitty's graphics protocol, as a PNG. chafa sends kitty raw pixels: 3.1 MB a
/// frame of the default effect in a 100×30 terminal (245 MB for its 78 frames, measured with
/// `script`), where PNGs take 58 KB a frame (4.6 MB), which a remote shell can carry; cells
/// take 13 KB a frame, sixels 82 KB (their palette the pieces' colours: ``SixelPicture``).
enum KittyPicture {
  /// The base64 bytes a chunk of the picture carries, as kitty asks (4096 at most).
  static let chunk = 4096

  /// Every earlier picture deleted (their memory freed), then `picture` over `columns`×`rows`
  /// cells from the cursor, which stays where it is; kitty is asked for no reply.
  static func frame(_ picture: RGBAImage, columns: Int, rows: Int) throws -> [UInt8] {
    let encoded = [UInt8](try PNG.encode(picture).base64EncodedData())
    var out = TerminalScreen.deletingPictures
    var offset = 0
    repeat {
      let end = min(encoded.count, offset + chunk)
      let more = end < encoded.count ? 1 : 0
      let control = offset == 0 ? "a=T,f=100,q=2,C=1,c=\(columns),r=\(rows),m=\(more)" : "m=\(more)"
      out += Array("\u{1B}_G\(control);".utf8)
      out += encoded[offset..<end]
      out += Array("\u{1B}\\".utf8)
      offset = end
    } while offset < encoded.count
    return out
  }
}

/// A frame in sixels, as chafa draws them. chafa's palette (255 colours) comes from a sample
/// of the picture's opaque pixels, where the terminal's background, most of a frame, would
/// take nearly all of it: the default effect at 1250×978 got 13 colours, its greens and
/// yellows none. So chafa is given the picture with the background's own pixels transparent,
/// and the palette is the pieces'; its sixels are then made opaque again, each band painted
/// in the background's colour before chafa's pixels, so that each frame covers the last
/// (transparent ones would leave trails, and erasing the screen first flickers where output
/// is not synchronised: xterm). The painting is the sixels' own, not a background mode (P2),
/// which terminals read differently (foot fills with colour 0 as it is when the picture
/// starts, xterm as it is at the end).
enum SixelPicture {
  /// `picture`, drawn over `background`, in sixels from chafa's `canvas` for `info`'s
  /// terminal, its palette the pieces'.
  static func text(
    of picture: RGBAImage, over background: RGBA8, on canvas: OpaquePointer,
    for info: OpaquePointer
  ) -> [UInt8] {
    let sixels = chafaText(
      of: clearing(background, in: picture), on: canvas, for: info)
    return filling(sixels, with: background)
      ?? chafaText(of: picture, on: canvas, for: info)
  }

  /// `picture` with its pixels of `background` transparent.
  static func clearing(_ background: RGBA8, in picture: RGBAImage) -> RGBAImage {
    var cleared = picture
    cleared.bytes.withUnsafeMutableBytes { bytes in
      var index = 0
      while index < bytes.count {
        if bytes[index] == background.red, bytes[index + 1] == background.green,
          bytes[index + 2] == background.blue
        {
          (bytes[index], bytes[index + 1], bytes[index + 2], bytes[index + 3]) = (0, 0, 0, 0)
        }
        index += 4
      }
    }
    return cleared
  }

  /// `sixels` (one picture, chafa's: `ESC P … q`, its raster attributes with its size, then
  /// its colours and data) with every pixel it leaves unset painted `background`: colour 0,
  /// which chafa uses for a colour of its own, moved to a number it leaves free; colour 0
  /// defined as `background`; each band (six rows) painted in it across the picture's width
  /// before chafa's pixels, the colour chafa had chosen chosen again after. Nil where
  /// `sixels` is not in that form or no colour number is free.
  static func filling(_ sixels: [UInt8], with background: RGBA8) -> [UInt8]? {
    let escape: UInt8 = 0x1B
    guard let start = sixels.firstIndex(of: escape), start + 1 < sixels.count,
      sixels[start + 1] == UInt8(ascii: "P"),
      let q = sixels[(start + 2)...].firstIndex(of: UInt8(ascii: "q")),
      q + 1 < sixels.count, sixels[q + 1] == UInt8(ascii: "\"")
    else { return nil }
    /// The number whose digits start at `index`, and the index after them.
    func number(at index: Int) -> (value: Int, next: Int)? {
      var (value, next) = (0, index)
      while next < sixels.count, (48...57).contains(sixels[next]), value < 100_000 {
        value = value * 10 + Int(sixels[next] - 48)
        next += 1
      }
      return next > index ? (value, next) : nil
    }
    // The raster attributes (`"Pan;Pad;Ph;Pv`): the width and height to paint.
    var raster: [Int] = []
    var body = q + 2
    while let (value, next) = number(at: body) {
      raster.append(value)
      body = next
      guard body < sixels.count, sixels[body] == UInt8(ascii: ";") else { break }
      body += 1
    }
    guard raster.count == 4, raster[2] > 0, raster[3] > 0 else { return nil }
    let (width, height) = (raster[2], raster[3])
    // The colours defined (`#N;2;…`): the first number not among them takes colour 0's place.
    var defined = Set<Int>()
    var index = body
    while index < sixels.count {
      if sixels[index] == UInt8(ascii: "#"), let (colour, next) = number(at: index + 1) {
        if next < sixels.count, sixels[next] == UInt8(ascii: ";") { defined.insert(colour) }
        index = next
      } else {
        index += 1
      }
    }
    guard let free = (1..<256).first(where: { !defined.contains($0) }) else { return nil }
    func percent(_ channel: UInt8) -> Int { Int((Double(channel) * 100 / 255).rounded()) }
    var out = Array(sixels[..<body])
    out.reserveCapacity(sixels.count + height / 6 * 16 + 32)
    out += Array(
      "#0;2;\(percent(background.red));\(percent(background.green));\(percent(background.blue))"
        .utf8)
    var (row, current) = (0, 0)
    /// The band from `row` painted in colour 0, then `current` chosen again.
    func paintBand() {
      let rows = min(6, height - row)
      guard rows > 0 else { return }
      let sixel = Character(UnicodeScalar(UInt8(0x3F + (1 << rows) - 1)))
      out += Array("#0!\(width)\(sixel)$#\(current)".utf8)
    }
    paintBand()
    index = body
    while index < sixels.count {
      let byte = sixels[index]
      if byte == UInt8(ascii: "#"), let (colour, next) = number(at: index + 1) {
        current = colour == 0 ? free : colour
        out += Array("#\(current)".utf8)
        index = next
      } else {
        out.append(byte)
        index += 1
        if byte == UInt8(ascii: "-") {
          row += 6
          paintBand()
        }
      }
    }
    return out
  }
}

/// Seconds on the system's monotonic clock.
private func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

extension TerminalScreen {
  /// Before a frame: synchronised output begun (the terminal shows the frame whole), the
  /// cursor at `origin` (counted from 0 at the top left).
  static func frameStart(at origin: (column: Int, row: Int)) -> [UInt8] {
    Array("\u{1B}[?2026h\u{1B}[\(origin.row + 1);\(origin.column + 1)H".utf8)
  }
  /// After it: synchronised output ended.
  static let frameEnd = Array("\u{1B}[?2026l".utf8)
}

/// How a terminal of some size is drawn in: its cells, the picture rendered for them, and the
/// points the effect lives in.
struct TerminalLayout {
  /// The columns drawn: all of them, up to ``mostCells``; for sixels no more than the
  /// terminal shows.
  var columns: Int
  /// The rows drawn: all of them for cells; for pictures all but the last, which a picture
  /// reaching it would scroll; up to ``mostCells``; for sixels no more than the terminal shows.
  var rows: Int
  /// The cell the drawing starts at, counted from 0 at the top left: where fewer than the
  /// terminal's columns or rows are drawn they are centred, else the top left.
  var origin: (column: Int, row: Int) = (0, 0)
  /// A cell's size in pixels: the terminal's where it says, else a common one.
  var cell: PixelSize
  /// The picture rendered.
  var picture: PixelSize
  /// The effect's area, in points.
  var points: Size

  /// A cell's size where the terminal does not say: a common one.
  static let usualCell = PixelSize(width: 10, height: 20)

  /// The largest sixel picture drawn, whatever the terminal says (or where it says nothing):
  /// a 4K screen's. A terminal claiming more pixels asked for gigabytes (65,535² pixels:
  /// GLib could not allocate), or a frame a second.
  static let largestSixels = PixelSize(width: 4096, height: 4096)

  /// The most cells drawn, across and down, whatever the terminal says: more than a screen
  /// shows (a 4K screen in a 6-pixel font is 640 columns), and what chafa and the GL can make
  /// of them each frame (as cells, a 4096×4096 picture). A terminal claiming 65,535 each way
  /// once had GLib trap allocating its canvas.
  static let mostCells = (columns: 512, rows: 256)

  /// The fewest pixels down a sixel picture may have: chafa draws sixels six rows at a time,
  /// and stops with a floating-point exception on a picture under six.
  static let fewestSixelRows = 6

  /// Whether there is room to draw: a column and a row at least, and for sixels six pixels
  /// down.
  var canBeDrawn: Bool {
    columns > 0 && rows > 0 && (!isSixels || rows * cell.height >= Self.fewestSixelRows)
  }
  /// Laid out for sixels.
  private var isSixels = false

  /// Whether this layout draws what `other` does, where it does: the same cells, cell size
  /// and first cell.
  func drawsAsDrawn(by other: TerminalLayout) -> Bool {
    columns == other.columns && rows == other.rows && cell == other.cell
      && origin == other.origin
  }

  /// Pixels a cell gets in the picture that cells are made from (chafa reads each cell's
  /// 8×8 pixels; twice as many down keeps a cell's shape).
  static let cellPicture = PixelSize(width: 8, height: 16)

  /// A cell's size in the effect's points when drawn as cells: half its picture's, so that a
  /// piece is two or three cells across, as big as cells can show its shape.
  static let cellPoints = Size(width: 4, height: 8)

  /// The layout of a terminal of `size` drawn with `choice`, which gave `replies`; `lastCell`:
  /// the cell size of its last layout, kept where a resized terminal no longer says its pixels
  /// (xterm) — its text area's reply is of its first size.
  init(
    _ size: (columns: Int, rows: Int, pixels: PixelSize?), choice: TerminalChoice,
    replies: TerminalReplies, lastCell: PixelSize? = nil
  ) {
    columns = size.columns
    /// The cell's size in `pixels`, where they are a text area of `size`.
    func cellSize(in pixels: PixelSize?) -> PixelSize? {
      guard let pixels, size.columns > 0, size.rows > 0,
        pixels.width >= size.columns, pixels.height >= size.rows
      else { return nil }
      return PixelSize(width: pixels.width / size.columns, height: pixels.height / size.rows)
    }
    cell =
      cellSize(in: size.pixels) ?? lastCell ?? cellSize(in: replies.textArea) ?? Self.usualCell
    // Cells fill the terminal; a picture all but its last row.
    let room = (
      columns: columns, rows: choice.graphics == .cells ? size.rows : max(0, size.rows - 1)
    )
    rows = room.rows
    // However big the terminal says it is, no more than ``mostCells`` are drawn.
    var fitting = (
      columns: min(columns, Self.mostCells.columns), rows: min(rows, Self.mostCells.rows)
    )
    if choice.graphics == .sixel {
      isSixels = true
      // A sixel picture bigger than the terminal shows is not shown at all (xterm's is
      // 1000×1000 at most): as many cells as fit.
      let said = replies.largestSixels ?? Self.largestSixels
      let largest = PixelSize(
        width: min(said.width, Self.largestSixels.width),
        height: min(said.height, Self.largestSixels.height))
      fitting = (
        columns: min(fitting.columns, largest.width / cell.width),
        rows: min(fitting.rows, largest.height / cell.height)
      )
    }
    // Fewer than there are: centred.
    origin = ((room.columns - fitting.columns) / 2, (room.rows - fitting.rows) / 2)
    (columns, rows) = fitting
    if choice.graphics == .cells {
      picture = PixelSize(
        width: columns * Self.cellPicture.width, height: rows * Self.cellPicture.height)
      points = Size(
        width: Double(columns) * Self.cellPoints.width,
        height: Double(rows) * Self.cellPoints.height)
    } else {
      let width = columns * cell.width
      let height = rows * cell.height
      // The effect lives in the terminal's own pixels; the picture is at most so wide.
      let shrink = min(1, Double(TerminalCelebration.widestPicture) / Double(max(1, width)))
      picture = PixelSize(
        width: max(1, Int((Double(width) * shrink).rounded())),
        height: max(1, Int((Double(height) * shrink).rounded())))
      points = Size(width: Double(width), height: Double(height))
    }
  }

  /// A chafa canvas for this layout and `choice`, pictures over `background` (pixels chafa
  /// makes partly transparent, at the edges of those ``SixelPicture`` clears, are laid over
  /// it: over chafa's own black, pieces on a light background had dark rims).
  /// chafa_canvas_unref() it.
  func canvas(_ choice: TerminalChoice, background: RGBA8) -> OpaquePointer {
    let config = chafa_canvas_config_new()
    defer { chafa_canvas_config_unref(config) }
    chafa_canvas_config_set_bg_color(
      config,
      UInt32(background.red) << 16 | UInt32(background.green) << 8 | UInt32(background.blue))
    chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
    chafa_canvas_config_set_cell_geometry(config, Int32(cell.width), Int32(cell.height))
    switch choice.graphics {
    case .kitty: chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_KITTY)
    case .sixel: chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SIXELS)
    case .cells:
      chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
      let symbols = chafa_symbol_map_new()
      chafa_symbol_map_add_by_tags(
        symbols, ChafaSymbolTags(CHAFA_SYMBOL_TAG_SPACE.rawValue | CHAFA_SYMBOL_TAG_BLOCK.rawValue))
      chafa_canvas_config_set_symbol_map(config, symbols)
      chafa_symbol_map_unref(symbols)
    }
    let mode: ChafaCanvasMode =
      switch choice.colors {
      case .direct: CHAFA_CANVAS_MODE_TRUECOLOR
      case .indexed256: CHAFA_CANVAS_MODE_INDEXED_240
      case .indexed16: CHAFA_CANVAS_MODE_INDEXED_16
      case .none: CHAFA_CANVAS_MODE_FGBG
      }
    chafa_canvas_config_set_canvas_mode(
      config, choice.graphics == .cells ? mode : CHAFA_CANVAS_MODE_TRUECOLOR)
    return chafa_canvas_new(config)
  }
}
