/// Sine, cosine, exponential and logarithm for eight Floats at once, for the bench's SIMD
/// baseline (``LaneEvaluator``): the standard library has them only one value at a time.
///
/// Each reduces its argument and evaluates a short polynomial (the coefficients are Cephes'
/// single-precision ones, as SLEEF and most vector maths libraries use): within 10⁻⁶ (relative
/// to values above 1) of Foundation's over the ranges the closed form reaches (LaneMathTests),
/// as close as a GPU's own functions come.
typealias Lanes = SIMD8<Float>
/// Eight truths, each lane all ones or all zeros, as vector compare instructions give them.
/// (The standard library's SIMDMask and its `.<` go lane by lane, branching: slower than the
/// arithmetic they guard.)
typealias LaneMask = SIMD8<Int32>

extension SIMD8 where Scalar == Float {
  /// `test` of each lane against `other`'s, written out lane by lane so that the compiler makes
  /// it one vector compare.
  @inline(__always)
  private func compared(with other: Self, by test: (Float, Float) -> Bool) -> LaneMask {
    LaneMask(
      test(self[0], other[0]) ? -1 : 0, test(self[1], other[1]) ? -1 : 0,
      test(self[2], other[2]) ? -1 : 0, test(self[3], other[3]) ? -1 : 0,
      test(self[4], other[4]) ? -1 : 0, test(self[5], other[5]) ? -1 : 0,
      test(self[6], other[6]) ? -1 : 0, test(self[7], other[7]) ? -1 : 0)
  }

  @inline(__always) func less(than other: Self) -> LaneMask { compared(with: other, by: <) }
  @inline(__always) func less(than other: Float) -> LaneMask { less(than: Self(repeating: other)) }
  @inline(__always) func atLeast(_ other: Self) -> LaneMask { compared(with: other, by: >=) }
  @inline(__always) func atLeast(_ other: Float) -> LaneMask { atLeast(Self(repeating: other)) }
  @inline(__always) func greater(than other: Float) -> LaneMask {
    compared(with: Self(repeating: other), by: >)
  }
}

extension SIMD8 where Scalar == Int32 {
  /// Whether any lane of a ``LaneMask`` is set.
  var anySet: Bool { self != .zero }
}

enum LaneMath {
  /// Adding 1.5·2²³ to a Float of magnitude below 2²² rounds it to a whole number (to nearest,
  /// ties to even) held in the low bits of the sum's significand: a conversion to an integer
  /// that stays in the vector unit.
  private static let roundingShift: Float = 12_582_912

  /// sin and cos of `x` (radians), together: they share the reduction.
  static func sinCos(_ x: Lanes) -> (sin: Lanes, cos: Lanes) {
    // x = n·π/2 + r, |r| ≤ π/4, with π/2 split in three so that r stays exact for |x| < 8000.
    let shifted = x * (2 / Float.pi) + roundingShift
    let n = shifted - roundingShift
    var r: Lanes = x - n * 1.5703125
    r -= n * 4.837512969970703125e-4
    r -= n * 7.54978995489188216e-8
    let z = r * r
    let sinR = r + r * z * polynomial(z, [-1.6666654611e-1, 8.3321608736e-3, -1.9515295891e-4])
    let cosR =
      1 - 0.5 * z
      + z * z * polynomial(z, [4.166664568298827e-2, -1.388731625493765e-3, 2.443315711809948e-5])
    // The quadrant, n mod 4, picks which of them, and its sign. (A huge argument gives a
    // meaningless one, as on a GPU, not a trap.)
    let quadrant = unsafeBitCast(shifted, to: SIMD8<Int32>.self) & 3
    let swap = 0 &- (quadrant & 1)
    let sine = select(sinR, cosR, where: swap)
    let cosine = select(cosR, sinR, where: swap)
    // Sign bits: sine negative in quadrants 2 and 3, cosine in 1 and 2.
    let sineSign = unsafeBitCast((quadrant & 2) &<< 30, to: SIMD8<UInt32>.self)
    let cosineSign = unsafeBitCast(((quadrant &+ 1) & 2) &<< 30, to: SIMD8<UInt32>.self)
    return (
      unsafeBitCast(unsafeBitCast(sine, to: SIMD8<UInt32>.self) ^ sineSign, to: Lanes.self),
      unsafeBitCast(unsafeBitCast(cosine, to: SIMD8<UInt32>.self) ^ cosineSign, to: Lanes.self)
    )
  }

