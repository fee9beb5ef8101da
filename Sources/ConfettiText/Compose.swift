import ConfettiImage

/// What laying glyphs out needs of a picture: pasting, trimming, shrinking.
extension RGBAImage {
  /// Pastes `image` with its top left corner at (`x`, `y`), over what is there, clipped.
  mutating func draw(_ image: RGBAImage, atX left: Int, y top: Int) {
    for y in 0..<image.height where (0..<height).contains(top + y) {
      for x in 0..<image.width where (0..<width).contains(left + x) {
        let pixel = image[x, y]
        if pixel.alpha > self[left + x, top + y].alpha { self[left + x, top + y] = pixel }
      }
    }
  }

  /// The smallest part that holds every pixel with any alpha (1×1 clear when there is none).
  func trimmed() -> RGBAImage {
    var (low, high) = ((x: width, y: height), (x: -1, y: -1))
    for y in 0..<height {
      for x in 0..<width where self[x, y].alpha > 0 {
        low = (min(low.x, x), min(low.y, y))
        high = (max(high.x, x), max(high.y, y))
      }
    }
    guard high.x >= low.x else { return RGBAImage(width: 1, height: 1, fill: .clear) }
    var part = RGBAImage(width: high.x - low.x + 1, height: high.y - low.y + 1, fill: .clear)
    part.draw(self, atX: -low.x, y: -low.y)
    return part
  }

  /// The picture shrunk by `scale` (below 1), each new pixel the alpha-weighted mean of the
  /// old pixels it covers, so edges stay smooth and colours do not darken.
  func scaled(by scale: Double) -> RGBAImage {
    let (w, h) = (
      max(1, Int((Double(width) * scale).rounded())),
      max(1, Int((Double(height) * scale).rounded()))
    )
    var small = RGBAImage(width: w, height: h, fill: .clear)
    for y in 0..<h {
      for x in 0..<w {
        let xs = (x * width / w)..<max(x * width / w + 1, (x + 1) * width / w)
        let ys = (y * height / h)..<max(y * height / h + 1, (y + 1) * height / h)
        var sum = SIMD4<Double>.zero
        for sy in ys {
          for sx in xs {
            let p = self[sx, sy]
            let a = Double(p.alpha)
            sum += SIMD4(Double(p.red) * a, Double(p.green) * a, Double(p.blue) * a, a)
          }
        }
        let count = Double(xs.count * ys.count)
        guard sum.w > 0 else { continue }
        let byte = { (v: Double) in UInt8(min(255, max(0, v.rounded()))) }
        small[x, y] = Pixel(
          red: byte(sum.x / sum.w), green: byte(sum.y / sum.w), blue: byte(sum.z / sum.w),
          alpha: byte(sum.w / count))
      }
    }
    return small
  }
}
