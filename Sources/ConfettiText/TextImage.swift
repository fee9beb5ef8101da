import CFreeType
import ConfettiImage
import FoundationEssentials
import Glibc

/// Text and emoji as pictures for the atlas: each character's glyph from the system's fonts
/// (fontconfig finds a font that has it; FreeType draws it), laid side by side. Colour emoji
/// (such as Noto Color Emoji's) keep their colours; other glyphs are white, so that a cell's
/// colour tints them.
///
/// Characters are drawn one after another with their advances, without shaping: sequences that
/// join several characters into one emoji (👩‍💻, flags, skin tones) show their parts side by side.
public enum TextImage {
  /// The size glyphs are drawn at, in pixels (a colour emoji font draws at its own size and is
  /// scaled to about this).
  public static let pixelSize = 96

  /// The picture of `text`, trimmed to its ink and at most ``largest`` pixels on its longer side.
  /// Throws, in one line that names a Debian package to install, when no font has one of its
  /// characters.
  public static func render(_ text: String, largest: Int = 256) throws -> RGBAImage {
    guard !text.isEmpty else { throw TextImageError("a text shape needs at least one character") }
    let library = try Library()
    // Each glyph where the pen puts it: its left edge and top from the pen on the baseline.
    var glyphs: [(image: RGBAImage, x: Int, top: Int)] = []
    var pen = 0
    for scalar in text.unicodeScalars where !Self.invisible(scalar) {
      let face = try library.face(for: scalar)
      let glyph = try face.glyph(scalar)
      glyphs.append((glyph.image, pen + glyph.left, glyph.top))
      pen += glyph.advance
    }
    guard !glyphs.isEmpty else {
      throw TextImageError("the text \"\(text)\" has nothing to draw (only joiners)")
    }
    // Side by side on one baseline.
    let left = glyphs.map(\.x).min()!
    let right = glyphs.map { $0.x + $0.image.width }.max()!
    let ascent = glyphs.map(\.top).max()!
    let descent = glyphs.map { $0.image.height - $0.top }.max()!
    var line = RGBAImage(
      width: max(1, right - left), height: max(1, ascent + descent), fill: .clear)
    for glyph in glyphs {
      line.draw(glyph.image, atX: glyph.x - left, y: ascent - glyph.top)
    }
    let trimmed = line.trimmed()
    guard trimmed.bytes.contains(where: { $0 != 0 }) else {
      throw TextImageError("the text \"\(text)\" has nothing to draw (nothing in it shows)")
    }
    let scale = min(1, Double(largest) / Double(max(trimmed.width, trimmed.height)))
    return scale < 1 ? trimmed.scaled(by: scale) : trimmed
  }

  /// Characters that draw nothing of their own: joiners and variation selectors.
  private static func invisible(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value)
  }

  /// Whether `scalar` is an emoji picture rather than a letter: which package to suggest.
  static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isEmojiPresentation || scalar.value >= 0x1F000
  }

  /// Debian's font package that has `scalar`: the colour emoji, Noto's Chinese, Japanese and
  /// Korean, DejaVu (Latin, Greek, Cyrillic, Armenian and the common symbols), or Noto's fonts
  /// for every other script.
  package static func fontPackage(for scalar: Unicode.Scalar) -> String {
    if isEmoji(scalar) { return "fonts-noto-color-emoji" }
    if cjkRanges.contains(where: { $0.contains(scalar.value) }) { return "fonts-noto-cjk" }
    if scalar.value < 0x0590 || (0x1D00..<0x2C00).contains(scalar.value) {
      return "fonts-dejavu-core"
    }
    return "fonts-noto-core"
  }

  /// Chinese, Japanese and Korean: the unified ideographs and their extensions, kana, hangul,
  /// bopomofo, CJK punctuation and the full-width forms.
  private static let cjkRanges: [ClosedRange<UInt32>] = [
    0x1100...0x11FF, 0x2E80...0x2FDF, 0x3000...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
    0xA960...0xA97F, 0xAC00...0xD7FF, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFFEF,
    0x20000...0x3FFFF,
  ]
}

/// A text shape that cannot be drawn, said in one line.
public struct TextImageError: Error, CustomStringConvertible {
  public var description: String
  init(_ description: String) { self.description = description }
}

/// A FreeType library and the fonts it opened, released together.
private final class Library {
  private var library: FT_Library?
  private var faces: [String: Face] = [:]

  init() throws {
    guard FT_Init_FreeType(&library) == 0, library != nil else {
      throw TextImageError("FreeType could not start (apt-get install libfreetype6)")
    }
  }

  deinit {
    faces.removeAll()
    FT_Done_FreeType(library)
  }

  /// A face of a font fontconfig finds for `scalar`: the best match that has it.
  func face(for scalar: Unicode.Scalar) throws -> Face {
    guard let path = Self.fontFile(for: scalar) else {
      let code = "U+" + String(scalar.value, radix: 16, uppercase: true)
      let package = TextImage.fontPackage(for: scalar)
      throw TextImageError(
        "no font on this system has \"\(Character(scalar))\" (\(code)): install one, such as "
          + "\(package) (apt-get install \(package))")
    }
    if let face = faces[path] { return face }
    let face = try Face(library: library, path: path)
    faces[path] = face
    return face
  }

