import ConfettiCore
import ConfettiPresets
import Foundation
import XCTest

/// Bursts thrown as streams, not balls: a corner cannon's pieces leave its mouth over a moment
/// and at speeds that differ, so the fast ones lead and the slow ones trail back towards it, and
/// the cloud stretches as it falls, each piece at a terminal speed of its own. Measured on the
/// CPU reference (the same formulas the shader evaluates) at 960×540 with seed 3; the table it
/// prints is the one in docs/presets.md ("How the bursts move").
final class StreamTests: XCTestCase {
  /// The shape of a cloud of pieces at one moment, in points.
  struct Cloud {
    /// The middle 80 % of the pieces' places along the cloud's mean motion, and across it.
    var along: Double
    var across: Double
    /// The standard deviation of the pieces' heights.
    var verticalSpread: Double
    /// The middle 80 % of the pieces' downward speeds, pt/s: how fast the cloud stretches.
    var descentSpread: Double
    var count: Int
    /// How far the nearest tenth of the pieces have gone from where they were born, as a share
    /// of how far the farthest tenth have: small for a stream that trails back to its mouth,
    /// near 1 for a ball that left it as one body.
    var trail: Double
    var elongation: Double { along / max(across, 1) }
  }

  static let window = Size(width: 960, height: 540)
  static let moments: [Seconds] = [0.15, 0.4, 1, 2, 3]

  /// `name`'s start emitters at `time`: one cloud for each third of the window the pieces came
  /// from (a corner cannon's, a popper's in the middle), and the whole of what still flies for
  /// its vertical spread (the landed pieces are the floor, not the cloud).
  static func clouds(of name: String, at time: Seconds) throws -> (sides: [Cloud], all: Cloud) {
    var scene = try EffectScene(config: Presets.named(name), capacity: 8192, seed: 3)
    scene.trigger(.start, window: window, time: 0)
    var frame = 1
    while Double(frame) / 60 < time {
      scene.advance(to: Double(frame) / 60, window: window)
      frame += 1
    }
    scene.advance(to: time, window: window)
    let now = Tick(time)
    var sides: [[Piece]] = [[], [], []]
    var flying: [Piece] = []
    for slot in scene.ring.drawnSlotRanges.joined() {
      let record = scene.ring.records[slot]
      guard let state = ConfettiPhysics.state(of: record, at: now, table: scene.table) else {
        continue
      }
      let p = record.particle
      let velocity = ConfettiPhysics.velocity(
        of: p, age: record.age(at: now), style: scene.table[record.emitter], now: now)
      let third = min(2, max(0, Int(3 * p.origin.x / window.width)))
      let piece = Piece(
        place: SIMD2(state.position.x, state.position.y), velocity: velocity,
        origin: SIMD2(p.origin.x, p.origin.y))
      sides[third].append(piece)
      if record.age(at: now) < p.landing { flying.append(piece) }
    }
    return (sides.filter { $0.count >= 10 }.map(cloud), cloud(flying))
  }

  /// A piece at one moment: where it is, how it moves, where it was born.
  struct Piece {
    var place: SIMD2<Double>
    var velocity: SIMD2<Double>
    var origin: SIMD2<Double>
  }

  private static func cloud(_ pieces: [Piece]) -> Cloud {
    let meanVelocity = pieces.map(\.velocity).reduce(.zero, +)
    let length = (meanVelocity * meanVelocity).sum().squareRoot()
    let along = length > 0 ? meanVelocity / length : SIMD2(0, 1)
    let across = SIMD2(-along.y, along.x)
    func percentile(_ share: Double, of values: [Double]) -> Double {
      let sorted = values.sorted()
      guard !sorted.isEmpty else { return 0 }
      return sorted[Int((Double(sorted.count - 1) * share).rounded())]
    }
    func middle80(_ values: [Double]) -> Double {
      percentile(0.9, of: values) - percentile(0.1, of: values)
    }
    let gone = pieces.map { piece -> Double in
      let d = piece.place - piece.origin
      return (d * d).sum().squareRoot()
    }
    let ys = pieces.map(\.place.y)
    let mean = ys.reduce(0, +) / Double(max(ys.count, 1))
    let spread = (ys.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(max(ys.count, 1)))
      .squareRoot()
    return Cloud(
      along: middle80(pieces.map { ($0.place * along).sum() }),
      across: middle80(pieces.map { ($0.place * across).sum() }),
      verticalSpread: spread, descentSpread: middle80(pieces.map(\.velocity.y)),
      count: pieces.count,
      trail: percentile(0.1, of: gone) / max(percentile(0.9, of: gone), 1))
  }

