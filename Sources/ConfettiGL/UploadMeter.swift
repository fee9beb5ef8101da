/// Counts what the CPU sends the GPU, so a test (and the bench) can prove that a steady frame
/// sends nothing but the time uniform and a burst nothing but its own records.
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
}
