@preconcurrency import CEpoxy
import Synchronization

/// A GL context as the window system names it: the address EGL or GLX gives it. Two contexts
/// alive at once never share one, but a context made after another was destroyed may be given
/// its address; a renderer tells those apart by its ``VertexArrayMark``.
package struct ContextIdentity: Hashable, Sendable {
  /// The address EGL or GLX names the context by.
  package let address: UInt

  /// The context current on this thread, as EGL or GLX names it (nil: neither knows one: a
  /// window system other than those). Asks the window system, which answers from the thread's
  /// own record, not the GL.
  package static var current: ContextIdentity? {
    WindowSystem.currentContext.map { ContextIdentity(address: UInt(bitPattern: $0)) }
  }

  /// Where a renderer learns which context is current: ``current`` unless its maker answers
  /// itself, as time and randomness are given (a test answers with the renderer's own context
  /// whichever is current: a context made at the address of one destroyed).
  package typealias Source = () -> ContextIdentity?
}

/// A renderer's mark on its own vertex array, which tells its context from a later one at the
/// same address: the array's last attribute, which no shader reads, never enabled, pointed a
/// random distance into the record buffer. Vertex arrays are never shared between contexts, so
/// no other context has it, not even one sharing the rest of the renderer's objects. (A random
/// number, the renderer's alone: an identity, not a part of any picture.)
package struct VertexArrayMark: Sendable {
  private let token = UInt.random(in: 1...UInt(Int32.max))
  private let attribute: GLuint

  /// Puts a new mark on the vertex array bound now, whose attributes read `buffer` (left bound
  /// to `GL_ARRAY_BUFFER`: the caller puts the host's binding back, as it does around set-up).
  package init(buffer: GLuint) {
    var attributes: GLint = 16
    epoxy_glGetIntegerv(GLenum(GL_MAX_VERTEX_ATTRIBS), &attributes)
    attribute = GLuint(max(attributes, 16) - 1)
    epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
    epoxy_glVertexAttribPointer(
      attribute, 1, GLenum(GL_UNSIGNED_BYTE), GLboolean(GL_FALSE), 0,
      UnsafeRawPointer(bitPattern: token))
  }

  /// Whether `vertexArray`, on the current context, is an array bearing this mark (a few
  /// queries; the binding is put back).
  package func isOn(_ vertexArray: GLuint) -> Bool {
    guard epoxy_glIsVertexArray(vertexArray) != 0 else { return false }
    var bound: GLint = 0
    epoxy_glGetIntegerv(GLenum(GL_VERTEX_ARRAY_BINDING), &bound)
    epoxy_glBindVertexArray(vertexArray)
    defer { epoxy_glBindVertexArray(GLuint(bound)) }
    var pointer: UnsafeMutableRawPointer?
    epoxy_glGetVertexAttribPointerv(attribute, GLenum(GL_VERTEX_ATTRIB_ARRAY_POINTER), &pointer)
    return UInt(bitPattern: pointer) == token
  }
}

/// Which renderer last set its state on each context, for ``GLStatePolicy/cache``: a renderer's
/// kept state holds only while no other has drawn on its context since.
enum ContextStateOwner {
  /// Each context's owner.
  private static let owners = Mutex<[ContextIdentity: ObjectIdentifier]>([:])

  /// Whether `renderer` set the state of `context` last.
  static func isOwned(by renderer: ObjectIdentifier, context: ContextIdentity?) -> Bool {
    guard let context else { return false }
    return owners.withLock { $0[context] == renderer }
  }

  /// Notes that `renderer` (nil: none) has set the state of `context`.
  static func claim(for renderer: ObjectIdentifier?, context: ContextIdentity? = .current) {
    guard let context else { return }
    owners.withLock { $0[context] = renderer }
  }

  /// Forgets `renderer` wherever it was the owner (it is released).
  static func forget(_ renderer: ObjectIdentifier) {
    owners.withLock { owners in owners = owners.filter { $0.value != renderer } }
  }
}
