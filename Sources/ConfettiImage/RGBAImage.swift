/// An 8-bit RGBA picture, rows from the top, straight alpha.
public struct RGBAImage: Equatable, Sendable {
  public let width: Int
  public let height: Int
  /// `width × height × 4` bytes, row after row from the top.
  public var bytes: [UInt8]

  public init(width: Int, height: Int, bytes: [UInt8]) {
    precondition(bytes.count == width * height * 4, "an RGBA image has 4 bytes a pixel")
    self.width = width
    self.height = height
    self.bytes = bytes
  }

  /// A picture filled with one colour.
  public init(width: Int, height: Int, fill: Pixel) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(width * height * 4)
    for _ in 0..<(width * height) { bytes += [fill.red, fill.green, fill.blue, fill.alpha] }
    self.init(width: width, height: height, bytes: bytes)
  }

  /// One pixel's channels.
  public struct Pixel: Equatable, Hashable, Sendable {
    public var red, green, blue, alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
      (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }
  }

  /// The pixel in column `x` of row `y` (row 0 at the top).
  public subscript(x: Int, y: Int) -> Pixel {
    let i = (y * width + x) * 4
    return Pixel(red: bytes[i], green: bytes[i + 1], blue: bytes[i + 2], alpha: bytes[i + 3])
  }
}

extension RGBAImage {
  /// The picture with its colour divided by its alpha: what the GL stores for a transparent
  /// backdrop (premultiplied) as PNG files and videos expect it (straight). Opaque pixels are
  /// unchanged; fully transparent ones become 0, 0, 0, 0. Additive light stores more colour
  /// than alpha, which straight alpha cannot hold: such a pixel keeps its colour at the alpha
  /// of its brightest channel, the nearest straight colour (exact over black).
  public func unpremultiplied() -> RGBAImage {
    var copy = self
    for offset in stride(from: 0, to: bytes.count, by: 4) {
      let brightest = Int(max(bytes[offset], bytes[offset + 1], bytes[offset + 2]))
      let alpha = max(Int(bytes[offset + 3]), brightest)
      copy.bytes[offset + 3] = UInt8(alpha)
      guard alpha < 255 else { continue }
      for channel in 0..<3 {
        copy.bytes[offset + channel] =
          alpha == 0 ? 0 : UInt8(min(255, (Int(bytes[offset + channel]) * 255 + alpha / 2) / alpha))
      }
    }
    return copy
  }
}

extension RGBAImage {
  /// The largest difference in any colour channel between two pictures of the same size, and
  /// how many pixels differ by more than `threshold` in some channel (alpha is not compared).
  public func difference(from other: RGBAImage, threshold: Int = 0) -> (largest: Int, pixels: Int) {
    precondition(width == other.width && height == other.height, "pictures of different sizes")
    var (largest, pixels) = (0, 0)
    for i in stride(from: 0, to: bytes.count, by: 4) {
      let delta = (0..<3).map { abs(Int(bytes[i + $0]) - Int(other.bytes[i + $0])) }.max()!
      largest = Swift.max(largest, delta)
      if delta > threshold { pixels += 1 }
    }
    return (largest, pixels)
  }
}
