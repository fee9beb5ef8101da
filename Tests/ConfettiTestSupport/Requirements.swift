import Foundation
import XCTest

/// Whether this is CI's run (`CI=true`): CI installs every program the tests use
/// (`sh .ci/deps test`), so there a test that cannot run is a failure, never a skip.
package let runningOnCI = ProcessInfo.processInfo.environment["CI"] == "true"

/// What a test throws when something it needs is missing (`reason` says what, and how to get
/// it): a skip on a developer's machine; on CI (`onCI`) a failure.
package func unavailable(_ reason: String, onCI: Bool = runningOnCI) -> Error {
  onCI ? TestFailure("CI must run this test, but it \(reason)") : XCTSkip(reason)
}

/// A test that cannot go on: thrown, it fails the test with its description.
package struct TestFailure: Error, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}

/// The program `name` on PATH, which `what` needs; ``unavailable(_:)`` where it is missing.
package func requiredProgram(_ name: String, for what: String) throws -> URL {
  if let program = findProgram(name) { return program }
  throw unavailable("needs \(name) (for \(what))")
}

/// Throws ``unavailable(_:)`` unless every program in `tools` (full paths) is installed.
package func requireTools(_ tools: [String], for what: String) throws {
  let missing = tools.filter { !FileManager.default.isExecutableFile(atPath: $0) }
  guard !missing.isEmpty else { return }
  throw unavailable("needs \(missing.joined(separator: ", ")) (for \(what))")
}

/// Waits until `condition` holds, up to `timeout` seconds (``waitFor(timeout:poll:_:)``);
/// throws `what` when it never does, for a test that cannot go on without it.
package func waitUntil(
  _ what: @autoclosure () -> String, timeout: Double = 60, _ condition: () throws -> Bool
) throws {
  guard try waitFor(timeout: timeout, condition) else {
    throw TestFailure("waited \(Int(timeout)) s for \(what())")
  }
}
