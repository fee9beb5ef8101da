import ConfettiConfig
import ConfettiCore
import FoundationEssentials
import Glibc

/// The configuration parser's fuzzing harness: what must hold for any input, and how inputs are
/// mutated. The `confetti-fuzz` executable drives it; the corpus it keeps is replayed by the tests.
package enum ConfigFuzzing {
  /// What one input did.
  package struct Outcome: Sendable {
    /// The decoded configuration's name, or nil when it was refused.
    package var accepted: String?
    /// What broke a rule, or nil when all held.
    package var violation: String?
    /// The refusal, when it was refused.
    package var message: String? = nil
  }

  /// Decodes `data` and checks the rules: a refusal is a one-line, non-empty message; decoding is
  /// deterministic; an accepted configuration either builds a scene that emits for a while
  /// without crashing or is refused by it in one line (a shape the table has no room for).
  package static func check(_ data: Data) -> Outcome {
    let text = String(decoding: data, as: UTF8.self)
    do {
      let config = try EffectConfig.decode(text)
      guard (try? EffectConfig.decode(text)) == config else {
        return Outcome(accepted: config.name, violation: "decoding twice gave two answers")
      }
      do {
        var scene = try EffectScene(config: config, capacity: 64, seed: 1)
        let window = Size(width: 320, height: 240)
        for trigger in EmitterTrigger.allCases { scene.trigger(trigger, window: window, time: 1) }
        scene.advance(to: 1.05, window: window)
        scene.advance(to: 9, window: window)
      } catch {
        guard !error.description.isEmpty, !error.description.contains("\n") else {
          return Outcome(accepted: config.name, violation: "a scene error not in one line")
        }
      }
      return Outcome(accepted: config.name, violation: nil)
    } catch {
      let message = error.description
      if message.isEmpty { return Outcome(accepted: nil, violation: "an empty error message") }
      if message.contains("\n") {
        return Outcome(accepted: nil, violation: "an error message of several lines: \(message)")
      }
      return Outcome(accepted: nil, violation: nil, message: message)
    }
  }

  /// Fragments a mutation may splice in: the format's own keys and values, and JSON's edges.
  static let dictionary: [String] =
    [
      "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800", "-", "0", "1e400", "-0", "1.",
      ".5", "true", "null", "NaN", "//", "/*", "\u{0}", "\u{7f}", "é", "\u{FFFD}", "#fff",
      "\"count\": ", "\"birthRate\": ", "{\"value\": 1, \"range\": 2}", "\"polygon\"", "\"image\"",
      "[[0,0],[1,0],[0,1]]", "\"timed\"", "\"continuous\"", "1e-9", "99999999999999999999",
    ]
    + ConfigSchema.objects.flatMap(\.names).map { "\"\($0)\": " }

  /// One random edit of `input`: flip, insert, delete, duplicate or splice a fragment.
  package static func mutate(_ input: [UInt8], using random: inout some RandomNumberGenerator)
    -> [UInt8]
  {
    var bytes = input
    let position = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &random)
    switch Int.random(in: 0..<6, using: &random) {
    case 0 where !bytes.isEmpty:
      bytes[min(position, bytes.count - 1)] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
    case 1:
      bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
    case 2 where !bytes.isEmpty:
      let end = min(bytes.count, position + Int.random(in: 1...16, using: &random))
      bytes.removeSubrange(min(position, end)..<end)
    case 3 where !bytes.isEmpty:
      let start = Int.random(in: 0..<bytes.count, using: &random)
      let end = min(bytes.count, start + Int.random(in: 1...64, using: &random))
      bytes.insert(contentsOf: bytes[start..<end], at: position)
    default:
      bytes.insert(contentsOf: Array(dictionary.randomElement(using: &random)!.utf8), at: position)
    }
    return bytes
  }
}
