/// What a renderer has sent the GPU since it was made, counted as it goes: a meter a caller
/// reads before and after a frame (``-(_:_:)``) to know what the frame sent, as the bench does
/// for its "uploaded" column. A steady frame reads as the clock's 4 bytes and one draw; a burst
/// as its own records too.
package struct UploadMeter: Equatable, Sendable {
  /// Bytes written into buffers and textures (glBufferSubData, the shape atlas's glTexImage2D,
  /// one a mipmap level).
  package var bufferBytes = 0
  /// Buffer writes issued.
  package var bufferWrites = 0
  /// Bytes of uniform values set (glUniform*).
  package var uniformBytes = 0
  /// Uniform writes issued.
  package var uniformWrites = 0
  /// Draw calls issued.
  package var drawCalls = 0

  package init() {}

  /// All bytes sent: buffers and uniforms.
  package var totalBytes: Int { bufferBytes + uniformBytes }

  /// What was sent between reading `earlier` and reading `later`.
  package static func - (later: UploadMeter, earlier: UploadMeter) -> UploadMeter {
    var sent = UploadMeter()
    sent.bufferBytes = later.bufferBytes - earlier.bufferBytes
    sent.bufferWrites = later.bufferWrites - earlier.bufferWrites
    sent.uniformBytes = later.uniformBytes - earlier.uniformBytes
    sent.uniformWrites = later.uniformWrites - earlier.uniformWrites
    sent.drawCalls = later.drawCalls - earlier.drawCalls
    return sent
  }
}
