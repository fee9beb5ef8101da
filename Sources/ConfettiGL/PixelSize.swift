/// A picture's or a window's size in whole pixels.
public struct PixelSize: Equatable, Sendable, CustomStringConvertible {
  /// Across, in pixels.
  public var width: Int
  /// Down, in pixels.
  public var height: Int

  /// A size of `width` by `height` pixels.
  public init(width: Int, height: Int) {
    (self.width, self.height) = (width, height)
  }

  /// `WIDTHxHEIGHT`, as the command line takes it.
  public var description: String { "\(width)x\(height)" }

  /// The widest and tallest framebuffer any GL draws, in pixels.
  public static let largest = 16384

  /// Whether a GL could draw a framebuffer this size: both sides 1 to ``largest``.
  public var isDrawable: Bool {
    (1...Self.largest).contains(width) && (1...Self.largest).contains(height)
  }
}
