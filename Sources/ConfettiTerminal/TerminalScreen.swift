import CChafa
import CCrash
import ConfettiGL
import ConfettiPlatform
import FoundationEssentials
import Glibc

/// The terminal a celebration draws in, borrowed and given back as it was: its alternate
/// screen (so the text, the scrollback and the cursor are untouched), the cursor hidden, lines
/// not wrapped, keys not echoed; and the replies to its questions.
///
/// Drawing goes to standard output, which must be a terminal. Keys and replies are read from
/// the controlling terminal (`/dev/tty`), where there is one: a key ends the celebration, and is
/// left for the shell to read.
final class TerminalScreen {
  /// Where frames are written: standard output.
  let output: Int32
  /// Where keys and replies come from; nil: none (no controlling terminal).
  private let input: Int32?
  /// The input's settings as they were, where they could be read.
  private var saved = termios()
  private var savedMode = false
  private var entered = false
  /// Whether a write stopped part-way (``write(_:shouldStop:)``): a frame may be left open.
  private var cutShort = false
  /// Whether pictures (kitty's) were drawn, to be deleted as the screen is left.
  var drewKittyPictures = false {
    didSet { if entered { noteGivingBack() } }
  }
  /// Rounds of questions (``ask(_:timeout:)``) whose replies have not all come: a terminal on a
  /// slow link answers after confetti stopped waiting, and what comes then is not a key.
  private var owedRounds = 0
  /// The start of a late reply, read before the rest of it came, and when its last byte came.
  private var partialReply: [UInt8] = []
  private var partialSince = Date.distantPast
  /// Keys read with the replies to the questions: most were typed ahead, while the terminal
  /// still edited lines. Given back to its input as the screen is left.
  private var keysTypedAhead: [UInt8] = []
  /// Keys read among late replies: given back after those.
  private var keysRead: [UInt8] = []

  /// A reply's bytes come close together: the start of one whose next byte does not come
  /// within this (seconds) was typed (Esc, Alt-], Alt-_), or is a reply that never ends.
  static let replyGap = 0.2
  /// The longest a reply can be, in bytes: anything longer is not one.
  static let longestReply = 4096
  /// The most input the kernel holds for a terminal, in bytes (Linux's N_TTY_BUF_SIZE; one
  /// less is kept): more keys put back are lost.
  static let inputHeld = 4096
  /// How long the screen, as it is left, waits for replies still owed (which the shell would
  /// print), in seconds.
  static let owedRepliesGrace = 1.0

  /// Why the terminal cannot be drawn in, said in one line.
  struct Refusal: Error, CustomStringConvertible {
    let description: String
  }

  /// The terminal on standard output, which must be one
  /// (``TerminalCelebration/refusal(in:)`` says).
  init() {
    let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    input = tty >= 0 ? tty : (isatty(STDIN_FILENO) == 1 ? STDIN_FILENO : nil)
    (output, ownsInput) = (STDOUT_FILENO, tty >= 0)
  }

  /// A terminal whose descriptors the caller keeps (tests: a pseudo-terminal's other end).
  init(input: Int32, output: Int32) {
    (self.input, self.output, ownsInput) = (input, output, false)
  }

  /// Whether `input` was opened here, to be closed with the screen.
  private let ownsInput: Bool

  deinit {
    leave()
    if let input, ownsInput { close(input) }
  }

