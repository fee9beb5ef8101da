import FoundationEssentials
import Glibc
import Synchronization

/// The GL belongs to the process that set it up. A child made by `fork()` inherits that
/// process's memory, the driver's state among it, but none of its threads: the driver's
/// (llvmpipe's rasterisers, a GPU driver's) are gone, and the first draw that waits on them
/// waits for ever. So a forked child is told so at once instead.
package enum ForkedProcess {
  /// The process that set up the library's own headless GL first (0: none has).
  private static let glProcess = Atomic<Int32>(0)

  /// Notes that this process sets up a headless GL of its own now.
  package static func noteGL() {
    _ = glProcess.compareExchange(expected: 0, desired: getpid(), ordering: .relaxed)
  }

  /// Why this process cannot set up the GL: it is a fork of one that had (nil: it can).
  package static var whyNoGL: String? {
    let owner = glProcess.load(ordering: .relaxed)
    guard owner != 0, owner != getpid() else { return nil }
    return "this process is a fork() of one that had set up OpenGL (process \(owner)), and a "
      + "forked child cannot use its parent's GL: render in the parent, or in a child started "
      + "anew (exec; Python: multiprocessing's \"spawn\" start method)"
  }

  /// Why an object made on the GL in process `maker` cannot be used here, where that is
  /// another (`what`: "this system"); nil where it is this one.
  package static func whyNotHere(_ what: String, madeIn maker: pid_t) -> String? {
    guard maker != getpid() else { return nil }
    return "\(what) was made before this process was forked (in process \(maker)), and a "
      + "forked child cannot draw with its parent's GL: make a new one in the child, on a GL "
      + "context of the child's own"
  }
}