  /// Prints the table of docs/presets.md: for each burst and moment, each cloud along and
  /// across its motion, how far back towards its mouth it trails, and what still flies: its
  /// vertical spread and how much its pieces' descent speeds differ.
  func testTheBurstsTableForTheDocs() throws {
    var lines = [
      "| preset | moment | along × across its motion (pt) | elongation | nearest ÷ farthest "
        + "| vertical spread (pt) | descent speeds' spread (pt/s) |",
      "| --- | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    func each(_ clouds: [Cloud], _ format: String, _ value: (Cloud) -> Double) -> String {
      clouds.map { String(format: format, value($0)) }.joined(separator: ", ")
    }
    for name in Self.streaming {
      for time in Self.moments {
        let (sides, all) = try Self.clouds(of: name, at: time)
        let shapes = sides.map { String(format: "%.0f × %.0f", $0.along, $0.across) }
        lines.append(
          "| \(name) | \(time) s | \(shapes.joined(separator: ", ")) | "
            + "\(each(sides, "%.2f", \.elongation)) | \(each(sides, "%.2f", \.trail)) | "
            + String(format: "%.0f | %.0f |", all.verticalSpread, all.descentSpread))
        XCTAssertGreaterThan(all.count, 20, "\(name) at \(time) s: pieces to measure")
      }
    }
    print(lines.joined(separator: "\n"))
  }

  /// A cannon throws a stream: at 0.15 and 0.4 s each is longer along its motion than across
  /// it by half again, and trails back towards its mouth (where a burst that left as one body
  /// was rounder than long, 0.74 to 0.89, its nearest pieces 60 % as far out as its farthest).
  func testCannonsThrowStreamsThatTrailBackToTheirMouths() throws {
    for name in ["celebrate", "confetti", "cannon", "emoji"] {
      for time in [0.15, 0.4] {
        let (sides, _) = try Self.clouds(of: name, at: time)
        XCTAssertEqual(sides.count, name == "cannon" ? 1 : 2, name)
        for cloud in sides {
          XCTAssertGreaterThan(cloud.elongation, 1.5, "\(name) at \(time) s: a stream")
          XCTAssertLessThan(cloud.trail, 0.45, "\(name) at \(time) s: trailing back")
        }
      }
    }
  }

  /// A popper's cone trails back to its mouth too, and widens as it climbs.
  func testPoppersThrowACone() throws {
    for name in ["party-popper", "hearts"] {
      let (early, _) = try Self.clouds(of: name, at: 0.15)
      let (later, _) = try Self.clouds(of: name, at: 0.4)
      XCTAssertLessThan(early[0].trail, 0.45, "\(name): from its mouth")
      XCTAssertGreaterThan(later[0].across, early[0].across * 1.3, "\(name): a cone that widens")
    }
  }

  /// What still flies stretches as it falls: each piece has a terminal speed of its own, so at
  /// 2 s the middle 80 % of descent speeds spread over more than 50 pt/s (where every piece of a
  /// cell fell at g/k, 175 pt/s, the spread was the flutter's tilt alone).
  func testFallingCloudsStretch() throws {
    for name in Self.streaming {
      let (_, all) = try Self.clouds(of: name, at: 2)
      XCTAssertGreaterThan(all.descentSpread, 50, "\(name): descent speeds differ")
    }
  }

  /// The effects thrown as streams.
  static let streaming = ["celebrate", "confetti", "cannon", "party-popper", "hearts", "emoji"]
}
