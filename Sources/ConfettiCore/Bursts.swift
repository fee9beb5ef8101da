import Foundation

/// The sizes of the seed's three paper pieces: square, wide and tall.
public let seedPieceSizes: [Size] = [
  Size(width: 10, height: 10), Size(width: 12, height: 7), Size(width: 7, height: 12),
]

/// The motion every seed piece shares besides its launch: spin, flutter, flip and spread ranges.
/// Each range is sampled uniformly per particle.
public struct PieceMotion: Equatable, Sendable {
  /// Rotation at birth, in degrees. Seed: 0–360.
  public var rotation: ClosedRange<Degrees> = 0...360
  /// Spin, in degrees per second. Seed: −400–400.
  public var spin: ClosedRange<Double> = -400...400
  /// Flutter amplitude, in points. Seed: 25–45.
  public var flutterAmplitude: ClosedRange<Points> = 25...45
  /// Flutter rate inside sin(), in rad/s (the seed's "Hz"). Seed: 4–7.
  public var flutterFrequency: ClosedRange<PerSecond> = 4...7
  /// Tumble rate inside cos(), in rad/s. Seed: 3–6.
  public var flipFrequency: ClosedRange<PerSecond> = 3...6
  /// Outward spread, in pt/s². Seed: 8–18.
  public var spread: ClosedRange<PointsPerSecondSquared> = 8...18
  /// Sizes to choose from, each equally likely. Seed: 10×10, 12×7, 7×12.
  public var sizes: [Size] = seedPieceSizes
  /// Colours to choose from, each equally likely. Seed: red, orange, yellow, green, blue, purple.
  public var palette: [RGBA8] = RGBA8.confettiPalette

  public init() {}

  /// A piece with everything but its launch (origin, velocity, lifetime) drawn at random.
  func piece(using random: inout some RandomNumberGenerator) -> ConfettiParticle {
    var p = ConfettiParticle()
    p.size = sizes.randomElement(using: &random)!
    p.color = palette.randomElement(using: &random)!
    p.rotation = .random(in: rotation, using: &random)
    p.spin = .random(in: spin, using: &random)
    p.flutterAmplitude = .random(in: flutterAmplitude, using: &random)
    p.flutterFrequency = .random(in: flutterFrequency, using: &random)
    p.flutterPhase = .random(in: 0...(2 * .pi), using: &random)
    p.flipFrequency = .random(in: flipFrequency, using: &random)
    p.flipPhase = .random(in: 0...(2 * .pi), using: &random)
    p.spread = .random(in: spread, using: &random)
    return p
  }
}

/// The seed's cannon: pieces launched upward from just below the bottom edge of a W×H window.
public struct CannonBurst: Equatable, Sendable {
  /// Pieces per burst. Seed: 30.
  public var count = 30
  /// Lifetime of every piece, in seconds. Seed: 1.5.
  public var lifetime: Seconds = 1.5
  /// Fade-out at the end of the lifetime, in seconds. Seed: 0.4.
  public var fade: Seconds = 0.4
  /// Launch x as a share of the width. Seed: 0.15–0.85.
  public var originShare: ClosedRange<Double> = 0.15...0.85
  /// Launch y below the bottom edge, in points. Seed: 20.
  public var belowEdge: Points = 20
  /// Upward speed as a share of the height per second, before the random factor. Seed: 1.8.
  public var upwardShare: Double = 1.8
  /// Random factor on the upward speed. Seed: 0.85–1.1.
  public var upwardFactor: ClosedRange<Double> = 0.85...1.1
  /// Horizontal speed as a share of the width per second. Seed: −0.3–0.3.
  public var sidewaysShare: ClosedRange<Double> = -0.3...0.3
  /// Spin, flutter, flip, spread, sizes and colours.
  public var motion = PieceMotion()

  public init() {}

  /// One burst for a window of `size` points.
  public func spawn(in size: Size, using random: inout some RandomNumberGenerator)
    -> [ConfettiParticle]
  {
    (0..<count).map { _ in
      var p = motion.piece(using: &random)
      p.origin = Point(
        x: .random(in: originShare, using: &random) * size.width,
        y: size.height + belowEdge)
      p.velocityY = -upwardShare * size.height * .random(in: upwardFactor, using: &random)
      p.velocityX = size.width * .random(in: sidewaysShare, using: &random)
      p.lifetime = lifetime
      p.fade = fade
      return p
    }
  }
}

/// A burst at the pointer: the seed's paper pieces thrown out over the full circle with an upward
/// kick (the tap-burst seed's launch), then falling under the confetti model's gravity and drag.
public struct PointerBurst: Equatable, Sendable {
  /// Pieces per burst. Default: 60, the tap-burst seed's count.
  public var count = 60
  /// Launch speed in pt/s, in a direction uniform over the full circle. Default: 120–480
  /// (drag stops a piece within speed/1.6 points: a burst about 600 points across).
  public var speed: ClosedRange<PointsPerSecond> = 120...480
  /// Extra upward speed added to every launch, in pt/s. Default: 200.
  public var upwardKick: PointsPerSecond = 200
  /// Lifetime in seconds, per piece. Default: 2.0–3.0, long enough to settle and flutter.
  public var lifetime: ClosedRange<Seconds> = 2.0...3.0
  /// Fade-out at the end of the lifetime, in seconds. Default: 0.6.
  public var fade: Seconds = 0.6
  /// Spin, flutter, flip, spread, sizes and colours.
  public var motion = PieceMotion()

  public init() {}

  /// One burst centred on `point`.
  public func spawn(at point: Point, using random: inout some RandomNumberGenerator)
    -> [ConfettiParticle]
  {
    (0..<count).map { _ in
      var p = motion.piece(using: &random)
      let direction = Double.random(in: 0..<(2 * .pi), using: &random)
      let launch = Double.random(in: speed, using: &random)
      p.origin = point
      p.velocityX = launch * cos(direction)
      p.velocityY = launch * sin(direction) - upwardKick
      p.lifetime = .random(in: lifetime, using: &random)
      p.fade = fade
      return p
    }
  }
}
