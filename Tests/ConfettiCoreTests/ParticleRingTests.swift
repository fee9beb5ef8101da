import ConfettiCore
import ConfettiPresets
import XCTest

final class ParticleRingTests: XCTestCase {
  /// `count` particles that live `lifetime` seconds.
  func particles(_ count: Int, lifetime: Double = 1) -> [ConfettiParticle] {
    var p = ConfettiParticle()
    p.lifetime = lifetime
    return Array(repeating: p, count: count)
  }

  /// What the shaders must compute: from each record's shape, paper and landing, and from the
  /// emitter table's streaks, twinkles and fade-ins; forgotten when the ring empties.
  func testTheRingAndTheTableSayWhatTheShadersMustCompute() {
    var ring = ParticleRing(capacity: 8)
    var plain = ConfettiParticle()
    plain.lifetime = 1
    ring.append([plain], bornAt: 0)
    XCTAssertEqual(ring.features, [], "a tumbling rectangle needs nothing more")
    var circle = plain
    circle.shape = .circle
    var paper = plain
    paper.darkensBack = true
    var flat = paper
    flat.flips = false  // a piece that does not tumble shows no back
    var landing = plain
    landing.landing = 0.5
    ring.append([circle, flat, landing], bornAt: 0)
    XCTAssertEqual(ring.features, [.circles, .landings])
    ring.append([paper], bornAt: 0)
    XCTAssertEqual(ring.features, [.circles, .landings, .paper])
    XCTAssertEqual(
      ShaderFeatures(
        drawing: {
          var p = plain; p.shape = .glow; return p
        }()), .glows)
    XCTAssertEqual(
      ShaderFeatures(
        drawing: {
          var p = plain; p.shape = .star; return p
        }()), .polygons)
    XCTAssertEqual(
      ShaderFeatures(
        drawing: {
          var p = plain; p.shape = .image(0); return p
        }()), .images)
    ring.reclaim(at: 2)
    XCTAssertEqual(ring.drawnCount, 0)
    XCTAssertEqual(ring.features, [], "forgotten once the ring is empty")

    var table = CellTable()
    XCTAssertEqual(table.features, [])
    var style = CellStyle()
    style.stretch = 0.1
    table.set(style, at: 3)
    XCTAssertEqual(table.features, [.streaks])
    style = CellStyle()
    (style.twinkle, style.fadeIn) = (0.5, 0.2)
    table.set(style, at: 1)
    XCTAssertEqual(table.features, [.streaks, .twinkles, .fadeIns])
  }

  func testAPieceWrittenBeforeItsBirthIsNotCountedAliveUntilThen() {
    var ring = ParticleRing(capacity: 8)
    var piece = ConfettiParticle()
    piece.lifetime = 3
    ring.append([piece], bornAt: 2)  // a shell's spark, written when the shell was fired
    XCTAssertEqual(ring.aliveCount(at: 1.5), 0, "not born yet")
    XCTAssertEqual(ring.aliveCount(at: 2), 1)
    XCTAssertEqual(ring.aliveCount(at: 4.9), 1)
    XCTAssertEqual(ring.aliveCount(at: 6), 0, "gone")
  }

  func testAnEmptyRingDrawsAndUploadsNothing() {
    let ring = ParticleRing(capacity: 8)
    XCTAssertEqual(ring.drawnSlotRanges, [])
    XCTAssertEqual(ring.pendingUploadRanges, [])
  }

  func testABurstIsUploadedOnceAsOneRange() {
    var ring = ParticleRing(capacity: 100)
    ring.append(particles(30), bornAt: 0)
    XCTAssertEqual(ring.pendingUploadRanges, [0..<30])
    ring.markUploaded()
    XCTAssertEqual(ring.pendingUploadRanges, [], "a steady frame uploads no records")
    ring.append(particles(5), bornAt: 0.1)
    XCTAssertEqual(ring.pendingUploadRanges, [30..<35], "a burst uploads only its own records")
  }

