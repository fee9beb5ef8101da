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

    /// Nothing: transparent black.
    public static let clear = Pixel(red: 0, green: 0, blue: 0, alpha: 0)

    /// This premultiplied pixel (as the GL stores a transparent backdrop, as FreeType draws
    /// colour glyphs) with straight alpha: its colour divided by its alpha. Opaque pixels are
    /// unchanged; fully transparent ones become 0, 0, 0, 0. Additive light stores more colour
    /// than alpha, which straight alpha cannot hold: such a pixel keeps its colour at the alpha
    /// of its brightest channel, the nearest straight colour (exact over black).
    public var unpremultiplied: Pixel {
      let alpha = max(Int(alpha), Int(max(red, green, blue)))
      guard alpha < 255 else { return Pixel(red: red, green: green, blue: blue, alpha: 255) }
      guard alpha > 0 else { return .clear }
      let straight = { (c: UInt8) in UInt8(min(255, (Int(c) * 255 + alpha / 2) / alpha)) }
      return Pixel(
        red: straight(red), green: straight(green), blue: straight(blue), alpha: UInt8(alpha))
    }
  }

  /// The pixel in column `x` of row `y` (row 0 at the top).
  public subscript(x: Int, y: Int) -> Pixel {
    get {
      let i = (y * width + x) * 4
      return Pixel(red: bytes[i], green: bytes[i + 1], blue: bytes[i + 2], alpha: bytes[i + 3])
    }
    set {
      let i = (y * width + x) * 4
      (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]) =
        (newValue.red, newValue.green, newValue.blue, newValue.alpha)
    }
  }
}

extension RGBAImage {
  /// The picture with straight alpha, every pixel ``Pixel/unpremultiplied``: what the GL stores
  /// for a transparent backdrop (premultiplied) as PNG files and videos expect it (straight).
  /// A pass over the bytes, exactly ``Pixel/unpremultiplied`` for each: the transparent and
  /// the opaque pixels (most of a frame) are looked at as one word, the others divided through
  /// a table.
  public func unpremultiplied() -> RGBAImage {
    var copy = self
    copy.unpremultiply()
    return copy
  }

  /// Gives the picture straight alpha in place (``unpremultiplied()``): no copy of a picture
  /// held nowhere else.
  public mutating func unpremultiply() {
    Self.unpremultiply(&bytes)
  }

  /// The same pass over RGBA pixels held in `bytes` in any order of rows (a frame read back
  /// bottom row first, for one). Runs of 16 transparent pixels, most of a transparent frame,
  /// are passed over 8 bytes at a time: 1.8 ms a 1920×1080 frame of the default effect where
  /// one pixel at a time took 3.0 ms (release build, docs/export.md).
  public static func unpremultiply(_ bytes: inout [UInt8]) {
    precondition(bytes.count.isMultiple(of: 4), "RGBA pixels have 4 bytes each")
    let table = straightTable
    bytes.withUnsafeMutableBytes { raw in
      table.withUnsafeBufferPointer { straight in
        let words = raw.bindMemory(to: UInt32.self)
        var index = 0
        while index < words.count {
          if index + 16 <= words.count {
            var any: UInt64 = 0
            for pair in 0..<8 {
              any |= UnsafeRawPointer(words.baseAddress! + index + 2 * pair)
                .loadUnaligned(as: UInt64.self)
            }
            if any == 0 {
              index += 16
              continue
            }
          }
          for index in index..<min(index + 16, words.count) {
            words[index] = straightened(words[index], straight)
          }
          index += 16
        }
      }
    }
  }

  /// One premultiplied little-endian RGBA pixel with straight alpha, through `straight`
  /// (``straightTable``). Transparent and opaque pixels are as they are.
  @inline(__always)
  private static func straightened(_ stored: UInt32, _ straight: UnsafeBufferPointer<UInt8>)
    -> UInt32
  {
    // Little-endian RGBA: alpha is the high byte.
    let word = UInt32(littleEndian: stored)
    if word == 0 || word >= 0xff00_0000 { return stored }
    let (red, green, blue) = (word & 0xff, word >> 8 & 0xff, word >> 16 & 0xff)
    let alpha = max(word >> 24, red, green, blue)
    if alpha == 255 { return (word | 0xff00_0000).littleEndian }
    let row = Int(alpha) << 8
    let result =
      UInt32(straight[row + Int(red)]) | UInt32(straight[row + Int(green)]) << 8
      | UInt32(straight[row + Int(blue)]) << 16 | alpha << 24
    return result.littleEndian
  }

  /// `straightTable[alpha << 8 | colour]`: a premultiplied colour channel with straight alpha,
  /// rounded, as ``Pixel/unpremultiplied`` divides it (0 where alpha is 0).
  static let straightTable: [UInt8] = (0..<65536).map { index in
    let (alpha, colour) = (index >> 8, index & 0xff)
    return alpha == 0 ? 0 : UInt8(min(255, (colour * 255 + alpha / 2) / alpha))
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