  /// The file of the first font, in fontconfig's order for a pattern asking for `scalar`
  /// (and for colour, for an emoji), whose character set has it.
  private static func fontFile(for scalar: Unicode.Scalar) -> String? {
    guard FcInit() != 0, let pattern = FcPatternCreate() else { return nil }
    defer { FcPatternDestroy(pattern) }
    let characters = FcCharSetCreate()
    defer { FcCharSetDestroy(characters) }
    FcCharSetAddChar(characters, FcChar32(scalar.value))
    FcPatternAddCharSet(pattern, FC_CHARSET, characters)
    if TextImage.isEmoji(scalar) { FcPatternAddBool(pattern, FC_COLOR, FcTrue) }
    FcConfigSubstitute(nil, pattern, FcMatchPattern)
    FcDefaultSubstitute(pattern)
    var result = FcResultMatch
    guard let fonts = FcFontSort(nil, pattern, FcTrue, nil, &result) else { return nil }
    defer { FcFontSetDestroy(fonts) }
    for index in 0..<Int(fonts.pointee.nfont) {
      guard let font = fonts.pointee.fonts[index] else { continue }
      var set: OpaquePointer?
      var file: UnsafeMutablePointer<FcChar8>?
      guard FcPatternGetCharSet(font, FC_CHARSET, 0, &set) == FcResultMatch,
        FcCharSetHasChar(set, FcChar32(scalar.value)) != 0,
        FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file
      else { continue }
      return String(cString: file)
    }
    return nil
  }
}

/// One font file's first face, set to draw at about ``TextImage/pixelSize``.
private final class Face {
  private var face: FT_Face?
  /// For a bitmap font (colour emoji), the height of the strike chosen, in pixels: its glyphs
  /// are scaled from it to ``TextImage/pixelSize``. Nil for a scalable font, drawn at that size.
  private var strike: Int?

  init(library: FT_Library?, path: String) throws {
    guard FT_New_Face(library, path, 0, &face) == 0, let face else {
      throw TextImageError("cannot open the font \(path)")
    }
    if face.pointee.num_fixed_sizes > 0
      && face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) == 0
    {
      // A bitmap font (colour emoji): the strike nearest the size wanted.
      let sizes = UnsafeBufferPointer(
        start: face.pointee.available_sizes, count: Int(face.pointee.num_fixed_sizes))
      let nearest = sizes.indices.min {
        abs(Int(sizes[$0].height) - TextImage.pixelSize)
          < abs(Int(sizes[$1].height) - TextImage.pixelSize)
      }!
      FT_Select_Size(face, FT_Int(nearest))
      strike = Int(sizes[nearest].height)
    } else {
      FT_Set_Pixel_Sizes(face, 0, FT_UInt(TextImage.pixelSize))
    }
  }

  deinit { FT_Done_Face(face) }

  /// The glyph of `scalar`: its picture, its left edge from the pen, its top above the
  /// baseline and its advance, in pixels, scaled to about ``TextImage/pixelSize`` high.
  func glyph(_ scalar: Unicode.Scalar) throws -> (
    image: RGBAImage, left: Int, top: Int, advance: Int
  ) {
    guard let face,
      FT_Load_Char(face, FT_ULong(scalar.value), FT_Int32(FT_LOAD_RENDER | FT_LOAD_COLOR)) == 0,
      let slot = face.pointee.glyph
    else {
      throw TextImageError("the font cannot draw \"\(Character(scalar))\"")
    }
    let bitmap = slot.pointee.bitmap
    let (width, height) = (Int(bitmap.width), Int(bitmap.rows))
    let mode = Int32(bitmap.pixel_mode)
    let modes = [FT_PIXEL_MODE_BGRA, FT_PIXEL_MODE_MONO, FT_PIXEL_MODE_GRAY].map {
      Int32($0.rawValue)
    }
    guard width == 0 || modes.contains(mode) else {
      throw TextImageError(
        "the font draws \"\(Character(scalar))\" in a bitmap format this program does not read")
    }
    var image = RGBAImage(width: max(1, width), height: max(1, height), fill: .clear)
    let pitch = Int(bitmap.pitch)
    if let buffer = bitmap.buffer, width > 0, height > 0 {
      for y in 0..<height {
        // A negative pitch: the rows run upward in memory, the bottom one first.
        let row = buffer + (pitch >= 0 ? y * pitch : (height - 1 - y) * -pitch)
        for x in 0..<width {
          switch mode {
          case Int32(FT_PIXEL_MODE_BGRA.rawValue):
            // Premultiplied BGRA: kept in its own colours, straight alpha.
            let (b, g, r, a) = (row[4 * x], row[4 * x + 1], row[4 * x + 2], row[4 * x + 3])
            image[x, y] = RGBAImage.Pixel(red: r, green: g, blue: b, alpha: a).unpremultiplied
          case Int32(FT_PIXEL_MODE_MONO.rawValue):
            let on = row[x / 8] & (0x80 >> UInt8(x % 8)) != 0
            image[x, y] = RGBAImage.Pixel(red: 255, green: 255, blue: 255, alpha: on ? 255 : 0)
          default:
            // Grey coverage: white, tinted by the cell's colour.
            image[x, y] = RGBAImage.Pixel(red: 255, green: 255, blue: 255, alpha: row[x])
          }
        }
      }
    }
    var (left, top) = (Int(slot.pointee.bitmap_left), Int(slot.pointee.bitmap_top))
    var advance = Int(slot.pointee.advance.x >> 6)
    // A bitmap strike larger than wanted (colour emoji draw at 109 or 136 px) is scaled down.
    if let strike, strike > TextImage.pixelSize {
      let scale = Double(TextImage.pixelSize) / Double(strike)
      if width > 0 { image = image.scaled(by: scale) }
      left = Int((Double(left) * scale).rounded())
      top = Int((Double(top) * scale).rounded())
      advance = Int((Double(advance) * scale).rounded())
    }
    return (image, left, top, advance)
  }
}
