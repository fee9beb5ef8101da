/// A colour as four 8-bit channels, straight (not premultiplied) alpha: what the record stores.
public struct RGBA8: Equatable, Hashable, Sendable {
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8
  public var alpha: UInt8

  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }
}

extension RGBA8 {
  /// Nothing at all: a backdrop a compositor or a video shows through.
  public static let transparent = RGBA8(red: 0, green: 0, blue: 0, alpha: 0)

  // The classic palette, in the tones SwiftUI gives these names.
  public static let red = RGBA8(red: 255, green: 59, blue: 48)
  public static let orange = RGBA8(red: 255, green: 149, blue: 0)
  public static let yellow = RGBA8(red: 255, green: 204, blue: 0)
  public static let green = RGBA8(red: 52, green: 199, blue: 89)
  public static let blue = RGBA8(red: 0, green: 122, blue: 255)
  public static let purple = RGBA8(red: 175, green: 82, blue: 222)
  public static let pink = RGBA8(red: 255, green: 45, blue: 85)
  public static let white = RGBA8(red: 255, green: 255, blue: 255)

  /// The classic confetti colours: red, orange, yellow, green, blue, purple.
  public static let confettiPalette: [RGBA8] = [.red, .orange, .yellow, .green, .blue, .purple]
}
