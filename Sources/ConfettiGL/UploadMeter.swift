/// Counts what the CPU sends the GPU, so a test (and the bench) can prove that a steady frame
/// sends nothing but the time uniform and a burst nothing but its own records.
public struct UploadMeter: Equatable, Sendable {
  /// Bytes written into buffers and textures (glBufferSubData, the shape atlas's glTexImage2D).
  public var bufferBytes = 0
  /// Buffer writes issued.
  public var bufferWrites = 0
  /// Bytes of uniform values set (glUniform*).
  public var uniformBytes = 0
  /// Uniform writes issued.
  public var uniformWrites = 0
  /// Draw calls issued.
  public var drawCalls = 0

  public init() {}

  /// All bytes sent: buffers and uniforms.
  public var totalBytes: Int { bufferBytes + uniformBytes }
}
