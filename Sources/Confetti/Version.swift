/// The library's version, which `confetti --version` prints too.
public enum ConfettiVersion {
  /// Semantic versioning: the API may still change before 1.0.
  public static let current = "0.6.0"
}
