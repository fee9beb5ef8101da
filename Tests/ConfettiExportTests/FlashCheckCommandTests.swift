import ConfettiPresets
import ConfettiTestSupport
import Foundation
import XCTest

/// `confetti render --check-flashes`: WCAG 2.3.1 held for every preset, over black and over
/// white, on the reference screen (1024 × 768), and an effect that strobes refused.
final class FlashCheckCommandTests: XCTestCase {
  /// Each preset's whole run (10 s of one that never ends), at 15 frames a second: enough to
  /// see flashes up to 7 a second. The closest to the limit is said in the test's output.
  func testEveryPresetStaysWithinWCAGOverBlackAndOverWhite() throws {
    let directory = try temporaryDirectory()
    let checks = Presets.names.flatMap { preset in
      ["#000000", "#ffffff"].map { (preset: preset, background: $0) }
    }
    // Two at a time: each is a render, and ffmpeg beside it.
    let results = CollectedResults(count: checks.count)
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      for index in stride(from: worker, to: checks.count, by: 2) {
        results[index] = Result {
          func check(_ duration: String) throws -> RunResult {
            try confetti(
              [
                "render", "--preset", checks[index].preset, "--size", "1024x768", "--fps", "15",
                "--duration", duration, "--background", checks[index].background,
                "--check-flashes", "--out", directory.appendingPathComponent("\(index).mp4").path,
              ], timeout: 300)
          }
          let result = try check("auto")
          return result.stderr.contains("never ends by itself") ? try check("10") : result
        }
      }
    }
    var closest: (margin: Double, what: String) = (0, "")
    for (index, check) in checks.enumerated() {
      let result = try XCTUnwrap(results[index]).get()
      let name = "\(check.preset) over \(check.background)"
      XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
      let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("flashes: ") }
      let summary = try XCTUnwrap(line.map(String.init), "\(name) says its flashes")
      XCTAssert(summary.hasPrefix("flashes: within WCAG 2.3.1"), "\(name): \(summary)")
      let margin = Self.nearness(summary)
      if margin > closest.margin { closest = (margin, "\(name): \(summary)") }
    }
    XCTAssertLessThanOrEqual(closest.margin, 1, closest.what)
    print("the closest to the flash limit: \(closest.what)")
  }

  /// An effect of big glows twinkling five times a second all over the window: refused with
  /// why and what to do, status 1, and the clip still written.
  func testAnEffectThatStrobesFailsTheCheckAndIsStillWritten() throws {
    let directory = try temporaryDirectory()
    let effect = directory.appendingPathComponent("strobe.json")
    try Data(
      """
      {"name": "strobe", "emitters": [{"trigger": "start", "position": {"x": 0.5, "y": 0.5},
        "shape": {"kind": "rectangle", "width": 1, "height": 1}, "emission": {"mode": "burst"},
        "cells": [{"count": 40, "lifetime": 3, "fade": 0.2, "speed": 0, "gravity": 0, "drag": 0,
          "sizes": [[420, 420]], "colors": ["#ffffff"], "shapes": ["glow"], "twinkle": 1,
          "twinkleFrequency": 31}]}]}
      """.utf8
    ).write(to: effect)
    let clip = directory.appendingPathComponent("strobe.mp4").path
    let result = try confetti([
      "render", "--config", effect.path, "--size", "512x384", "--fps", "15", "--duration",
      "auto", "--background", "#000000", "--check-flashes", "--out", clip,
    ])
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssert(
      result.stderr.contains("flashes: fails WCAG 2.3.1: general at most 5 a second"),
      result.stderr)
    XCTAssert(result.stderr.contains("make the flashing pieces slower"), result.stderr)
    XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
    let size = try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int
    XCTAssertGreaterThan(size ?? 0, 0, "the clip is written all the same")
  }

  /// How near a summary's worst is to the limit, 1 at the limit: its flashes a second over a
  /// quarter of a region against 3, or the share flashing more than 3 against 25 %.
  static func nearness(_ summary: String) -> Double {
    var nearest = 0.0
    for part in summary.components(separatedBy: "; ") {
      let words = part.split(separator: " ").map(String.init)
      if let most = words.firstIndex(of: "most"), most + 1 < words.count,
        let rate = Double(words[most + 1])
      {
        nearest = max(nearest, rate / 3)
      }
      if let over = words.lastIndex(of: "over"), over + 2 < words.count, words[over + 2] == "%",
        let share = Double(words[over + 1])
      {
        nearest = max(nearest, share / 25)
      }
    }
    return nearest
  }
}