  /// The terminal's size in cells, and in pixels where it says.
  func size() -> (columns: Int, rows: Int, pixels: PixelSize?) {
    var (columns, rows, width, height): (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    guard confetti_terminal_size(output, &columns, &rows, &width, &height) == 0 else {
      return (0, 0, nil)
    }
    let pixels =
      width > 0 && height > 0 ? PixelSize(width: Int(width), height: Int(height)) : nil
    return (Int(columns), Int(rows), pixels)
  }

  /// Switches to the alternate screen, clears it, hides the cursor and stops echoing keys.
  func enter() {
    guard !entered else { return }
    entered = true
    if let input, tcgetattr(input, &saved) == 0 {
      savedMode = true
      var quiet = saved
      // Keys come one at a time and are not echoed; Ctrl-C still sends SIGINT.
      quiet.c_lflag &= ~tcflag_t(ICANON | ECHO)
      withUnsafeMutableBytes(of: &quiet.c_cc) { cc in
        cc[Int(VMIN)] = 0
        cc[Int(VTIME)] = 0
      }
      tcsetattr(input, TCSANOW, &quiet)
    }
    noteGivingBack()
    try? write(Self.entering)
  }

  /// What gives the terminal back should the process end without leaving it (a crash, a
  /// signal's deadline): the sequences that end any frame cut short and leave the screen, and
  /// the input's settings as they were.
  private func noteGivingBack() {
    let bytes =
      Self.endingACutFrame + (drewKittyPictures ? Self.deletingPictures : []) + Self.leaving
    bytes.withUnsafeBytes { bytes in
      if let input, savedMode {
        confetti_crash_gives_back(output, bytes.baseAddress, bytes.count, input, &saved)
      } else {
        confetti_crash_gives_back(output, bytes.baseAddress, bytes.count, -1, nil)
      }
    }
  }

  /// The sequences that borrow the screen: the alternate screen (its cursor saved), cleared,
  /// the cursor hidden, lines not wrapped at the right edge.
  static let entering = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[2J".utf8)

  /// The sequences that give it back: colours reset, wrapping and the cursor back, the main
  /// screen and its cursor.
  static let leaving = Array("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l".utf8)

  /// Before them where a frame was cut short: a string terminator (ends a picture, and cancels
  /// a cut colour) and synchronised output ended. Only then: a terminal logs either where
  /// nothing is open (kitty: "Unknown char after ESC", "Pending mode stop command issued
  /// while not in pending mode").
  static let endingACutFrame = Array("\u{1B}\\\u{1B}[?2026l".utf8)

  /// kitty's: every picture deleted, its memory freed.
  static let deletingPictures = Array("\u{1B}_Ga=d,d=A\u{1B}\\".utf8)

  /// Gives the terminal back as it was. Safe to call more than once.
  func leave() {
    guard entered else { return }
    entered = false
    var bytes = cutShort ? Self.endingACutFrame : []
    if drewKittyPictures { bytes += Self.deletingPictures }
    bytes += Self.leaving
    try? write(bytes)
    // Replies still owed would reach the shell, which would print them: waited for a moment.
    if owedRounds > 0 || !partialReply.isEmpty {
      let deadline = Date().addingTimeInterval(Self.owedRepliesGrace)
      waiting: while owedRounds > 0 || !partialReply.isEmpty {
        switch readLateReplies(until: deadline) {
        case .nothing, .closed: break waiting
        case .replies: continue
        case .keys(let keys): keysRead += keys
        }
      }
      // (A reply begun and cut off by the grace is dropped.)
      partialReply = []
    }
    // Keys still waiting (pressed while it drew, typed since the others were read) are read
    // too, to be given back after those and under the terminal's own settings: waiting, they
    // would come first, their line editing (Ctrl-U, Ctrl-D) undone, the first alone.
    let typedSince = keysRead + (Self.canGiveBack ? waitingInput() : [])
    if !keysTypedAhead.isEmpty || !typedSince.isEmpty {
      giveBack(typedAhead: keysTypedAhead, typedSince: typedSince)
    }
    (keysTypedAhead, keysRead) = ([], [])
    if let input, savedMode { tcsetattr(input, TCSANOW, &saved) }
    confetti_crash_gives_back_nothing()
  }

  /// Asks `questions` and reads the replies until the terminal has answered the last (the
  /// device attributes: those of every round still owed, too) or `timeout` seconds passed.
  /// Keys typed meanwhile, or before, are read too, and kept for the shell. Replies that come
  /// later are read, and dropped, by ``keyWaiting(within:)``.
  func ask(_ questions: [UInt8], timeout: Double) -> TerminalReplies {
    guard input != nil else { return TerminalReplies() }
    do { try write(questions) } catch { return TerminalReplies() }
    owedRounds += 1
    var received = partialReply
    var late = TerminalReplies.lateReplies(in: received)
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline, case .bytes(let bytes) = readInput(until: deadline) {
      received += bytes
      late = TerminalReplies.lateReplies(in: received)
      // The device attributes end each round's replies: ESC [ ? … c.
      if late.answered >= owedRounds { break }
    }
    settle(late)
    // Keys typed ahead (while the command before ran) or while it asked: kept for the shell,
    // and they end the celebration as any key does.
    keysTypedAhead += late.keys
    return TerminalReplies.parse(received)
  }

  /// Waits up to `seconds` for a key; true when one is waiting (it is not read: the shell
  /// gets it). While replies are owed, what comes is read: replies are dropped, and keys
  /// among them end the wait (given back to the terminal's input for the shell as the screen
  /// is left, where the system lets a program do that: TIOCSTI).
  func keyWaiting(within seconds: Double) -> Bool {
    guard let input else {
      if seconds > 0 { usleep(useconds_t(seconds * 1_000_000)) }
      return false
    }
    // A key read while asking, or among late replies, is one pressed.
    if !keysTypedAhead.isEmpty || !keysRead.isEmpty { return true }
    let deadline = Date().addingTimeInterval(max(0, seconds))
    while owedRounds > 0 || !partialReply.isEmpty {
      switch readLateReplies(until: deadline) {
      case .nothing: return false
      case .replies: continue
      case .keys(let keys):
        keysRead += keys
        return true
      case .closed: return true
      }
    }
    var waiting = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
    while true {
      let ready = poll(&waiting, 1, Int32(max(0, deadline.timeIntervalSinceNow) * 1000))
      if ready < 0 && errno == EINTR { continue }
      return ready > 0 && waiting.revents & Int16(POLLIN | POLLHUP) != 0
    }
  }

  /// What came from the terminal while replies were owed.
  private enum LateInput {
    /// Nothing by the deadline.
    case nothing
    /// Replies only (dropped), or the start of one.
    case replies
    /// Keys typed, read among the replies.
    case keys([UInt8])
    /// The terminal is gone.
    case closed
  }

  /// Reads what the terminal sends, while replies are owed, until `deadline`. The start of a
  /// reply whose next byte does not come within ``replyGap``, or that grows past
  /// ``longestReply``, is keys.
  private func readLateReplies(until deadline: Date) -> LateInput {
    guard input != nil else { return .nothing }
    while Date() < deadline || !partialReply.isEmpty {
      // A reply begun is waited for until its next byte is late.
      let gapEnds = partialSince.addingTimeInterval(Self.replyGap)
      switch readInput(until: partialReply.isEmpty ? deadline : min(deadline, gapEnds)) {
      case .nothing:
        if !partialReply.isEmpty && Date() >= gapEnds {
          defer { partialReply = [] }
          return .keys(partialReply)
        }
        if Date() >= deadline { return .nothing }
      case .closed: return .closed
      case .bytes(let bytes):
        let late = TerminalReplies.lateReplies(in: partialReply + bytes)
        settle(late)
        var keys = late.keys
        if partialReply.count > Self.longestReply {
          keys += partialReply
          partialReply = []
        }
        return keys.isEmpty ? .replies : .keys(keys)
      }
    }
    return .nothing
  }

  /// Notes what was read while replies were owed (``TerminalReplies/lateReplies(in:)``): the
  /// rounds it answered, and the reply it began, if any, from now.
  private func settle(_ late: (answered: Int, keys: [UInt8], rest: [UInt8])) {
    (owedRounds, partialReply, partialSince) = (
      max(0, owedRounds - late.answered), late.rest, Date()
    )
  }

  /// What a wait for the terminal's input brought.
  private enum Arrival {
    /// Bytes, read.
    case bytes([UInt8])
    /// Nothing by the deadline (or no terminal).
    case nothing
    /// The terminal is gone.
    case closed
  }

  /// Waits until `deadline` (a past one: not at all) for the terminal's input, and reads what
  /// came.
  private func readInput(until deadline: Date) -> Arrival {
    guard let input else { return .nothing }
    var buffer = [UInt8](repeating: 0, count: 1024)
    while true {
      var waiting = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
      let milliseconds = (max(0, deadline.timeIntervalSinceNow) * 1000).rounded(.up)
      let ready = poll(&waiting, 1, Int32(milliseconds))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return .nothing }
      let count = read(input, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      return count > 0 ? .bytes(Array(buffer[0..<count])) : .closed
    }
  }

  /// Whether keys read can be put back in the terminal's input (TIOCSTI): since Linux 6.2 a
  /// system may refuse it to programs without CAP_SYS_ADMIN (`dev.tty.legacy_tiocsti` 0).
  static let canGiveBack: Bool = {
    guard
      let setting = try? String(
        contentsOfFile: "/proc/sys/dev/tty/legacy_tiocsti", encoding: .utf8)
    else { return true }
    return setting.trimmed == "1" || geteuid() == 0
  }()

  /// Puts keys read from the terminal back in its input for the shell to read, in the order
  /// typed, where the system allows it (``canGiveBack``); else they are lost. They are read
  /// as the terminal's own settings read keys (line editing, Ctrl-D's end of input), but not
  /// echoed: a shell shows what it reads, and a key that ended the celebration is not shown
  /// twice. The kernel holds one byte under ``inputHeld``; more are lost.
  private func giveBack(typedAhead: [UInt8], typedSince: [UInt8]) {
    guard let input else { return }
    var unechoed = saved
    unechoed.c_lflag &= ~tcflag_t(ECHO | ECHONL)
    tcsetattr(input, TCSANOW, &unechoed)
    // Ctrl-D typed ahead, while the terminal edited lines, is read as a NUL: the end of input
    // again. (A NUL typed then, Ctrl-@, reads the same; it is the rarer key. Typed since, both
    // read as themselves.)
    let endOfInput = withUnsafeBytes(of: saved.c_cc) { $0[Int(VEOF)] }
    let keys = typedAhead.map { $0 == 0 && endOfInput != 0 ? endOfInput : $0 } + typedSince
    for key in keys {
      var byte = key
      guard ioctl(input, UInt(TIOCSTI), &byte) == 0 else { return }
    }
  }

  /// What the terminal's input holds now, read without waiting (as much as the kernel holds,
  /// whatever keeps coming).
  private func waitingInput() -> [UInt8] {
    var bytes: [UInt8] = []
    while bytes.count < Self.inputHeld, case .bytes(let more) = readInput(until: .distantPast) {
      bytes += more
    }
    return bytes
  }

  /// Writes `bytes` whole, in pieces, unless `shouldStop` says to stop between two (the rest
  /// is dropped, and ``endingACutFrame`` ends what was cut as the screen is left). Throws when
  /// the terminal is gone.
  func write(_ bytes: [UInt8], shouldStop: () -> Bool = { false }) throws {
    var offset = 0
    let piece = 16_384
    while offset < bytes.count {
      if shouldStop() {
        if offset > 0 { cutShort = true }
        return
      }
      let count = bytes.withUnsafeBytes { all in
        Glibc.write(output, all.baseAddress! + offset, min(piece, bytes.count - offset))
      }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        if offset > 0 { cutShort = true }
        throw Refusal(description: "the terminal is gone (\(String(cString: strerror(errno))))")
      }
      offset += count
    }
  }
}
