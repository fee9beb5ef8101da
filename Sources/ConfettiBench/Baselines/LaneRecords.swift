import ConfettiCore

/// The particles as the strong CPU baseline keeps them: every field of every record in its own
/// array of Floats (or 32-bit words), structure of arrays, so that eight particles' field loads
/// as one SIMD vector. Each record is converted once, when it arrives (``update(from:)``): the
/// CPU's counterpart of sending it to the GPU.
package final class LaneRecords: @unchecked Sendable {
  enum Field: Int, CaseIterable {
    case originX, originY, velocityX, velocityY, accelerationX, gravity, dragX, dragY
    case red, green, blue, alpha, lifetime, fade, width, height
    case rotation, spin, spread, flutterAmplitude, flutterFrequency, flutterPhase
    case flipFrequency, flipPhase, scaleSpeed, emitterFadeAt, landing
  }

  enum Word: Int, CaseIterable {
    case birth, trail, flags, shape, emitter
  }

  package let capacity: Int
  /// Each array's length: the capacity and room for a last, partly filled batch of eight,
  /// whose lanes past the end read zeros (a lifetime of 0: dead).
  private let stride: Int
  private let floats: UnsafeMutablePointer<Float>
  private let words: UnsafeMutablePointer<UInt32>

  /// Arrays for `capacity` particles, all dead.
  package init(capacity: Int) {
    self.capacity = capacity
    stride = capacity + 8
    floats = .allocate(capacity: Field.allCases.count * stride)
    floats.initialize(repeating: 0, count: Field.allCases.count * stride)
    words = .allocate(capacity: Word.allCases.count * stride)
    words.initialize(repeating: 0, count: Word.allCases.count * stride)
  }

  deinit {
    floats.deallocate()
    words.deallocate()
  }

  /// Converts the records appended to `ring` since the last update (its pending uploads: the
  /// baselines send the ring nowhere else).
  package func update(from ring: inout ParticleRing) {
    precondition(ring.capacity == capacity, "the ring and the arrays must match slot for slot")
    for range in ring.pendingUploadRanges {
      for slot in range { store(ring.records[slot], at: slot) }
    }
    ring.markUploaded()
  }

  private func store(_ r: ParticleRecord, at slot: Int) {
    func set(_ field: Field, _ value: Float) { floats[field.rawValue * stride + slot] = value }
    set(.originX, r.originX)
    set(.originY, r.originY)
    set(.velocityX, r.velocityX)
    set(.velocityY, r.velocityY)
    set(.accelerationX, Float(r.accelerationX))
    set(.gravity, Float(r.gravity))
    set(.dragX, Float(r.dragX))
    set(.dragY, Float(r.dragY))
    set(.red, Float(r.red) / 255)
    set(.green, Float(r.green) / 255)
    set(.blue, Float(r.blue) / 255)
    set(.alpha, Float(r.alpha) / 255)
    set(.lifetime, Float(r.lifetime))
    set(.fade, Float(r.fade))
    set(.width, Float(r.width))
    set(.height, Float(r.height))
    set(.rotation, Float(r.rotation))
    set(.spin, Float(r.spin))
    set(.spread, Float(r.spread))
    set(.flutterAmplitude, Float(r.flutterAmplitude))
    set(.flutterFrequency, Float(r.flutterFrequency))
    set(.flutterPhase, Float(r.flutterPhase))
    set(.flipFrequency, Float(r.flipFrequency))
    set(.flipPhase, Float(r.flipPhase))
    set(.scaleSpeed, Float(r.scaleSpeed))
    set(.emitterFadeAt, Float(r.emitterFadeAt))
    set(.landing, r.landing)
    func set(_ word: Word, _ value: UInt32) { words[word.rawValue * stride + slot] = value }
    set(.birth, r.birth)
    set(.trail, UInt32(r.trail))
    set(.flags, UInt32(r.flags))
    set(.shape, UInt32(r.shape))
    set(.emitter, UInt32(r.emitter))
  }

  /// `field` of the eight particles from `slot` on.
  @inline(__always)
  func lanes(_ field: Field, at slot: Int) -> Lanes {
    UnsafeRawPointer(floats + field.rawValue * stride + slot).loadUnaligned(as: Lanes.self)
  }

  /// `word` of the eight particles from `slot` on.
  @inline(__always)
  func words(_ word: Word, at slot: Int) -> SIMD8<UInt32> {
    UnsafeRawPointer(words + word.rawValue * stride + slot).loadUnaligned(as: SIMD8<UInt32>.self)
  }
}
