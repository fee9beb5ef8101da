import Glibc

/// Whether `path` names a regular file (through links) that this process may run.
package func isProgramFile(atPath path: String) -> Bool {
  var status = stat()
  return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
}

/// The user's configuration folder as the XDG base directories say: `$XDG_CONFIG_HOME` where it
/// is an absolute path, else `$HOME/.config`; nil with neither.
package func configurationFolder(in environment: [String: String]) -> String? {
  if let named = environment["XDG_CONFIG_HOME"], named.hasPrefix("/") { return named }
  return environment["HOME"].flatMap { $0.isEmpty ? nil : $0 + "/.config" }
}
