/// The clock the GPU sees: an unsigned 32-bit count of 2⁻²⁰ s ticks (about 0.95 µs) that wraps.
///
/// Why ticks and not a Float of seconds: a Float time uniform loses precision as uptime grows
/// (after a day its step is 8 ms, enough to make particles jitter by points). Here both the time
/// uniform and every particle's birth are ticks, and the shader takes `age = now − birth` in
/// unsigned arithmetic, which is exact across the wrap. The epoch thereby rebases itself every
/// 2³² ticks (about 68 minutes) at no cost, and the age is exact to one tick after a second of
/// uptime or a year of it. The CPU reference takes the same difference, so both see the same age.
///
/// The only condition: no particle may live for more than half a wrap, which
/// ``ParticleRecord/maximumLifetime`` guarantees with a wide margin.
package struct Tick: Equatable, Sendable {
  /// Ticks per second: a power of two, so converting ticks to seconds is exact.
  package static let perSecond: Double = 1_048_576
  /// How many ticks the raw counter holds before it wraps to 0: 2³².
  package static let wrap: Double = 4_294_967_296

  /// Readings must stay below this, in seconds: 2⁴³ s, so that the count of ticks fits 63 bits.
  package static let latestReading: Seconds = 8_796_093_022_208

  /// The latest reading a host may give: ``latestReading`` less the time an effect schedules
  /// ahead of a reading (sub-cells born up to ``EffectScene/deepestSubCell`` lifetimes after
  /// their first ancestor, each at most ``ParticleRecord/maximumLifetime``, and one lifetime
  /// more for a landed piece's rest), so that every moment an effect computes is a tick.
  package static let latestHostReading: Seconds =
    latestReading - Double(EffectScene.deepestSubCell + 1) * ParticleRecord.maximumLifetime

  /// The readings ``isValid(reading:)`` accepts, in words, for the messages that refuse others.
  package static let validReadings = "finite, from 0 to under 2^43 s less 40 minutes"

  /// Whether `time` is a clock reading a host may give: finite, from 0 to under
  /// ``latestHostReading`` (about 278,000 years).
  package static func isValid(reading time: Seconds) -> Bool {
    time.isFinite && time >= 0 && time < latestHostReading
  }

  /// The raw counter, modulo 2³².
  package var rawValue: UInt32

  package init(rawValue: UInt32) {
    self.rawValue = rawValue
  }

  /// The tick of a clock reading, rounded down. The clock may run for years: only the low
  /// 32 bits are kept. A negative time (a prewarmed emitter's births before the clock's 0)
  /// wraps like any other, so ages taken from it are exact.
  package init(_ time: Seconds) {
    precondition(
      time.isFinite && abs(time) < Self.latestReading,
      "clock readings are finite and under 2^43 s (about 278,000 years)")
    rawValue = UInt32(truncatingIfNeeded: Int64((time * Tick.perSecond).rounded(.down)))
  }

  /// The reading `seconds` (0 to under a wrap) before this one, in whole ticks (the part of a
  /// tick dropped), across the wrap: as the shader takes it, `clock - uint(seconds * ticks)`.
  package func earlier(by seconds: Seconds) -> Tick {
    Tick(rawValue: rawValue &- UInt32(seconds * Self.perSecond))
  }

  /// Seconds from `earlier` to this tick, assuming less than a wrap has passed.
  package func seconds(since earlier: Tick) -> Seconds {
    Double(rawValue &- earlier.rawValue) / Tick.perSecond
  }
}
