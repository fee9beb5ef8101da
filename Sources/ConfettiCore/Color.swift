import Glibc

/// A colour as four 8-bit channels, straight (not premultiplied) alpha: what the record stores.
public struct RGBA8: Equatable, Hashable, Sendable {
  /// Red, 0 to 255.
  public var red: UInt8
  /// Green, 0 to 255.
  public var green: UInt8
  /// Blue, 0 to 255.
  public var blue: UInt8
  /// Opacity, 0 (none) to 255 (opaque).
  public var alpha: UInt8

  /// A colour from its channels; opaque unless `alpha` says otherwise.
  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }
}

extension RGBA8 {
  /// Each 8-bit sRGB value in linear light (the sRGB curve, IEC 61966-2-1): what relative
  /// luminance is taken from, by the flash check and for how light a backdrop is.
  package static let linearLight: [Double] = (0..<256).map {
    let c = Double($0) / 255
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
  }

  /// The relative luminance of a colour in linear light, 0 (black) to 1 (white): WCAG's, from
  /// sRGB's primaries.
  package static func relativeLuminance(red: Double, green: Double, blue: Double) -> Double {
    0.2126 * red + 0.7152 * green + 0.0722 * blue
  }

  /// This colour's relative luminance, 0 (black) to 1 (white), its alpha aside.
  package var relativeLuminance: Double {
    let linear = Self.linearLight
    return Self.relativeLuminance(
      red: linear[Int(red)], green: linear[Int(green)], blue: linear[Int(blue)])
  }

  /// Nothing at all: a backdrop a compositor or a video shows through.
  public static let transparent = RGBA8(red: 0, green: 0, blue: 0, alpha: 0)

  // The classic palette, in the tones SwiftUI gives these names.
  /// The palette's red, #FF3B30.
  public static let red = RGBA8(red: 255, green: 59, blue: 48)
  /// The palette's orange, #FF9500.
  public static let orange = RGBA8(red: 255, green: 149, blue: 0)
  /// The palette's yellow, #FFCC00.
  public static let yellow = RGBA8(red: 255, green: 204, blue: 0)
  /// The palette's green, #34C759.
  public static let green = RGBA8(red: 52, green: 199, blue: 89)
  /// The palette's blue, #007AFF.
  public static let blue = RGBA8(red: 0, green: 122, blue: 255)
  /// The palette's purple, #AF52DE.
  public static let purple = RGBA8(red: 175, green: 82, blue: 222)
  /// The palette's pink, #FF2D55.
  public static let pink = RGBA8(red: 255, green: 45, blue: 85)
  /// Opaque white: an image or emoji keeps its own colours under it.
  public static let white = RGBA8(red: 255, green: 255, blue: 255)

  /// The classic confetti colours: red, orange, yellow, green, blue, purple.
  public static let confettiPalette: [RGBA8] = [.red, .orange, .yellow, .green, .blue, .purple]
}
