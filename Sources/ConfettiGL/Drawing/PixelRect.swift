/// A rectangle of the bound framebuffer, in pixels, from its bottom-left corner (as
/// `glViewport` and `glScissor` take it).
public struct PixelRect: Equatable, Sendable {
  /// Pixels from the framebuffer's left edge. Default 0.
  public var x: Int
  /// Pixels from the framebuffer's bottom edge. Default 0.
  public var y: Int
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int

  /// A rectangle `width × height` pixels whose bottom-left corner is (`x`, `y`).
  public init(x: Int = 0, y: Int = 0, width: Int, height: Int) {
    (self.x, self.y, self.width, self.height) = (x, y, width, height)
  }

  /// The overlap of two rectangles (empty, with zero size, when they do not meet).
  public func intersection(_ other: PixelRect) -> PixelRect {
    let left = max(x, other.x)
    let bottom = max(y, other.y)
    let right = min(x + width, other.x + other.width)
    let top = min(y + height, other.y + other.height)
    return PixelRect(x: left, y: bottom, width: max(0, right - left), height: max(0, top - bottom))
  }
}
