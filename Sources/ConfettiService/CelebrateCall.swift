import Confetti
import ConfettiCelebration
import ConfettiCore

/// One `Celebrate` call's arguments, as the bus carried them.
package struct CelebrateCall: Sendable {
  /// One a{sv} option: its D-Bus type and value.
  package enum Value: Equatable, Sendable {
    case integer(Int64)
    /// A `t` above Int64.max.
    case largeUnsigned(UInt64)
    case number(Double)
    case boolean(Bool)
    case text(String)
    /// A type the service takes for no option.
    case other(type: String)
  }

  /// A preset's name, a configuration as JSON text (it starts with `{`), or an absolute path
  /// to a configuration file; empty: the celebrate preset.
  package var effect: String
  package var options: [(key: String, value: Value)]

  package init(effect: String, options: [(key: String, value: Value)]) {
    (self.effect, self.options) = (effect, options)
  }

  /// A refusal: the error the call is answered with, and why in one line.
  package struct Refusal: Error, Equatable {
    package let failure: ServiceInterface.Failure
    package let message: String
  }

  /// What to celebrate, checked as far as the service can before anything is shown: the
  /// effect loads, and every option is known, of its type and in range.
  package func celebration() throws(Refusal) -> CelebrationOptions {
    var options = CelebrationOptions()
    let named = String(effect.trimmingSpaces)
    do {
      let loaded: Effect?
      if named.isEmpty {
        loaded = nil
      } else if named.hasPrefix("{") {
        loaded = try Effect(json: named)
        options.json = named
      } else if named.hasPrefix("/") {
        loaded = try Effect(path: named)
        options.path = named
      } else {
        loaded = try Effect.preset(named)
        options.preset = named
      }
      // Its pictures too: an effect that cannot be drawn is refused now, not once its turn
      // comes.
      if let loaded {
        _ = try loaded.images(
          for: EffectScene(config: loaded.config, capacity: 1, seed: options.seed).shapes)
      }
    } catch {
      throw Refusal(failure: .effect, message: oneLine("\(error)"))
    }
    for (key, value) in self.options {
      guard let option = ServiceInterface.Option(rawValue: key) else {
        let known = ServiceInterface.Option.allCases.map(\.rawValue).joined(separator: ", ")
        throw Refusal(
          failure: .invalidArguments,
          message: oneLine(
            "\(ServiceInterface.celebrate) takes the options \(known); not '\(key)'"))
      }
      func wrong(_ wanted: String) -> Refusal {
        Refusal(
          failure: .invalidArguments, message: oneLine("\(key) must be \(wanted), not \(value)"))
      }
      switch (option, value) {
      case (.seed, .integer(let seed)) where seed >= 0: options.seed = UInt64(seed)
      case (.seed, .largeUnsigned(let seed)): options.seed = seed
      case (.seed, _): throw wrong("a whole number from 0")
      case (.monitor, .integer(let monitor)) where monitor >= 1 && monitor <= Int64(Int32.max):
        options.monitor = Int(monitor)
      case (.monitor, _): throw wrong("a whole number from 1")
      case (.duration, .number(let seconds)): options.duration = seconds
      case (.duration, .integer(let seconds)): options.duration = Seconds(seconds)
      case (.duration, _): throw wrong("a number of seconds")
      case (.reduceMotion, .boolean(let reduce)): options.reduceMotion = reduce
      case (.reduceMotion, _): throw wrong("true or false")
      }
    }
    do {
      try options.check()
    } catch {
      throw Refusal(failure: .invalidArguments, message: oneLine("\(error)"))
    }
    // Spelled as the default it is, so that calls for the same celebration are the same. (Not
    // monitor 1: on Wayland the default is the compositor's choice, not the first output.)
    if options.duration == Celebration.defaultDuration { options.duration = nil }
    return options
  }
}

extension CelebrateCall.Value: CustomStringConvertible {
  package var description: String {
    switch self {
    case .integer(let value): "\(value)"
    case .largeUnsigned(let value): "\(value)"
    case .number(let value): "\(value)"
    case .boolean(let value): "\(value)"
    case .text(let value): "the text \"\(value)\""
    case .other(let type): "a value of type \(type)"
    }
  }
}

extension String {
  /// Without the spaces, tabs and line ends around it.
  fileprivate var trimmingSpaces: Substring {
    let space: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    guard let first = firstIndex(where: { !space($0) }), let last = lastIndex(where: { !space($0) })
    else { return "" }
    return self[first...last]
  }
}