  func testWrapAroundSplitsUploadAndDrawIntoTwoRanges() {
    var ring = ParticleRing(capacity: 10)
    ring.append(particles(7, lifetime: 1), bornAt: 0)
    ring.markUploaded()
    ring.reclaim(at: 2)  // all 7 dead
    XCTAssertEqual(ring.drawnSlotRanges, [])
    ring.append(particles(6, lifetime: 1), bornAt: 2)
    XCTAssertEqual(ring.pendingUploadRanges, [7..<10, 0..<3])
    XCTAssertEqual(ring.drawnSlotRanges, [7..<10, 0..<3])
  }

  func testTheDrawnSpanShrinksAsParticlesDieFromTheOldEnd() {
    var ring = ParticleRing(capacity: 100)
    ring.append(particles(10, lifetime: 1), bornAt: 0)
    ring.append(particles(10, lifetime: 1), bornAt: 0.5)
    ring.reclaim(at: 0.9)
    XCTAssertEqual(ring.drawnSlotRanges, [0..<20])
    ring.reclaim(at: 1.2)
    XCTAssertEqual(ring.drawnSlotRanges, [10..<20])
    XCTAssertEqual(ring.aliveCount(at: 1.2), 10)
    ring.reclaim(at: 1.6)
    XCTAssertEqual(ring.drawnSlotRanges, [], "nothing alive, nothing drawn")
    XCTAssertEqual(ring.aliveCount(at: 1.6), 0)
  }

  func testALongLivedParticleKeepsLaterDeadOnesInTheSpanUntilItDies() {
    var ring = ParticleRing(capacity: 100)
    ring.append(particles(1, lifetime: 5), bornAt: 0)
    ring.append(particles(3, lifetime: 1), bornAt: 0)
    ring.reclaim(at: 2)
    XCTAssertEqual(ring.drawnSlotRanges, [0..<4])
    XCTAssertEqual(ring.aliveCount(at: 2), 1)
    ring.reclaim(at: 5.01)
    XCTAssertEqual(ring.drawnSlotRanges, [])
  }

  func testAFullRingOverwritesTheOldestAndNeverGrows() {
    var ring = ParticleRing(capacity: 10)
    ring.append(particles(8, lifetime: 100), bornAt: 0)
    ring.markUploaded()
    ring.append(particles(5, lifetime: 100), bornAt: 1)
    XCTAssertEqual(ring.drawnCount, 10)
    XCTAssertEqual(ring.records.count, 10)
    XCTAssertEqual(ring.drawnSlotRanges, [3..<10, 0..<3], "the oldest three were overwritten")
    XCTAssertEqual(ring.pendingUploadRanges, [8..<10, 0..<3])
    XCTAssertEqual(ring.records[2].birth, Tick(1).rawValue)
    XCTAssertEqual(ring.records[3].birth, Tick(0).rawValue)
  }

  func testABatchLargerThanTheRingKeepsItsLastRecords() {
    var ring = ParticleRing(capacity: 4)
    var batch = particles(10)
    for i in batch.indices { batch[i].origin.x = Double(i) }
    ring.append(batch, bornAt: 0)
    XCTAssertEqual(ring.drawnCount, 4)
    let kept = ring.drawnSlotRanges.flatMap { $0 }.map { ring.records[$0].originX }
    XCTAssertEqual(kept, [6, 7, 8, 9])
    XCTAssertEqual(ring.pendingUploadRanges.map(\.count).reduce(0, +), 4)
  }

  func testAThousandBurstsKeepMemoryAndTheSpanBounded() throws {
    // Each click bursts 80 pieces into a ring of 1,000: a thousand clicks wrap it 80 times.
    var scene = try EffectScene(config: Presets.named("confetti"), capacity: 1000, seed: 3)
    let window = Size(width: 640, height: 480)
    for i in 0..<1000 {
      let time = Double(i) * 0.05
      scene.trigger(.click, at: Point(x: 100, y: 100), window: window, time: time)
      scene.ring.reclaim(at: time)
      scene.ring.markUploaded()
      XCTAssertLessThanOrEqual(scene.ring.drawnCount, 1000)
    }
    XCTAssertEqual(scene.ring.records.count, 1000)
  }
}
