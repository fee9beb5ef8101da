@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiGL

/// GPU time per frame from GL_TIME_ELAPSED queries, kept in a small rotation so that reading a
/// result never waits for the GPU: a frame's result is collected a few frames later, once the
/// GL says it is available.
package final class GPUTimer {
  private var queries = [GLuint](repeating: 0, count: 4)
  private var pending: [Int] = []  // indices into `queries`, oldest first
  private var next = 0

  package init() {
    epoxy_glGenQueries(GLsizei(queries.count), &queries)
  }

  deinit {
    epoxy_glDeleteQueries(GLsizei(queries.count), &queries)
  }

  /// Starts timing a frame. If every query is still in flight, the oldest is waited for.
  package func begin() -> [Double] {
    var finished: [Double] = []
    if pending.count == queries.count { finished += collect(waitingFor: 1) }
    epoxy_glBeginQuery(GLenum(GL_TIME_ELAPSED), queries[next])
    return finished
  }

  /// Stops timing the frame begun last.
  package func end() {
    epoxy_glEndQuery(GLenum(GL_TIME_ELAPSED))
    pending.append(next)
    next = (next + 1) % queries.count
  }

  /// Milliseconds of the frames whose results are ready, oldest first, waiting until at least
  /// `count` results are in (or none are pending).
  package func collect(waitingFor count: Int = 0) -> [Double] {
    var results: [Double] = []
    while let index = pending.first {
      var available: GLint = 0
      epoxy_glGetQueryObjectiv(queries[index], GLenum(GL_QUERY_RESULT_AVAILABLE), &available)
      if available == 0 && results.count >= count { break }
      var nanoseconds: GLuint64 = 0
      epoxy_glGetQueryObjectui64v(queries[index], GLenum(GL_QUERY_RESULT), &nanoseconds)
      results.append(Double(nanoseconds) / 1e6)
      pending.removeFirst()
    }
    return results
  }

  /// Waits for every frame still being timed and returns their milliseconds, oldest first.
  package func drain() -> [Double] {
    collect(waitingFor: pending.count)
  }
}