  /// e^x; about 10⁻³⁸ below −87.
  static func exp(_ x: Lanes) -> Lanes {
    let clamped = min(max(x, Lanes(repeating: -87.3)), Lanes(repeating: 88.3))
    // x = n·ln 2 + r, |r| ≤ ln 2 / 2; e^x = 2^n · e^r.
    let shifted = clamped * 1.44269504088896341 + roundingShift
    let n = shifted - roundingShift
    var r: Lanes = clamped - n * 0.693359375
    r -= n * -2.12194440e-4
    let er =
      1 + r + r * r
      * polynomial(
        r,
        [
          5.0000001201e-1, 1.6666665459e-1, 4.1665795894e-2, 8.3334519073e-3, 1.3981999507e-3,
          1.9875691500e-4,
        ])
    // 2^n built as a Float's bits: n + 127 in the exponent field.
    let whole = unsafeBitCast(shifted, to: SIMD8<UInt32>.self) &- 0x4B40_0000
    let scale = unsafeBitCast((whole &+ 127) &<< 23, to: Lanes.self)
    return er * scale  // 2⁻¹²⁶·e^r below −87: nothing, for every use here
  }

  /// `b` in the lanes `mask` holds, `a` in the others: bitwise, so that it stays in the vector
  /// unit (the standard library's `replacing(with:where:)` goes lane by lane).
  @inline(__always)
  static func select(_ a: Lanes, _ b: Lanes, where mask: LaneMask) -> Lanes {
    let bits =
      unsafeBitCast(a, to: LaneMask.self) & ~mask | unsafeBitCast(b, to: LaneMask.self) & mask
    return unsafeBitCast(bits, to: Lanes.self)
  }

  /// The same for words.
  @inline(__always)
  static func select(_ a: SIMD8<UInt32>, _ b: SIMD8<UInt32>, where mask: LaneMask) -> SIMD8<UInt32>
  {
    let m = SIMD8<UInt32>(truncatingIfNeeded: mask)
    return a & ~m | b & m
  }

  /// The lesser of each lane.
  @inline(__always)
  static func min(_ a: Lanes, _ b: Lanes) -> Lanes { select(a, b, where: b.less(than: a)) }

  /// The greater of each lane.
  @inline(__always)
  static func max(_ a: Lanes, _ b: Lanes) -> Lanes { select(a, b, where: a.less(than: b)) }

  /// ln x, for positive normal x.
  static func log(_ x: Lanes) -> Lanes {
    // x = 2^e · m, m in [√½, √2).
    let bits = unsafeBitCast(x, to: SIMD8<Int32>.self)
    var e = Lanes((bits &>> 23) &- 127)
    var m = unsafeBitCast((bits & 0x007f_ffff) | 0x3f80_0000, to: Lanes.self)
    let big = m.greater(than: 1.41421356)
    m = LaneMath.select(m, m * 0.5, where: big)
    e = LaneMath.select(e, e + 1, where: big)
    let f = m - 1
    let z = f * f
    let tail =
      f * z
      * polynomial(
        f,
        [
          3.3333331174e-1, -2.4999993993e-1, 2.0000714765e-1, -1.6668057665e-1, 1.4249322787e-1,
          -1.2420140846e-1, 1.1676998740e-1, -1.1514610310e-1, 7.0376836292e-2,
        ])
    return f - 0.5 * z + tail + e * 0.693147180559945
  }

  /// x^y for x in [0, 1] (0^y = 0 for y > 0).
  static func pow(_ x: Lanes, _ y: Lanes) -> Lanes {
    let positive = x.greater(than: 1e-30)
    let safe = select(.one, x, where: positive)
    return select(.zero, exp(y * log(safe)), where: positive)
  }

  /// c₀ + c₁x + c₂x² + …, by Horner's rule.
  @inline(__always)
  private static func polynomial(_ x: Lanes, _ coefficients: [Float]) -> Lanes {
    var sum = Lanes(repeating: coefficients[coefficients.count - 1])
    for c in coefficients.dropLast().reversed() { sum = sum * x + c }
    return sum
  }
}
