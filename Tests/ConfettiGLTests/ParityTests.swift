import ConfettiCore
import ConfettiGL
import ConfettiGLTestSupport
import XCTest

/// The vertex shader against the CPU reference: what the shader computes, captured by transform
/// feedback from the very program that draws, equals ConfettiPhysics on the same packed records.
final class ParityTests: HeadlessGLTestCase {
  /// Tolerances: positions in points, rotation in degrees, opacity and width scale as shares.
  let positionTolerance = 0.01
  let rotationTolerance = 0.01
  let shareTolerance = 1e-4

  func testTheShaderMatchesTheReferenceForThousandsOfParticlesAtManyAges() throws {
    try assertParity(uptime: 1)
  }

  func testPrecisionDoesNotDegradeAfterAMillionSecondsOfUptime() throws {
    try assertParity(uptime: 1_000_000)
  }

  func testTheInstancedProgramsComputeTheSame() throws {
    try assertParity(uptime: 1, primitive: .instancedPoints)
    try assertParity(uptime: 1, primitive: .quads)
  }

  func testPrecisionHoldsAcrossTheClocksWrap() throws {
    // 2^32 ticks = 4096 s: births just before the wrap, readings after it.
    try assertParity(uptime: 4096 - 0.6)
  }

  /// Births in three waves from `uptime` on, read at 40 ages spanning before the first birth
  /// to after the last death.
  func assertParity(
    uptime: Double, primitive: SpritePrimitive = .points, file: StaticString = #filePath,
    line: UInt = #line
  ) throws {
    let count = 3000
    var ring = ParticleRing(capacity: count)
    let particles = variedParticles(count: count, seed: 7)
    for wave in 0..<3 {
      ring.append(
        Array(particles[(wave * 1000)..<((wave + 1) * 1000)]), bornAt: uptime + Double(wave) * 0.37)
    }
    let renderer = try ParticleRenderer(
      capacity: count, info: context.info, primitive: primitive)
    XCTAssertEqual(renderer.primitive, primitive, file: file, line: line)
    try renderer.upload(from: &ring)
    let table = motionTable
    renderer.setCellTable(table)
    let probe = TransformFeedbackProbe(renderer)
    defer { probe.release() }

    var compared = 0
    var trailSamples = 0
    var streakSamples = 0
    var settlingSamples = 0  // landed paper turning down to lie flat
    var worst = (position: 0.0, rotation: 0.0, share: 0.0)
    for step in 0..<40 {
      let now = Tick(uptime - 0.05 + Double(step) * 0.1)
      // Every particle and up to four trail copies of it (copy c of slot s at c·count + s).
      let captured = try probe.capture(slots: 0..<count, at: now, trailCopies: 4)
      for (index, gpu) in captured.enumerated() {
        let (copy, slot) = index.quotientAndRemainder(dividingBy: count)
        guard
          let cpu = ConfettiPhysics.state(
            of: ring.records[slot], at: now, table: table, trailCopy: copy)
        else {
          XCTAssertEqual(
            gpu.opacity, 0, "slot \(slot) copy \(copy) is not visible but has opacity", file: file,
            line: line)
          continue
        }
        if copy > 0 { trailSamples += 1 }
        if copy == 0, ring.records[slot].isSettling(at: now) { settlingSamples += 1 }
        compared += 1
        worst.position = max(
          worst.position, abs(gpu.position.x - cpu.position.x), abs(gpu.position.y - cpu.position.y)
        )
        worst.rotation = max(worst.rotation, abs(gpu.rotation - cpu.rotation))
        worst.share = max(
          worst.share, abs(gpu.opacity - cpu.opacity), abs(gpu.widthScale - cpu.widthScale))
        worst.position = max(
          worst.position, abs(gpu.size.width - cpu.size.width),
          abs(gpu.size.height - cpu.size.height))
        for channel in 0..<4 {
          worst.share = max(worst.share, abs(gpu.color[channel] - cpu.color[channel]))
        }
        // A streak's tail: where the closed form put it its stretch ago.
        if let tail = cpu.tail {
          streakSamples += 1
          worst.position = max(
            worst.position, abs(gpu.tail.x - tail.x), abs(gpu.tail.y - tail.y))
        }
      }
    }
    XCTAssertGreaterThan(compared, 40_000, "too few live samples compared", file: file, line: line)
    XCTAssertGreaterThan(
      trailSamples, 2000, "too few trail copies compared", file: file, line: line)
    XCTAssertGreaterThan(
      streakSamples, 2000, "too few streaks compared", file: file, line: line)
    XCTAssertGreaterThan(
      settlingSamples, 200, "too few settling pieces compared", file: file, line: line)
    XCTAssertLessThanOrEqual(
      worst.position, positionTolerance, "worst position error (pt)", file: file, line: line)
    XCTAssertLessThanOrEqual(
      worst.rotation, rotationTolerance, "worst rotation error (°)", file: file, line: line)
    XCTAssertLessThanOrEqual(
      worst.share, shareTolerance, "worst opacity or width error", file: file, line: line)
    print(
      "parity at uptime \(uptime) s: \(compared) live samples (\(settlingSamples) settling); worst errors: position \(worst.position) pt, rotation \(worst.rotation)°, opacity/width \(worst.share)"
    )
  }
}
