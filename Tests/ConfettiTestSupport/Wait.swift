import Foundation

/// Waiting for an event that nothing announces (a file appears, a process ends, a title
/// changes): asked for again and again until it has happened, never slept on for a fixed time,
/// which is too short on a loaded machine and wasted on a quiet one.

/// Asks `condition` every `poll` seconds until it holds or `timeout` seconds have passed, and
/// returns whether it held, for the caller to assert with a message that says what it waited
/// for. It is asked at once, and once more after the deadline: an event that comes as the time
/// runs out still counts. `poll` 0 asks again at once (for a condition that takes its own time,
/// such as a screenshot). The time is read from a clock that setting the system's time does
/// not move.
///
/// `timeout` is 20 s unless given, the bound most waits here chose: generous for a loaded
/// machine, and free for a passing test, whose wait ends as soon as its event comes.
///
///     XCTAssert(waitFor(timeout: 20) { !overlay.isRunning }, "the overlay never ended")
///
/// (Not `wait(until:)`: inside a test case that name finds `XCTestCase.wait(for:timeout:)`, and
/// Swift looks no further.)
package func waitFor(
  timeout: TimeInterval = 20, poll: TimeInterval = 0.05, _ condition: () throws -> Bool
) rethrows -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: .milliseconds(Int((timeout * 1000).rounded())))
  while true {
    if try condition() { return true }
    guard clock.now < deadline else { return false }
    if poll > 0 { Thread.sleep(forTimeInterval: poll) }
  }
}

/// Asks `value` every `poll` seconds until it gives something other than nil, or `timeout`
/// seconds have passed (as ``waitFor(timeout:poll:_:)`` does); returns what it gave, nil if
/// it never did, for the caller to unwrap with a message (`XCTUnwrap`).
package func waitForValue<Value>(
  timeout: TimeInterval = 20, poll: TimeInterval = 0.05, _ value: () throws -> Value?
) rethrows -> Value? {
  var found: Value?
  _ = try waitFor(timeout: timeout, poll: poll) {
    found = try value()
    return found != nil
  }
  return found
}
