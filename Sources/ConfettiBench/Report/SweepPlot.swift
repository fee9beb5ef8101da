import ConfettiCore
import ConfettiGL
import ConfettiImage
import ConfettiPlatform
import FoundationEssentials
import Glibc

/// Median frame time (solid) and application CPU time per frame (dashed) against particle
/// count on log–log axes, one colour per mode, as SVG.
package struct SweepPlot {
  /// The modes, in the legend's order.
  package var labels: [String]
  package var points: [(count: Int, medians: [String: (frame: Double, app: Double)])]
  package var renderer: String
  package var size: PixelSize

  /// A plot of `points` (each count's medians by mode), its legend in the order of `labels`.
  package init(
    labels: [String], points: [(count: Int, medians: [String: (frame: Double, app: Double)])],
    renderer: String, size: PixelSize
  ) {
    (self.labels, self.points, self.renderer, self.size) = (labels, points, renderer, size)
  }

  /// The smallest time the figures show, in milliseconds: they are rounded to a microsecond.
  static let resolution = 0.001

  private static let colors = [
    "#ff9500", "#ffcc00", "#a2845e", "#007aff", "#5856d6", "#8e8e93", "#34c759",
  ]

  package func write(to path: String) throws {
    try OutputFile.write(Data(render().utf8), to: path)
  }

  package func render() -> String {
    let (width, height) = (720.0, 440.0)
    let (left, right, top, bottom) = (70.0, 170.0, 40.0, 50.0)
    let counts = points.map { Double($0.count) }
    let times = points.flatMap { $0.medians.values.flatMap { [$0.frame, $0.app] } }
      .map { max($0, Self.resolution) }
    let xRange = decades(counts.min() ?? 1, counts.max() ?? 10)
    let yRange = decades(times.min() ?? 1, times.max() ?? 10)
    func x(_ value: Double) -> Double {
      left + (log10(value) - xRange.lowerBound) / (xRange.upperBound - xRange.lowerBound)
        * (width - left - right)
    }
    func y(_ value: Double) -> Double {
      height - bottom - (log10(value) - yRange.lowerBound) / (yRange.upperBound - yRange.lowerBound)
        * (height - top - bottom)
    }
    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
      font-family="sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="white"/>
      <text x="\(left)" y="17" font-size="13">confetti --bench: median frame time (solid) and \
      app CPU time per frame (dashed)</text>
      <text x="\(left)" y="32" font-size="11" fill="#555">\(size.width)×\(size.height), \
      \(escape(renderer))</text>

      """
    for decade in Int(xRange.lowerBound)...Int(xRange.upperBound) {
      let px = x(pow(10, Double(decade)))
      svg += line(px, top, px, height - bottom, "#ddd")
      svg += text(px, height - bottom + 18, "10^\(decade)", anchor: "middle")
    }
    for decade in Int(yRange.lowerBound)...Int(yRange.upperBound) {
      let py = y(pow(10, Double(decade)))
      svg += line(left, py, width - right, py, "#ddd")
      svg += text(left - 8, py + 4, formatMilliseconds(pow(10, Double(decade))), anchor: "end")
    }
    svg += text((left + width - right) / 2, height - 12, "particles (N)", anchor: "middle")
    svg += text(16, (top + height - bottom) / 2, "ms per frame", anchor: "middle", rotate: true)
    for (index, label) in labels.enumerated() {
      let color = Self.colors[index % Self.colors.count]
      for (dash, figure) in [
        ("", \(frame: Double, app: Double).frame), (" stroke-dasharray=\"5 4\"", \.app),
      ] {
        // A time under the figures' resolution (reported as 0: a steady scene's app time on
        // the GPU modes) is drawn at it: a log scale has no 0, and the line must not vanish.
        let series = points.compactMap { point in
          point.medians[label].map { (point.count, max($0[keyPath: figure], Self.resolution)) }
        }
        guard !series.isEmpty else { continue }
        let path = series.map { "\(x(Double($0.0))),\(y($0.1))" }.joined(separator: " ")
        svg +=
          "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dash)/>\n"
        for (count, time) in series {
          svg +=
            "<circle cx=\"\(x(Double(count)))\" cy=\"\(y(time))\" r=\"3\" fill=\"\(color)\"/>\n"
        }
      }
      let legendY = top + 20 + Double(index) * 20
      svg += line(width - right + 15, legendY - 4, width - right + 40, legendY - 4, color, 2)
      svg += text(width - right + 46, legendY, label, anchor: "start")
    }
    return svg + "</svg>\n"
  }

  /// Whole decades (as log10) that contain `low…high`.
  private func decades(_ low: Double, _ high: Double) -> ClosedRange<Double> {
    let bottom = floor(log10(low))
    return bottom...max(bottom + 1, ceil(log10(high)))
  }

  private func line(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ color: String, _ width: Double = 1
  ) -> String {
    "<line x1=\"\(x1)\" y1=\"\(y1)\" x2=\"\(x2)\" y2=\"\(y2)\" stroke=\"\(color)\" stroke-width=\"\(width)\"/>\n"
  }

  private func text(
    _ x: Double, _ y: Double, _ content: String, anchor: String, rotate: Bool = false
  )
    -> String
  {
    let transform = rotate ? " transform=\"rotate(-90 \(x) \(y))\"" : ""
    return "<text x=\"\(x)\" y=\"\(y)\" text-anchor=\"\(anchor)\"\(transform)>\(content)</text>\n"
  }

  private func formatMilliseconds(_ value: Double) -> String {
    value >= 1 ? String(formatting: "%.0f", value) : String(formatting: "%g", value)
  }

  private func escape(_ text: String) -> String {
    text.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
  }
}
