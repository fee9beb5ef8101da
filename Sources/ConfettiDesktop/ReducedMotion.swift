/// What asks for reduced motion beside `--reduce-motion`: the environment variable
/// ``variable`` everywhere, and on screen (the window, the overlay, the terminal) the desktop's
/// own setting too (``DesktopMotion``), unless the variable says no.
package enum ReducedMotion {
  /// The environment variable that asks for reduced motion, as the flag does.
  package static let variable = "CONFETTI_REDUCE_MOTION"

  /// What a value of the variable says: reduce motion, do not, or nil for neither.
  package static func reading(_ value: String) -> Bool? {
    switch value.lowercased() {
    case "1", "true", "yes", "on": true
    case "", "0", "false", "no", "off": false
    default: nil
    }
  }

  /// Why the variable's value in `environment` is refused, in one line; nil when it says yes,
  /// no, or is not set.
  package static func refusal(in environment: [String: String]) -> String? {
    guard let value = environment[variable], reading(value) == nil else { return nil }
    return "\(variable) is 1, true, yes or on to reduce motion, 0, false, no, off or empty not "
      + "to, not \"\(value.prefix(40))\""
  }

  /// Whether reduced motion is asked for, by the flag (`flag`) or `environment`'s variable.
  package static func isAsked(flag: Bool, in environment: [String: String]) -> Bool {
    if flag { return true }
    return reading(environment[variable] ?? "") == true
  }

  /// Whether reduced motion is asked for on screen: as ``isAsked(flag:in:)``, or by the
  /// desktop's own setting (``DesktopMotion``), unless the variable says 0.
  package static func isAskedOnScreen(flag: Bool, in environment: [String: String]) -> Bool {
    if let value = environment[variable], !value.isEmpty, reading(value) == false, !flag {
      return false
    }
    return isAsked(flag: flag, in: environment) || DesktopMotion.isReduced(in: environment)
  }
}
