@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiImage

/// The GPU side of a ``ShapeTable``: the polygon uniforms of particle.frag and the texture atlas
/// its images are packed into. Both renderers share it, so every mode cuts the same shapes.
package final class ShapeUniforms {
  private var table: ShapeTable?
  private var atlas: GLuint = 0
  /// The uniforms a program needs, kept to set them on a rebuilt program.
  private var points: [GLfloat] = []
  private var ranges: [GLint] = []
  private var rects: [GLfloat] = []

  /// Mipmap levels below the atlas: two, which the padding keeps the images apart down to.
  package static let mipmapLevels = 2
  /// Pixels left clear around each image, so that filtering never bleeds between them; images
  /// start, and the atlas's sides end, on multiples of it, so that each level halves the one
  /// above exactly.
  package static let padding = 4
  /// The widest and tallest image accepted, in pixels.
  static let largestImage = 512

  deinit {
    release()
  }

  /// Deletes the atlas now.
  func release() {
    if atlas != 0 { epoxy_glDeleteTextures(1, &atlas) }
    atlas = 0
  }

  /// Sends `table`'s polygons and `images` (its images, decoded, in order) if the table changed.
  func set(
    _ table: ShapeTable, images: [RGBAImage], program: ShaderProgram, info: GLInfo,
    meter: inout UploadMeter
  ) throws {
    guard table != self.table else { return }
    precondition(images.count == table.images.count, "one decoded image per path in the table")
    self.table = table
    (points, ranges) = ([], [])
    for polygon in table.allPolygons {
      ranges += [GLint(points.count / 2), GLint(polygon.count)]
      points += polygon.flatMap { [GLfloat($0.x), GLfloat($0.y)] }
    }
    let (pixels, width, height, rects) = try Self.pack(images)
    self.rects = rects
    if atlas == 0 { epoxy_glGenTextures(1, &atlas) }
    epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
    epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), atlas)
    HostGLState.resetUnpacking()
    // The mipmap levels are made here, not by glGenerateMipmap, whose filter each GL chooses:
    // every GL then samples the same levels.
    let levels = Self.mipmaps(of: pixels, width: width, height: height)
    // A compatibility profile's pixel transfer (scales, biases, colour maps) would change the
    // pixels on their way in: off for the upload, the host's put back after.
    HostGLState.withoutPixelTransfer(on: info) {
      for (level, pixels) in levels.enumerated() {
        epoxy_glTexImage2D(
          GLenum(GL_TEXTURE_2D), GLint(level), GL_RGBA8, GLsizei(width >> level),
          GLsizei(height >> level), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), pixels)
      }
    }
    epoxy_glTexParameteri(
      GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAX_LEVEL), GLint(Self.mipmapLevels))
    epoxy_glTexParameteri(
      GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR_MIPMAP_LINEAR)
    epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
    for wrap in [GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T] {
      epoxy_glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(wrap), GL_CLAMP_TO_EDGE)
    }
    meter.bufferBytes += levels.reduce(0) { $0 + $1.count }
    meter.bufferWrites += levels.count
    try apply(to: program, meter: &meter)
  }

  /// Sets the table's uniforms on `program` (a program built for other shapes needs them anew).
  func apply(to program: ShaderProgram, meter: inout UploadMeter) throws {
    epoxy_glUseProgram(program.id)
    epoxy_glUniform2fv(program.uniform("u_polygonPoints"), GLsizei(points.count / 2), points)
    epoxy_glUniform2iv(program.uniform("u_polygonRange"), GLsizei(ranges.count / 2), ranges)
    epoxy_glUniform1i(program.uniform("u_atlas"), 0)
    if !rects.isEmpty {
      epoxy_glUniform4fv(program.uniform("u_imageRect"), GLsizei(rects.count / 4), rects)
    }
    meter.uniformBytes += 4 * (points.count + ranges.count + rects.count + 1)
    meter.uniformWrites += 4
    try checkGL("sending the shape table")
  }

  /// Binds the atlas for drawing.
  func bind() {
    epoxy_glActiveTexture(GLenum(GL_TEXTURE0))
    epoxy_glBindTexture(GLenum(GL_TEXTURE_2D), atlas)
  }

  /// Packs `images` side by side in one row, premultiplied, and returns the atlas and each
  /// image's texture-coordinate rectangle (origin, size).
  package static func pack(_ images: [RGBAImage]) throws -> (
    pixels: [UInt8], width: Int, height: Int, rects: [GLfloat]
  ) {
    for image in images where image.width > largestImage || image.height > largestImage {
      throw GLError.tooLarge(
        "an image of \(image.width)x\(image.height) pixels is too large for the atlas "
          + "(\(largestImage)x\(largestImage) at most): scale it down")
    }
    let aligned = { (pixels: Int) in (pixels + padding - 1) / padding * padding }
    let width = images.reduce(padding) { $0 + aligned($1.width) + padding }
    let height = aligned(images.map(\.height).max() ?? 0) + 2 * padding
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    var rects: [GLfloat] = []
    var left = padding
    for image in images {
      for y in 0..<image.height {
        for x in 0..<image.width {
          let source = (y * image.width + x) * 4
          let target = ((y + padding) * width + left + x) * 4
          let alpha = UInt16(image.bytes[source + 3])
          for channel in 0..<3 {
            pixels[target + channel] = UInt8(
              (UInt16(image.bytes[source + channel]) * alpha + 127) / 255)
          }
          pixels[target + 3] = UInt8(alpha)
        }
      }
      rects += [
        GLfloat(left) / GLfloat(width), GLfloat(padding) / GLfloat(height),
        GLfloat(image.width) / GLfloat(width), GLfloat(image.height) / GLfloat(height),
      ]
      left += aligned(image.width) + padding
    }
    return (pixels, width, height, rects)
  }

  /// The atlas's `pixels` and its ``mipmapLevels`` levels below, each the one above halved by
  /// averaging 2×2 pixels (premultiplied, so colours do not bleed out of the clear around
  /// them), rounded to nearest. `width` and `height` are multiples of 2^levels.
  package static func mipmaps(of pixels: [UInt8], width: Int, height: Int) -> [[UInt8]] {
    precondition(width % (1 << mipmapLevels) == 0 && height % (1 << mipmapLevels) == 0)
    var levels = [pixels]
    var (w, h) = (width, height)
    for _ in 0..<mipmapLevels {
      let above = levels[levels.count - 1]
      let (half, halfHeight) = (w / 2, h / 2)
      var level = [UInt8](repeating: 0, count: half * halfHeight * 4)
      for y in 0..<halfHeight {
        for x in 0..<half {
          let topLeft = (2 * y * w + 2 * x) * 4
          for channel in 0..<4 {
            let sum =
              Int(above[topLeft + channel]) + Int(above[topLeft + 4 + channel])
              + Int(above[topLeft + w * 4 + channel]) + Int(above[topLeft + w * 4 + 4 + channel])
            level[(y * half + x) * 4 + channel] = UInt8((sum + 2) / 4)
          }
        }
      }
      levels.append(level)
      (w, h) = (half, halfHeight)
    }
    return levels
  }
}
