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

/// Waits until `condition` holds, up to `timeout` seconds; throws `what` when it never does.
func waitUntil(
  _ what: @autoclosure () -> String, timeout: Double = 60, _ condition: () throws -> Bool
) throws {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if try condition() { return }
    usleep(50_000)
  }
  throw TestFailure("waited \(Int(timeout)) s for \(what())")
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
