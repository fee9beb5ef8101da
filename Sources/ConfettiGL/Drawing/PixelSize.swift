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

  /// Sizes by the names video people use for them (16:9).
  public static let named: KeyValuePairs<String, PixelSize> = [
    "720p": PixelSize(width: 1280, height: 720), "1080p": PixelSize(width: 1920, height: 1080),
    "1440p": PixelSize(width: 2560, height: 1440), "4k": PixelSize(width: 3840, height: 2160),
    "2160p": PixelSize(width: 3840, height: 2160),
  ]

  /// How a size is given, for messages and help: `WIDTHxHEIGHT` or one of ``named``.
  public static let forms = "WIDTHxHEIGHT (such as 1920x1080) or 720p, 1080p, 1440p, 4k"

  /// A size as a person writes it: one of ``named`` (any case), or `WIDTHxHEIGHT` with whole
  /// numbers above 0 (`1920x1080`); nil for anything else.
  public init?(parsing text: String) {
    let text = text.lowercased()
    if let size = Self.named.first(where: { $0.key == text })?.value {
      self = size
      return
    }
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0,
      height > 0
    else { return nil }
    self.init(width: width, height: height)
  }

  /// The widest and tallest framebuffer any GL draws, in pixels.
  public static let largest = 16384

  /// Whether a GL could draw a framebuffer this size: both sides 1 to ``largest``.
  public var isDrawable: Bool {
    (1...Self.largest).contains(width) && (1...Self.largest).contains(height)
  }
}
