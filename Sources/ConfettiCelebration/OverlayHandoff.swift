import ConfettiCore

/// What a celebration hands the confetti program: the command line of its `confetti overlay`.
/// The library writes it (``arguments``), the program reads it (`confetti overlay` builds one
/// from what it parsed, and a test holds the two to each other), and the tests and the
/// program's own check of a celebration left running read it again (``init(arguments:)``):
/// one type, where the flags were once strings in three files.
package struct OverlayHandoff: Equatable, Sendable {
  /// The effect: a preset's name, a configuration file, or JSON handed over in a file of its
  /// own (``Celebration``'s temporary file, which is not the effect's home: images named in it
  /// are not looked for beside it). nil: the overlay's default.
  package enum Effect: Equatable, Sendable {
    case preset(String)
    case config(String)
    case jsonFile(String)
  }

  package var effect: Effect?
  package var seed: UInt64 = 1
  /// The process the overlay ends with; nil: it goes on alone.
  package var parent: Int32?
  /// The descriptor the overlay says down, in one byte, that its first frame is on screen.
  package var shownDescriptor: Int32?
  package var monitor: Int?
  package var duration: Seconds?
  package var loop = false
  package var reduceMotion = false
  /// What each piece is drawn as (`SpritePrimitive`'s raw value); nil: the overlay's default.
  package var primitive: String?
  /// Where the overlay writes a picture of what it shows (`--snapshot`), for a bug report.
  package var snapshot: String?
  /// Started ahead of a celebration (`confetti service` keeps one): the overlay makes its
  /// window and GL context, unshown, then reads what to show from its standard input
  /// (``request``) and shows it; nothing read (the input closed empty) ends it quietly.
  package var standby = false

  package init() {}

  /// The subcommand that takes it.
  package static let command = "overlay"

  /// Each flag, as the program's `overlay` spells it.
  package enum Flag {
    package static let preset = "--preset"
    package static let config = "--config"
    package static let jsonFile = "--json-file"
    package static let seed = "--seed"
    package static let parent = "--parent"
    package static let shownDescriptor = "--shown-fd"
    package static let monitor = "--monitor"
    package static let duration = "--duration"
    package static let loop = "--loop"
    package static let reduceMotion = "--reduce-motion"
    package static let primitive = "--primitive"
    package static let snapshot = "--snapshot"
    package static let standby = "--standby"
  }

  /// The arguments after the program's path: `overlay` and the flags, in a fixed order.
  package var arguments: [String] {
    var words = [Self.command, Flag.seed, String(seed)]
    if let parent { words += [Flag.parent, String(parent)] }
    if let shownDescriptor { words += [Flag.shownDescriptor, String(shownDescriptor)] }
    switch effect {
    case .preset(let name): words += [Flag.preset, name]
    case .config(let path): words += [Flag.config, path]
    case .jsonFile(let path): words += [Flag.jsonFile, path]
    case nil: break
    }
    if let monitor { words += [Flag.monitor, String(monitor)] }
    if let duration { words += [Flag.duration, String(duration)] }
    if loop { words.append(Flag.loop) }
    if reduceMotion { words.append(Flag.reduceMotion) }
    if let primitive { words += [Flag.primitive, primitive] }
    if let snapshot { words += [Flag.snapshot, snapshot] }
    if standby { words.append(Flag.standby) }
    return words
  }

  /// What a standby overlay is told to show, as its standard input carries it: these
  /// ``arguments``, each ended by a NUL byte (no argument holds one).
  package var request: [UInt8] {
    arguments.flatMap { Array($0.utf8) + [0] }
  }

  /// Reads back what ``request`` wrote; nil for anything else.
  package init?(request bytes: [UInt8]) {
    guard bytes.last == 0 else { return nil }
    let words = bytes.dropLast().split(separator: 0, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    self.init(arguments: words)
  }

  /// Reads back what ``arguments`` wrote; nil for anything else: another command, a flag it
  /// does not write, a value that does not parse.
  package init?(arguments: [String]) {
    guard arguments.first == Self.command else { return nil }
    var words = arguments.dropFirst()
    func value() -> String? { words.isEmpty ? nil : words.removeFirst() }
    while let flag = value() {
      switch flag {
      case Flag.loop: loop = true
      case Flag.reduceMotion: reduceMotion = true
      case Flag.standby: standby = true
      default:
        guard let text = value() else { return nil }
        switch flag {
        case Flag.seed: guard let read = UInt64(text) else { return nil }; seed = read
        case Flag.parent: guard let read = Int32(text) else { return nil }; parent = read
        case Flag.shownDescriptor:
          guard let read = Int32(text) else { return nil }
          shownDescriptor = read
        case Flag.preset: effect = .preset(text)
        case Flag.config: effect = .config(text)
        case Flag.jsonFile: effect = .jsonFile(text)
        case Flag.monitor: guard let read = Int(text) else { return nil }; monitor = read
        case Flag.duration: guard let read = Double(text) else { return nil }; duration = read
        case Flag.primitive: primitive = text
        case Flag.snapshot: snapshot = text
        default: return nil
        }
      }
    }
  }
}
