import Glibc

/// Whether `path` names a regular file (through links) that this process may run.
package func isProgramFile(atPath path: String) -> Bool {
  var status = stat()
  return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
}
