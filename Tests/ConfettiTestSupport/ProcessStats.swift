import Foundation
import XCTest

/// What /proc says of a process.
package struct StatReader {
  package var pid: Int32

  package init(pid: Int32) { self.pid = pid }

  /// Whether it has ended: gone, or a zombie waiting to be reaped (by a parent that may never,
  /// such as a container's first process).
  package var hasEnded: Bool {
    guard kill(pid, 0) == 0 else { return true }
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
  }

  /// Its resident memory in KiB.
  package func residentKiB() throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }

  /// CPU seconds its threads have run so far, to the nanosecond: the scheduler's own account of
  /// each (/proc/PID/task/*/schedstat), where /proc/PID/stat counts whole 10 ms ticks and
  /// turns a few milliseconds into 0.00 or 0.03 s by chance.
  package func cpuSeconds() throws -> Double {
    let nanoseconds = try threadFiles("schedstat").reduce(0.0) { total, text in
      total + (text.split(separator: " ").first.flatMap { Double($0) } ?? 0)
    }
    return nanoseconds / 1e9
  }

  /// How many times its threads have been switched out so far (/proc/PID/task/*/status): each
  /// wait for an event, a timer or a lock counts. A window asleep on its events makes none.
  package func switches() throws -> Int {
    try threadFiles("status").flatMap { $0.split(separator: "\n") }.reduce(0) { count, line in
      guard
        line.hasPrefix("voluntary_ctxt_switches:")
          || line.hasPrefix("nonvoluntary_ctxt_switches:")
      else { return count }
      return count + (Int(line.split(separator: "\t").last ?? "") ?? 0)
    }
  }

  /// The processes it started that are still there, each with its command's name
  /// (/proc/PID/comm: a script's own name, or the program it became by exec): those every
  /// one of its threads started (/proc/PID/task/*/children).
  package func children() -> [(pid: Int32, command: String)] {
    let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return threads.flatMap { thread in
      let listed = try? String(
        contentsOfFile: "/proc/\(pid)/task/\(thread)/children", encoding: .utf8)
      return (listed ?? "").split(separator: " ").compactMap { Int32($0) }
    }.compactMap { child in
      guard let name = try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)
      else { return nil }
      return (child, name.trimmingCharacters(in: .whitespacesAndNewlines))
    }
  }

  /// Whether its standard input is a pipe with no room left, so that whoever writes to it
  /// waits: poll(2), on the pipe opened again through /proc/PID/fd/0, finds no room for a
  /// write. (Opened to read and write, as poll says nothing of room to a reader only; nothing
  /// is read or written.)
  package func inputIsFull() -> Bool {
    let descriptor = open("/proc/\(pid)/fd/0", O_RDWR | O_NONBLOCK)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var room = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    return poll(&room, 1, 0) == 0
  }

  /// The text of each of its threads' `file` (/proc/PID/task/*/file) now. A thread that ended
  /// since the listing has no file left: it runs no more.
  private func threadFiles(_ file: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").compactMap {
      try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/\(file)", encoding: .utf8)
    }
  }

  /// How much `reading` grows over the next `seconds`.
  private func growth<T: Numeric>(over seconds: Double, of reading: () throws -> T) throws -> T {
    let before = try reading()
    // The span is what is measured, not a stand-in for an event.
    usleep(UInt32(seconds * 1_000_000))
    return try reading() - before
  }

  /// How many times its threads are switched out over the next `seconds`: an event count, where
  /// CPU seconds depend on how busy the machine is.
  package func switches(over seconds: Double) throws -> Int {
    try growth(over: seconds) { try switches() }
  }

  /// Waits, up to `timeout` seconds, until half a second passes in which it runs less than
  /// `quiet` seconds: start-up over, the window asleep. Returns whether it came; a caller
  /// that goes on regardless asserts what it measures next.
  @discardableResult
  package func waitUntilIdle(quiet: Double = 0.005, timeout: Double = 8) throws -> Bool {
    // Each question takes its half second: no pause between them.
    try waitFor(timeout: timeout, poll: 0) { try cpuSeconds(over: 0.5) < quiet }
  }

  /// The CPU seconds it uses over the next `seconds`.
  package func cpuSeconds(over seconds: Double) throws -> Double {
    try growth(over: seconds) { try cpuSeconds() }
  }

  /// Asserts it sleeps on its events: once quiet (``waitUntilIdle(quiet:timeout:)``), its
  /// threads woke at most 3 times in 3 s (a frame loop wakes 180 times) and it used less than
  /// `cpu` seconds of CPU over `seconds`.
  package func assertAsleep(
    cpu: Double = 0.03, over seconds: Double, _ what: String, file: StaticString = #filePath,
    line: UInt = #line
  ) throws {
    try waitUntilIdle()
    let wakes = try switches(over: 3)
    XCTAssertLessThanOrEqual(
      wakes, 3, "\(what)'s threads woke \(wakes) times in 3 s", file: file, line: line)
    let used = try cpuSeconds(over: seconds)
    XCTAssertLessThan(
      used, cpu, "\(what) used \(used) s of CPU in \(seconds) s", file: file, line: line)
  }
}
