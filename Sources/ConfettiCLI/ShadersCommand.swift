import ArgumentParser
import Confetti
import ConfettiGL

/// `confetti shaders`: the GLSL the GL compiles for an effect, each shader whole and ready to
/// compile on its own.
struct ShadersCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "shaders",
    abstract:
      "Print the vertex and fragment shaders exactly as the GL compiles them for an effect.",
    discussion: """
      The shaders are compiled with only the features an effect uses (its shapes, paper, \
      landings, streaks, twinkles, fade-ins) and for one primitive. This prints them as the \
      renderer links them: the shared constants and those #defines after each #version line, \
      every #include expanded, so that each compiles on its own. --all-features compiles in \
      every feature, as a port that must draw any effect would. With --primitive auto, the one \
      this machine's GL would get, with its points sized as that GL draws them (whole-pixel \
      squares on a compatibility profile); other primitives are printed for a core profile.
      """)

  @OptionGroup var effect: EffectOptions

  @Flag(help: "Every feature, whatever the effect uses.")
  var allFeatures = false

  @Option(help: "Which shader: vertex, fragment, or both (one after the other).")
  var stage: Stage = .both

  enum Stage: String, ExpressibleByArgument, CaseIterable {
    case vertex, fragment, both
  }

  func run() throws {
    try reportingFailures {
      let loaded = try effect.load(fallback: Presets.defaultName)
      let shaders = try loaded.shaderSources(allFeatures: allFeatures, primitive: effect.primitive)
      let (primitive, wholePixelPoints, named) = (
        shaders.primitive, shaders.wholePixelPoints, shaders.features
      )
      let sources = (vertex: shaders.vertex, fragment: shaders.fragment)
      let what =
        "\(effect.config ?? "preset " + (effect.preset ?? Presets.defaultName)), drawn as "
        + "\(primitive.rawValue)\(wholePixelPoints ? " (whole-pixel squares)" : ""); "
        + "features: \(named.isEmpty ? "none" : named.joined(separator: " "))"
      if stage != .fragment {
        print("// particle.vert for \(what)")
        print(sources.vertex)
      }
      if stage != .vertex {
        print("// particle.frag for \(what)")
        print(sources.fragment)
      }
    }
  }
}
