import ConfettiPlatform
import FoundationEssentials
import Glibc

extension BenchPlan {
  /// The results for `count` particles as the bench prints them: a heading, a table of
  /// `rows`' figures (one line a mode, columns aligned), and the ratios of their medians.
  package static func table(count: Int, rows benchRows: [BenchRow], results: [String: ModeResult])
    -> String
  {
    var lines = ["N = \(count) particles"]
    let header = [
      "mode", "drawn as", "frames", "frame ms: min", "median", "p95", "p99", "max",
      "gpu ms median", "app cpu ms median", "bytes/frame", "particles/s", "px/particle",
    ]
    var rows = [header]
    for row in benchRows {
      guard let r = results[row.label] else { continue }
      rows.append(
        [row.label, r.primitive, "\(r.frames)"]
          + [r.frame_ms.min, r.frame_ms.median, r.frame_ms.p95, r.frame_ms.p99, r.frame_ms.max]
          .map(figure)
          + [
            figure(r.gpu_ms.median), figure(r.app_cpu_ms.median),
            "\(Int(r.upload_bytes_per_frame))", String(formatting: "%.3g", r.particles_per_second),
            String(formatting: "%.1f", r.pixels_per_particle),
          ])
    }
    let widths = header.indices.map { column in rows.map { $0[column].count }.max()! }
    for row in rows {
      lines.append(
        zip(row, widths).enumerated().map { column, cell in
          let (text, width) = cell
          let padding = String(repeating: " ", count: max(0, width - text.count))
          return column < 2 ? text + padding : padding + text
        }.joined(separator: "  "))
    }
    let ratios = Self.ratios(results)
    if !ratios.isEmpty {
      lines.append(
        "ratios of medians: "
          + ratios.sorted { $0.key < $1.key }.map {
            "\($0.key) \(String(formatting: "%.4g", $0.value))"
          }
          .joined(separator: ", "))
    }
    return lines.map { $0 + "\n" }.joined()
  }

  /// A figure for the tables: whole numbers above 100, three or four decimals down to 0.001,
  /// and two significant digits (with an exponent) below that.
  package static func figure(_ value: Double) -> String {
    switch abs(value) {
    case 100...: return String(formatting: "%.0f", value)
    case 10..<100: return String(formatting: "%.1f", value)
    case 1..<10: return String(formatting: "%.2f", value)
    case 0.001..<1: return String(formatting: "%.4f", value)
    default: return String(formatting: "%.2g", value)
    }
  }
}
