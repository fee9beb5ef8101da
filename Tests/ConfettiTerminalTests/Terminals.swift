import ConfettiImage
import ConfettiTestSupport
import Foundation
import XCTest

/// A tmux server of a test's own (its own socket), with one pane of a fixed size running bash
/// (whose line editing echoes a key typed before its prompt, as a user's shell does): a
/// terminal whose screen, cursor and modes the test reads.
final class Tmux {
  private let tmux: URL
  private let socket = "confetti-test-\(UUID().uuidString.prefix(8))"

  /// bash, with the prompt "$ ".
  static let bash = ["env", "PS1=$ ", "bash", "--norc", "--noprofile"]

  /// A pane running `shell` (a command line), with no display unless `display` names one.
  init(columns: Int, rows: Int, shell: [String] = Tmux.bash, display: String? = nil) throws {
    tmux = try requiredProgram("tmux", for: "a terminal to draw in")
    // No display unless asked: what a remote shell has. The server keeps every
    // descriptor it is started with, and Foundation waits for the last holder of one of its own
    // to end: the server starts with /dev/null and nothing else.
    let bash = try requiredProgram("bash", for: "starting tmux")
    let started = try runProgram(
      bash,
      [
        "-c",
        "for fd in $(ls /proc/$$/fd); do [ \"$fd\" -gt 2 ] && eval \"exec $fd>&-\"; done; "
          + "exec \"$0\" \"$@\" </dev/null >/dev/null 2>&1",
        tmux.path, "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y",
        "\(rows)", "env", "-u", "DISPLAY", "-u", "WAYLAND_DISPLAY",
      ] + (display.map { ["DISPLAY=\($0)"] } ?? []) + shell,
      timeout: 30)
    guard started.status == 0 else { throw TestFailure("tmux did not start: \(started.stderr)") }
  }

  deinit {
    _ = try? runProgram(tmux, ["-L", socket, "kill-server"], timeout: 30)
  }

  @discardableResult
  func command(_ arguments: [String]) throws -> String {
    let result = try runProgram(tmux, ["-L", socket] + arguments, timeout: 30)
    guard result.status == 0 else {
      throw TestFailure("tmux \(arguments.joined(separator: " ")): \(result.stderr)")
    }
    return result.stdout
  }

  /// Types `line` into the pane, and Enter.
  func type(_ line: String) throws {
    try command(["send-keys", "-t", "0", "-l", line])
    try command(["send-keys", "-t", "0", "Enter"])
  }

  /// Presses a key, as tmux names it (`x`, `C-c`).
  func press(_ key: String) throws { try command(["send-keys", "-t", "0", key]) }

