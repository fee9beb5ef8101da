import ConfettiCelebration
import ConfettiService
import ConfettiTestSupport
import XCTest

/// A `Celebrate` call's arguments, read and checked before anything is shown.
final class CelebrateCallTests: XCTestCase {
  private func celebration(
    _ effect: String, _ options: [(String, CelebrateCall.Value)] = []
  ) throws(CelebrateCall.Refusal) -> CelebrationOptions {
    try CelebrateCall(effect: effect, options: options.map { (key: $0.0, value: $0.1) })
      .celebration()
  }

  private func refusal(
    _ effect: String, _ options: [(String, CelebrateCall.Value)] = []
  ) -> CelebrateCall.Refusal? {
    do {
      _ = try celebration(effect, options)
      return nil
    } catch {
      return error
    }
  }

  func testAnEffectIsAPresetJSONOrAFile() throws {
    XCTAssertEqual(try celebration(""), CelebrationOptions(), "empty: the celebrate preset")
    XCTAssertEqual(try celebration("fireworks").preset, "fireworks")
    let json = try String(
      contentsOf: repository.appendingPathComponent("Presets/fireworks.json"), encoding: .utf8)
    XCTAssertEqual(
      try celebration(json).json, json.trimmingCharacters(in: .whitespacesAndNewlines))
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "confetti-service-\(UUID().uuidString).json")
    try Data(json.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    XCTAssertEqual(try celebration(file.path).path, file.path)
    XCTAssertEqual(try celebration(" \(file.path)\n").path, file.path, "spaces around it")
    XCTAssertEqual(try celebration(" snow ").preset, "snow")
    // An effect whose picture cannot be read is refused at once, as an effect.
    let hearts = try String(
      contentsOf: repository.appendingPathComponent("docs/examples/hearts.json"), encoding: .utf8)
    let unreadable = try XCTUnwrap(refusal(hearts), "hearts.json names its picture beside it")
    XCTAssertEqual(unreadable.failure, .effect)
    for (effect, words) in [
      ("nosuch", "no preset named"), ("{nope", "JSON"), ("/nowhere/effect.json", "nowhere"),
    ] {
      let refused = try XCTUnwrap(refusal(effect), effect)
      XCTAssertEqual(refused.failure, .effect, effect)
      XCTAssertTrue(refused.message.contains(words), refused.message)
      XCTAssertFalse(refused.message.contains("\n"), "one line: \(refused.message)")
    }
  }

  func testOptionsAreTheLibrarysWithTheirTypesAndRanges() throws {
    let taken = try celebration(
      "snow",
      [
        ("seed", .integer(7)), ("monitor", .integer(2)), ("duration", .number(2.5)),
        ("reduce_motion", .boolean(true)),
      ])
    XCTAssertEqual(taken.seed, 7)
    XCTAssertEqual(taken.monitor, 2)
    XCTAssertEqual(taken.duration, 2.5)
    XCTAssertEqual(taken.reduceMotion, true)
    XCTAssertEqual(try celebration("", [("seed", .largeUnsigned(UInt64.max))]).seed, UInt64.max)
    XCTAssertEqual(try celebration("", [("duration", .integer(3))]).duration, 3)
    // The default duration, spelled out, is the default: such calls are for the same
    // celebration. Monitor 1 is not the default (on Wayland that is the compositor's choice).
    XCTAssertEqual(try celebration("", [("duration", .number(10))]), try celebration(""))
    XCTAssertEqual(try celebration("", [("monitor", .integer(1))]).monitor, 1)
    for (key, value, words) in [
      ("colour", CelebrateCall.Value.integer(1), "takes the options seed, monitor"),
      ("loop", .boolean(true), "not 'loop'"),
      ("seed", .text("x"), "seed must be a whole number from 0, not the text \"x\""),
      ("seed", .integer(-1), "from 0"),
      ("monitor", .integer(0), "from 1"),
      ("duration", .number(0), "0.1 to 86400"),
      ("duration", .number(.infinity), "0.1 to 86400"),
      ("reduce_motion", .integer(1), "true or false"),
      ("monitor", .other(type: "ai"), "a value of type ai"),
    ] {
      let refused = try XCTUnwrap(refusal("", [(key, value)]), "\(key) \(value)")
      XCTAssertEqual(refused.failure, .invalidArguments)
      XCTAssertTrue(refused.message.contains(words), refused.message)
    }
  }
}
