/// A small, fast, seedable random number generator (Steele, Lea & Flood's SplitMix64).
///
/// All randomness in the simulation comes from a generator passed in by the caller, so the same
/// seed always yields the same particles (``EffectScene`` keeps one, seeded at its creation):
///
///     var random = SplitMix64(seed: 42)
///     let spin = Double.random(in: -400...400, using: &random)
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) {
    state = seed
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
