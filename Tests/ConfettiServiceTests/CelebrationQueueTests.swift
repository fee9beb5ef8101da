import ConfettiCelebration
import ConfettiService
import XCTest

/// The service's rule for a flood of calls (``CelebrationQueue``): one celebration at a time, a
/// call for what is coming joins it, and only a few different ones wait.
final class CelebrationQueueTests: XCTestCase {
  private func options(_ preset: String, seed: UInt64 = 1) -> CelebrationOptions {
    var options = CelebrationOptions()
    (options.preset, options.seed) = (preset, seed)
    return options
  }

  func testCallsForWhatIsComingJoinIt() throws {
    var queue = CelebrationQueue<String>()
    guard case .waits = queue.admit(options("confetti"), from: "a", at: 0) else {
      return XCTFail("the first call waits for its celebration to be shown")
    }
    let first = try XCTUnwrap(queue.next())
    XCTAssertNil(queue.next(), "one on the screen at a time")
    // Before it is shown, the same call joins it; after, within a second, it is answered at once.
    guard case .waits = queue.admit(options("confetti"), from: "b", at: 0.1) else {
      return XCTFail("a call for the one starting joins it")
    }
    XCTAssertEqual(queue.shown(first.id, at: 0.2), ["a", "b"])
    guard case .shown(let id) = queue.admit(options("confetti"), from: "c", at: 1.1) else {
      return XCTFail("a call within a second of its showing is answered with it")
    }
    XCTAssertEqual(id, first.id)
    // Later, the same asks for another: it waits, and calls for it join it there.
    guard case .waits = queue.admit(options("confetti"), from: "d", at: 1.3),
      case .waits = queue.admit(options("confetti"), from: "e", at: 1.4)
    else { return XCTFail("a call after the window waits for a celebration of its own") }
    XCTAssertEqual(queue.waitingCount, 1)
    XCTAssertEqual(queue.over(first.id), [], "every caller was answered when it was shown")
    let second = try XCTUnwrap(queue.next())
    XCTAssertNotEqual(second.id, first.id)
    XCTAssertEqual(second.callers, ["d", "e"])
  }

  func testOnlyAFewDifferentCelebrationsWait() throws {
    var queue = CelebrationQueue<Int>()
    _ = queue.admit(options("snow"), from: 0, at: 0)
    let showing = try XCTUnwrap(queue.next())
    for seed in 1...UInt64(CelebrationQueue<Int>.mostWaiting) {
      guard case .waits = queue.admit(options("snow", seed: seed + 1), from: Int(seed), at: 0.5)
      else { return XCTFail("celebration \(seed) may wait") }
    }
    guard case .refused(let why) = queue.admit(options("rain"), from: 99, at: 0.6) else {
      return XCTFail("one more than may wait is refused")
    }
    XCTAssertTrue(why.contains("waiting already"), why)
    // One that joins a waiting one is not another: it is taken.
    guard case .waits = queue.admit(options("snow", seed: 2), from: 100, at: 0.7) else {
      return XCTFail("a call for a waiting celebration joins it")
    }
    // A failed celebration hands back the calls it had not answered; the next one comes.
    XCTAssertEqual(queue.over(showing.id), [0])
    XCTAssertEqual(try XCTUnwrap(queue.next()).callers, [1, 100])
  }

  func testCallersWhoLeftAreForgottenAndCelebrationsCancelled() throws {
    var queue = CelebrationQueue<String>()
    _ = queue.admit(options("snow"), from: "a", at: 0)
    let showing = try XCTUnwrap(queue.next())
    _ = queue.admit(options("rain"), from: "b", at: 1)
    _ = queue.admit(options("rain"), from: "c", at: 1)
    _ = queue.admit(options("fire"), from: "b", at: 1)
    _ = queue.admit(options("hearts"), from: "d", at: 1)
    // b leaves: fire, which only b waited for, is forgotten; rain still has c.
    XCTAssertEqual(queue.forget { $0 == "b" }, ["b", "b"])
    XCTAssertEqual(queue.waitingCount, 2)
    // The one on the screen cannot be forgotten, only cancelled (its end answers it).
    guard case .showing = queue.cancel(showing.id) else { return XCTFail("it is on the screen") }
    // Being cancelled, it is joined no more: the same again waits for one of its own.
    XCTAssertEqual(queue.shown(showing.id, at: 2), ["a"])
    guard case .waits = queue.admit(options("snow"), from: "e", at: 2.1) else {
      return XCTFail("a cancelled celebration was joined")
    }
    _ = queue.forget { $0 == "e" }
    XCTAssertEqual(queue.over(showing.id), [], "a was answered when it was shown")
    let rain = try XCTUnwrap(queue.next())
    XCTAssertEqual(rain.callers, ["c"])
    guard case .waited(let told) = queue.cancel(rain.id + 2) else {
      return XCTFail("hearts was waiting")
    }
    XCTAssertEqual(told, ["d"])
    XCTAssertEqual(queue.waitingCount, 0)
    guard case .unknown = queue.cancel(999) else { return XCTFail("no celebration 999") }
  }
}
