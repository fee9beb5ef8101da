import ArgumentParser
import Confetti
import ConfettiCore
import ConfettiDesktop
import FoundationEssentials
import Glibc

/// The options that choose an effect and how it is drawn, shared by the window, `--bench` and
/// `render`.
struct EffectOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp("A named effect (see confetti presets list).", valueName: "name"),
    completion: .list(Presets.names))
  var preset: String?

  @Option(
    help: ArgumentHelp(
      "A JSON effect file, such as a preset's that confetti presets show NAME prints.",
      valueName: "file"),
    completion: .file(extensions: ["json"]))
  var config: String?

  @Flag(
    help: "Replace movement with a short, gentle fade in place (also: CONFETTI_REDUCE_MOTION=1).")
  var reduceMotion = false

  @Option(
    help: ArgumentHelp(
      "What each piece is drawn as: points, quads, or auto (the fastest on this GL: points on "
        + "llvmpipe, quads on GPUs).",
      valueName: "kind"))
  var primitive = SpritePrimitive.auto

  func validate() throws {
    if preset != nil, config != nil {
      throw ValidationError("give --preset or --config, not both")
    }
    if let preset, !Presets.names.contains(preset) {
      throw ValidationError(
        "no preset named \"\(oneLine(preset))\"; the presets are "
          + Presets.names.joined(separator: ", "))
    }
    if let refusal = ReducedMotion.refusal(in: ProcessInfo.processInfo.environment) {
      throw ValidationError(refusal)
    }
  }

  /// Whether reduced motion was asked for, by the flag or the environment.
  var wantsReducedMotion: Bool {
    ReducedMotion.isAsked(flag: reduceMotion, in: ProcessInfo.processInfo.environment)
  }

  /// Whether reduced motion was asked for on screen: as ``wantsReducedMotion``, or by the
  /// desktop's own setting (``DesktopMotion``), unless the variable says 0.
  var wantsReducedMotionOnScreen: Bool {
    ReducedMotion.isAskedOnScreen(flag: reduceMotion, in: ProcessInfo.processInfo.environment)
  }

  /// The files a command reads for `loaded` (this effect, loaded): its configuration file and
  /// the pictures it names. What the command writes must be none of them.
  func files(of loaded: Effect) -> [String] {
    [config].compactMap { $0 } + loaded.imageFiles
  }

  /// The chosen effect: the configuration file, the preset, or `fallback` when none was named.
  func load(fallback: String) throws -> Effect {
    guard let config else { return try .preset(preset ?? fallback) }
    return try Effect(path: config)
  }
}

/// `--primitive`: points, instanced-points, quads or auto.
extension SpritePrimitive: ExpressibleByArgument {}
