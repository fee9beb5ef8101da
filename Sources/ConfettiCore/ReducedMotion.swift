extension ConfettiParticle {
  /// Ends its life no later than `moment` seconds after its birth, its fade no longer than its
  /// life.
  mutating func endLife(by moment: Seconds) {
    lifetime = min(lifetime, moment)
    fade = min(fade, lifetime)
  }

  /// How long a particle lives with reduced motion, at most, in seconds.
  package static let reducedMotionLifetime: Seconds = 1.2

  /// The particle without movement: it appears where its motion would have carried it after a
  /// quarter second (so a burst still reads as a burst), stays there without spinning, tumbling
  /// or growing, and fades out gently over at most ``reducedMotionLifetime``.
  package func reducedMotion(style: CellStyle) -> ConfettiParticle {
    var calm = self
    let glimpse = min(0.25, lifetime / 2)
    var placement = self
    placement.emitterFadeAt = .infinity
    if let state = ConfettiPhysics.state(of: placement, age: glimpse, style: style) {
      calm.origin = state.position
      calm.rotation = state.rotation
    }
    (calm.velocityX, calm.velocityY) = (0, 0)
    (calm.gravity, calm.accelerationX) = (0, 0)
    (calm.dragX, calm.dragY) = (0, 0)
    (calm.spin, calm.spread, calm.scaleSpeed) = (0, 0, 0)
    calm.flutterAmplitude = 0
    calm.flips = false
    calm.shrinksWithLife = false
    calm.trail = 0
    calm.landing = .infinity
    calm.lifetime = min(lifetime, Self.reducedMotionLifetime)
    calm.fade = calm.lifetime
    return calm
  }
}
