import ConfettiConfig
import ConfettiCore
import ConfettiPresetFiles

/// The named effects: `Presets/*.json`, embedded at build time and decoded with the same strict
/// decoder as a user's `--config` file, so each file is also a starting point to copy and edit.
public enum Presets {
  /// The effect drawn when none is named: by the window, by `confetti render` and `confetti
  /// shaders`, and by a system or a render the libraries make (C, Python) without one. Two
  /// corner cannons of paper that rise, flutter down and settle along the bottom edge.
  public static let defaultName = "confetti"

  /// The effect thrown over the desktop when none is named (`confetti overlay`, `confetti run`,
  /// the libraries' celebrations): the default effect's two corner cannons, over in about 4 s,
  /// their pieces fading as they fall instead of settling.
  public static let celebrationName = "celebrate"

  /// The effect `confetti bench` measures when none is named: the classic cannon, the
  /// closed-form article's own effect and the like of the peers' benchmark recipes. A workload,
  /// not a default look.
  public static let benchmarkName = "classic-cannon"

  /// Every preset's name, in the order the window cycles through them.
  public static let names: [String] = presetFiles.map(\.name)

  /// The preset's file text, as it is in the repository.
  public static func source(of name: String) -> String? {
    presetFiles.first { $0.name == name }?.text
  }

  /// The preset `name`, decoded.
  public static func named(_ name: String) throws(ConfigError) -> EffectConfig {
    guard let text = source(of: name) else {
      throw ConfigError(
        path: "",
        message: "no preset named \"\(name)\"; the presets are \(names.joined(separator: ", "))")
    }
    do {
      return try EffectConfig.decode(text)
    } catch {
      throw ConfigError(path: "", message: "Presets/\(name).json: \(error)")
    }
  }
}
