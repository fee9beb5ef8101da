import Confetti
import ConfettiCore

/// How long a clip that ends with its effect is: the emission replayed with no GL.
extension Export {
  /// How long `effect` lasts as `settings` render it, in seconds from `settings.firstMoment` (its
  /// first frame): until the closed form draws none of its pieces any more, the settings'
  /// triggers fired. Exact to the clock's tick, and needs no GL: the emission is replayed as a
  /// render replays it. nil when an emitter emits until it is stopped (snow, rain, a fire's
  /// flames): such an effect never ends by itself. 0 when it is over by `settings.firstMoment`.
  public static func length(of effect: Effect, _ settings: RenderOptions) throws -> Seconds? {
    let config: EffectConfig
    do {
      config = try effect.config.validated()
    } catch {
      throw EffectError("the effect's configuration: \(error)")
    }
    var scene = try EffectScene(
      config: config, capacity: EffectScene.suggestedCapacity(for: config), seed: settings.seed,
      reduceMotion: settings.reduceMotion)
    let window = settings.points
    var timeline = RenderTimeline(settings.triggers)
    func fire(_ trigger: RenderTrigger?, at moment: Seconds) {
      guard let trigger else { return scene.fireOpening(window: window, time: moment) }
      scene.trigger(trigger.kind, at: trigger.point, window: window, time: moment)
    }
    timeline.open(fire: fire)
    var end = scene.ring.lastDeath
    // Replayed until nothing is left to be born; a second past the latest moment a render can
    // show, it never ends within any render.
    while scene.isEmitting || !timeline.isDone {
      if scene.emitsUntilStopped { return nil }
      guard timeline.clock <= timeline.start + RenderOptions.latestTime + 1 else { return nil }
      timeline.run(
        to: timeline.clock + RenderTimeline.step,
        advance: { scene.advance(to: $0, window: window) }, fire: fire)
      end = max(end, scene.ring.lastDeath)
    }
    return max(0, end - (timeline.start + settings.firstMoment))
  }

  /// How many frames a clip of `effect` has that ends when the effect is over, as `settings`
  /// render it (their ``RenderOptions/frames`` aside): from the first frame to the first with
  /// nothing left, that one included (``length(of:_:)`` at ``RenderOptions/fps``). What
  /// `confetti render --duration auto` renders, and an animation's default there.
  ///
  /// - Parameters:
  ///   - name: the effect as the caller knows it (a preset's name, a file's path), for the
  ///     messages.
  ///   - option: the caller's spelling of a setting (as in ``RenderOptions/check(naming:)``);
  ///     `length` is what it sets a clip's length with instead (the program's `--duration
  ///     SECONDS or --frames N`).
  /// - Throws: ``RenderError`` when the effect never ends by itself (it emits until stopped),
  ///   or lasts more than ``RenderOptions/mostFrames`` frames.
  public static func framesUntilOver(
    of effect: Effect, _ settings: RenderOptions, name: String,
    naming option: (String) -> String = { $0 }
  ) throws -> Int {
    guard let length = try length(of: effect, settings) else {
      throw RenderError(
        description: "\(oneLine(name)) never ends by itself (it emits until stopped): give "
          + option("length"))
    }
    let frames = (length * settings.fps).rounded(.up) + 1
    guard frames <= Double(RenderOptions.mostFrames) else {
      throw RenderError(
        description: "\(oneLine(name)) lasts \(format(length)) s: more than "
          + "\(RenderOptions.mostFrames) frames at \(format(settings.fps)) fps; give "
          + "\(option("length")) or a lower \(option("fps"))")
    }
    return Int(frames)
  }
}