  /// The pane's screen, with its colours as escapes where asked.
  func screen(escapes: Bool = false) throws -> String {
    try command(["capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : []))
  }

  /// One of tmux's formats for the pane: `#{alternate_on}`, `#{cursor_flag}`.
  func value(_ format: String) throws -> String {
    try command(["display-message", "-p", "-t", "0", format])
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Whether the pane is on its alternate screen, and its cursor shown.
  var borrowed: Bool { get throws { try value("#{alternate_on}") == "1" } }
  var cursorShown: Bool { get throws { try value("#{cursor_flag}") == "1" } }
}

/// A terminal's screen as cells: each cell's character and colours, read from tmux's
/// `capture-pane -e` (its SGR sequences).
struct ScreenCells {
  struct Cell {
    var character: Character = " "
    var foreground: [Int]?
    var background: [Int]?
    var inverse = false
    /// Whether anything shows in it: a character, or a colour where there is none.
    var isDrawn: Bool { character != " " || background != nil || inverse }
    /// The 24-bit colours it shows: its character's and its background's.
    var colours: [[Int]] {
      [foreground, background].compactMap { $0 }.filter { $0[1] >= 0 }
    }
  }

  var rows: [[Cell]] = []

  init(capture: String) {
    for line in capture.split(separator: "\n", omittingEmptySubsequences: false) {
      var row: [Cell] = []
      var state = Cell()
      var characters = Array(line)
      var index = 0
      while index < characters.count {
        let character = characters[index]
        if character == "\u{1B}", index + 1 < characters.count, characters[index + 1] == "[" {
          var end = index + 2
          while end < characters.count, !characters[end].isLetter { end += 1 }
          guard end < characters.count else { break }
          if characters[end] == "m" {
            let numbers = String(characters[(index + 2)..<end]).split(
              separator: ";", omittingEmptySubsequences: false
            ).map { Int($0) ?? 0 }
            Self.apply(numbers.isEmpty ? [0] : numbers, to: &state)
          }
          index = end + 1
          continue
        }
        var cell = state
        cell.character = character
        row.append(cell)
        index += 1
      }
      characters.removeAll()
      rows.append(row)
    }
  }

  private static func apply(_ numbers: [Int], to state: inout Cell) {
    var index = 0
    while index < numbers.count {
      switch numbers[index] {
      case 0: state = Cell()
      case 7: state.inverse = true
      case 27: state.inverse = false
      case 39: state.foreground = nil
      case 49: state.background = nil
      case 38, 48:
        let code = numbers[index]
        var colour: [Int]?
        if index + 4 < numbers.count, numbers[index + 1] == 2 {
          colour = Array(numbers[(index + 2)...(index + 4)])
          index += 4
        } else if index + 2 < numbers.count, numbers[index + 1] == 5 {
          colour = [numbers[index + 2], -1, -1]
          index += 2
        }
        if code == 38 { state.foreground = colour } else { state.background = colour }
      case 30...37, 90...97: state.foreground = [numbers[index], -1, -1]
      case 40...47, 100...107: state.background = [numbers[index], -1, -1]
      default: break
      }
      index += 1
    }
  }

  subscript(row: Int, column: Int) -> Cell {
    row < rows.count && column < rows[row].count ? rows[row][column] : Cell()
  }
}

/// The share of each `block`×`block` square of `image` that holds a piece: pixels that are not
/// `background` (by more than a little, all channels together), or with transparency where
/// `background` is nil, opaque more than half.
func coverage(
  of image: RGBAImage, block: (width: Int, height: Int), origin: (x: Int, y: Int) = (0, 0),
  size: (width: Int, height: Int)? = nil, background: [Int]?
) -> [[Double]] {
  let (width, height) = size ?? (image.width, image.height)
  let columns = width / block.width
  let rows = height / block.height
  var shares = Array(repeating: Array(repeating: 0.0, count: columns), count: rows)
  for row in 0..<rows {
    for column in 0..<columns {
      var covered = 0
      for y in 0..<block.height {
        for x in 0..<block.width {
          let px = origin.x + column * block.width + x
          let py = origin.y + row * block.height + y
          guard px < image.width, py < image.height else { continue }
          let at = (py * image.width + px) * 4
          if let background {
            let difference = (0..<3).map { abs(Int(image.bytes[at + $0]) - background[$0]) }
              .reduce(0, +)
            if difference > 60 { covered += 1 }
          } else if image.bytes[at + 3] > 127 {
            covered += 1
          }
        }
      }
      shares[row][column] = Double(covered) / Double(block.width * block.height)
    }
  }
  return shares
}

/// The correlation of two grids of the same shape, flattened.
func correlation(_ a: [[Double]], _ b: [[Double]]) -> Double {
  let x = a.flatMap { $0 }
  let y = b.flatMap { $0 }
  guard x.count == y.count, !x.isEmpty else { return 0 }
  let mx = x.reduce(0, +) / Double(x.count)
  let my = y.reduce(0, +) / Double(y.count)
  var (sxy, sxx, syy) = (0.0, 0.0, 0.0)
  for (p, q) in zip(x, y) {
    sxy += (p - mx) * (q - my)
    sxx += (p - mx) * (p - mx)
    syy += (q - my) * (q - my)
  }
  return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
}

/// A terminal of a test's own making: a pseudo-terminal whose size, in cells and pixels, the
/// test sets (and changes), which answers confetti's questions as it is told, and keeps every
/// byte confetti writes. confetti runs as the session leader with it as its controlling
/// terminal, as in a terminal window.
final class FakeTerminal {
  /// What the terminal answers: its primary device attributes (`63;4`: sixels), the largest
  /// sixel picture (nil: no answer) and its background; and how late: the seconds each round
  /// of questions waits for its answer, by round (none: at once), as over a slow link. The
  /// rounds are answered in order.
  struct Replies {
    var attributes = "63;4"
    var largestSixels: (width: Int, height: Int)? = (1000, 1000)
    var background = "0000/0000/0000"
    var delays: [TimeInterval] = []
    /// Seconds between the bytes of an answer (0: all at once), as over a slow serial line.
    var bytePause: TimeInterval = 0
    /// Whether the background colour's reply never ends (no string terminator).
    var endlessBackground = false
  }

  /// What confetti wrote, and how far its questions were answered, shared with the reader.
  private final class Record: @unchecked Sendable {
    let lock = NSLock()
    var bytes: [UInt8] = []
    /// Where the questions not yet answered begin, and how far they were looked for.
    var (unanswered, scanned) = (0, 0)
    /// Signalled once the terminal's last byte is read (confetti and its children gone).
    let closed = DispatchSemaphore(value: 0)
    /// The terminal's local modes then.
    var lastModes: tcflag_t?

    /// Keeps `more`, and returns the questions it ends (up to the device attributes' `ESC [ c`,
    /// which ends each round of them), to be answered; empty when none.
    func keep(_ more: [UInt8]) -> [UInt8] {
      lock.lock()
      defer { lock.unlock() }
      bytes += more
      while scanned + 3 <= bytes.count {
        let at = scanned
        scanned += 1
        if bytes[at] == 0x1B, bytes[at + 1] == UInt8(ascii: "["), bytes[at + 2] == UInt8(ascii: "c")
        {
          let questions = Array(bytes[unanswered..<(at + 3)])
          (unanswered, scanned) = (at + 3, at + 3)
          return questions
        }
      }
      return []
    }

    var copy: [UInt8] {
      lock.lock()
      defer { lock.unlock() }
      return bytes
    }
  }

  let process = Process()
  private let master: Int32
  /// A copy of confetti's end of the terminal, closed once confetti has ended (its end of file
  /// waits for every copy).
  private var sharedTerminal: Int32 = -1
  /// The open terminal's status flags (`O_NONBLOCK`…) as confetti left them, once it has ended.
  private(set) var flagsLeft: Int32?
  private let record = Record()

  /// `arguments` given to confetti in a terminal of `columns`×`rows` cells of `pixels`
  /// (nil: it says none), answering `replies`, with the X display `display` named (nil: none).
  init(
    _ arguments: [String], columns: Int, rows: Int, pixels: (width: Int, height: Int)?,
    replies: Replies = Replies(), display: String? = nil
  ) throws {
    var (master, slave): (Int32, Int32) = (-1, -1)
    var size = Self.size(columns: columns, rows: rows, pixels: pixels)
    guard openpty(&master, &slave, nil, nil, &size) == 0 else {
      throw TestFailure("no pseudo-terminal: \(String(cString: strerror(errno)))")
    }
    self.master = master
    let setsid = try requiredProgram("setsid", for: "a terminal of confetti's own")
    process.executableURL = setsid
    process.arguments = ["--wait", "--ctty", confettiBinary.path] + arguments
    var environment = ProcessInfo.processInfo.environment
    (environment["DISPLAY"], environment["WAYLAND_DISPLAY"], environment["TMUX"]) = (nil, nil, nil)
    (environment["TERM"], environment["COLORTERM"]) = ("xterm-256color", "truecolor")
    environment["DISPLAY"] = display
    process.environment = environment
    // The open terminal confetti is given, shared as a shell shares it: its status flags are
    // read through this copy until confetti has ended.
    sharedTerminal = fcntl(slave, F_DUPFD_CLOEXEC, 0)
    let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
    (process.standardInput, process.standardOutput, process.standardError) =
      (terminal, terminal, terminal)
    /// The answers to `questions`: each one asked that the terminal knows, then the device
    /// attributes.
    @Sendable func answers(to questions: [UInt8]) -> [UInt8] {
      let asked = String(decoding: questions, as: UTF8.self)
      var reply = ""
      if asked.contains("\u{1B}[14t") {
        reply += "\u{1B}[4;\(pixels?.height ?? 0);\(pixels?.width ?? 0)t"
      }
      if asked.contains("\u{1B}[?2;4;0S"), let largest = replies.largestSixels {
        reply += "\u{1B}[?2;0;\(largest.width);\(largest.height)S"
      }
      if asked.contains("\u{1B}]11;?") {
        reply += "\u{1B}]11;rgb:\(replies.background)"
        if !replies.endlessBackground { reply += "\u{1B}\\" }
      }
      return Array((reply + "\u{1B}[?\(replies.attributes)c").utf8)
    }
    // Everything confetti writes is kept, until the terminal is closed; each round of its
    // questions is answered.
    let (record, descriptor) = (self.record, master)
    let (delays, pause) = (replies.delays, replies.bytePause)
    let answering = DispatchQueue(label: "FakeTerminal answers")
    Thread.detachNewThread {
      var round = 0
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else {
          // Every end of the terminal closed (EIO): all confetti wrote has been kept, and its
          // modes are as it left them. Closed after the answers still to write, so that none
          // goes to a number reused since.
          var mode = termios()
          if tcgetattr(descriptor, &mode) == 0 {
            record.lock.withLock { record.lastModes = mode.c_lflag }
          }
          answering.sync { _ = close(descriptor) }
          record.closed.signal()
          return
        }
        let questions = record.keep(Array(buffer[0..<count]))
        if !questions.isEmpty {
          let (answer, delay) = (answers(to: questions), round < delays.count ? delays[round] : 0)
          round += 1
          answering.async {
            // A slow terminal is what is tested, not a stand-in: its answer comes late.
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            guard pause > 0 else {
              _ = write(descriptor, answer, answer.count)
              return
            }
            for byte in answer {
              _ = withUnsafeBytes(of: byte) { write(descriptor, $0.baseAddress, 1) }
              // Paced on purpose, not a stand-in: an answer that trickles in, byte by byte.
              Thread.sleep(forTimeInterval: pause)
            }
          }
        }
      }
    }
    try process.run()
    try? terminal.close()
  }

  /// The reader closes the terminal once confetti is gone, not before: its number is not
  /// another's while it still reads.
  deinit {
    if process.isRunning { process.terminate() }
    if sharedTerminal >= 0 { close(sharedTerminal) }
  }

  /// Everything confetti has written so far.
  var output: [UInt8] { record.copy }
  /// The sizes (the raster attributes: width and height) of the sixel pictures written so far.
  var sixelSizes: [(width: Int, height: Int)] {
    let bytes = output
    var sizes: [(Int, Int)] = []
    var index = 0
    while index + 1 < bytes.count {
      defer { index += 1 }
      guard bytes[index] == 0x1B, bytes[index + 1] == UInt8(ascii: "P"),
        let q = bytes[index...].firstIndex(of: UInt8(ascii: "q")), q + 1 < bytes.count,
        bytes[q + 1] == UInt8(ascii: "\"")
      else { continue }
      var end = q + 2
      while end < bytes.count, (48...59).contains(bytes[end]) { end += 1 }
      let numbers = String(decoding: bytes[(q + 2)..<end], as: UTF8.self)
        .split(separator: ";").compactMap { Int($0) }
      if numbers.count == 4 { sizes.append((numbers[2], numbers[3])) }
      index = end
    }
    return sizes
  }

  /// Sets the terminal's size: its cells, and its pixels (nil: none said).
  func resize(columns: Int, rows: Int, pixels: (width: Int, height: Int)?) {
    var size = Self.size(columns: columns, rows: rows, pixels: pixels)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
  }

  /// A terminal size as the kernel keeps it: `columns`×`rows` cells of `pixels` (nil: none).
  private static func size(columns: Int, rows: Int, pixels: (width: Int, height: Int)?)
    -> winsize
  {
    winsize(
      ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: UInt16(pixels?.width ?? 0),
      ws_ypixel: UInt16(pixels?.height ?? 0))
  }

  /// Types `key`.
  func press(_ key: String) {
    let bytes = Array(key.utf8)
    _ = write(master, bytes, bytes.count)
  }

  /// Waits (up to `timeout` seconds) for confetti to end and everything it wrote to be read,
  /// and returns its exit status.
  /// Whether the terminal echoes keys and edits lines, as a shell leaves it (its settings,
  /// read from this side of it; once confetti has ended, as it left them).
  var echoesAndEditsLines: Bool {
    var mode = termios()
    let lastModes = record.lock.withLock { record.lastModes }
    guard let modes = lastModes ?? (tcgetattr(master, &mode) == 0 ? mode.c_lflag : nil) else {
      return false
    }
    return modes & tcflag_t(ECHO | ICANON) == tcflag_t(ECHO | ICANON)
  }

  /// confetti's own process (setsid's child).
  var celebration: pid_t? {
    let pid = process.processIdentifier
    return (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8))
      .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
  }

  func status(within timeout: TimeInterval = 60) throws -> Int32 {
    try waitUntil("confetti to end in its terminal", timeout: timeout) { !process.isRunning }
    if sharedTerminal >= 0 {
      flagsLeft = fcntl(sharedTerminal, F_GETFL)
      close(sharedTerminal)
      sharedTerminal = -1
    }
    guard record.closed.wait(timeout: .now() + timeout) == .success else {
      throw TestFailure("confetti's terminal was not closed \(Int(timeout)) s after it ended")
    }
    record.closed.signal()  // for a second call
    return process.terminationStatus
  }
}
