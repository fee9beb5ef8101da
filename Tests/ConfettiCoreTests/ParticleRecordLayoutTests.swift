import ConfettiCore
import Foundation
import XCTest

/// The record is what the GPU reads: its size, stride and every offset are part of the contract
/// with the vertex shader, so they are pinned here.
final class ParticleRecordLayoutTests: XCTestCase {
  func testTheRecordIsSixtyEightBytes() {
    XCTAssertEqual(MemoryLayout<ParticleRecord>.size, 68)
    XCTAssertEqual(MemoryLayout<ParticleRecord>.stride, 68)
  }

  func testEveryFieldSitsWhereTheLayoutSays() {
    let offsets: [(PartialKeyPath<ParticleRecord>, Int)] = [
      (\.originX, 0), (\.originY, 4), (\.velocityX, 8), (\.velocityY, 12), (\.birth, 16),
      (\.accelerationX, 20), (\.gravity, 22), (\.dragX, 24), (\.dragY, 26),
      (\.red, 28), (\.green, 29), (\.blue, 30), (\.alpha, 31),
      (\.lifetime, 32), (\.fade, 34), (\.width, 36), (\.height, 38),
      (\.rotation, 40), (\.spin, 42), (\.spread, 44), (\.flutterAmplitude, 46),
      (\.flutterFrequency, 48), (\.flutterPhase, 50), (\.flipFrequency, 52), (\.flipPhase, 54),
      (\.shape, 56), (\.flags, 57), (\.emitter, 58), (\.trail, 59), (\.scaleSpeed, 60),
      (\.emitterFadeAt, 62), (\.landing, 64),
    ]
    for (path, offset) in offsets {
      XCTAssertEqual(MemoryLayout<ParticleRecord>.offset(of: path), offset, "\(path)")
    }
  }

  func testTheShaderAttributesCoverTheRecordWithoutOverlap() {
    let sizes: [RecordAttribute.Component: Int] = [
      .float32: 4, .float16: 2, .normalizedUInt8: 1, .uint8: 1, .uint32: 4,
    ]
    var covered = IndexSet()
    for attribute in ParticleRecord.attributes {
      let bytes =
        attribute.offset..<(attribute.offset + attribute.count * sizes[attribute.component]!)
      XCTAssertFalse(covered.intersects(integersIn: bytes), "\(attribute.name) overlaps")
      XCTAssertEqual(attribute.offset % 4, 0, "\(attribute.name) is not 4-byte aligned")
      covered.insert(integersIn: bytes)
    }
    // Every byte is read by the shader.
    XCTAssertEqual(covered, IndexSet(integersIn: 0..<68))
    XCTAssertEqual(
      Set(ParticleRecord.attributes.map(\.location)).count, ParticleRecord.attributes.count)
  }

  func testPackingKeepsPositionsExactAndRoundsTheRestToHalfFloats() {
    var p = ConfettiParticle()
    p.origin = Point(x: 1234.5, y: 987.25)
    p.velocityX = -333.125
    p.velocityY = -1900.5
    p.flutterPhase = 1.0 / 3.0
    p.spin = -399.9
    p.color = .purple
    p.shape = .circle
    p.flips = false
    p.shrinksWithLife = true
    p.emitter = 7
    p.scaleSpeed = -0.5
    p.accelerationX = 12
    p.trail = 40
    p.darkensBack = true
    p.emitterFadeAt = 2.9999
    p.landing = 2.123456789
    let unpacked = ParticleRecord(p, birth: Tick(rawValue: 7)).particle
    XCTAssertEqual(unpacked.origin, p.origin)
    XCTAssertEqual(unpacked.velocityX, p.velocityX)
    XCTAssertEqual(unpacked.velocityY, p.velocityY)
    XCTAssertEqual(unpacked.color, .purple)
    XCTAssertEqual(unpacked.shape, .circle)
    XCTAssertFalse(unpacked.flips)
    XCTAssertTrue(unpacked.shrinksWithLife)
    XCTAssertEqual(unpacked.emitter, 7)
    XCTAssertEqual(unpacked.trail, ConfettiParticle.maximumTrail, "trails are capped")
    XCTAssertTrue(unpacked.darkensBack)
    XCTAssertLessThanOrEqual(unpacked.emitterFadeAt, 2.9999, "the fade never starts late")
    XCTAssertEqual(unpacked.emitterFadeAt, 2.9999, accuracy: 0.002)
    XCTAssertEqual(
      ParticleRecord(ConfettiParticle(), birth: Tick(rawValue: 0)).particle
        .emitterFadeAt, .infinity)
    XCTAssertEqual(unpacked.landing, 2.123456789, accuracy: 2.2 / 8_388_608, "32 bits")
    XCTAssertEqual(
      ParticleRecord(ConfettiParticle(), birth: Tick(rawValue: 0)).particle.landing, .infinity)
    XCTAssertEqual(unpacked.scaleSpeed, -0.5)
    XCTAssertEqual(unpacked.accelerationX, 12)
    XCTAssertEqual(unpacked.gravity, 280)
    // Half floats: 11 significant bits.
    XCTAssertEqual(unpacked.flutterPhase, 1.0 / 3.0, accuracy: 1.0 / 3.0 / 2048)
    XCTAssertEqual(unpacked.spin, -399.9, accuracy: 400.0 / 2048)
    XCTAssertEqual(unpacked.dragX, 1.6, accuracy: 1.6 / 2048)
    XCTAssertEqual(unpacked.dragY, 1.6, accuracy: 1.6 / 2048)
  }
}
