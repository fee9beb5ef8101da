// TEMPORARY (export/JSON refactor): dumps BenchPlan.report for fixed figures; removed after.
import ConfettiPresets
import Foundation
import XCTest

@testable import ConfettiBench
@testable import ConfettiGL

final class ZZTempReportDump: XCTestCase {
  func testDump() throws {
    let folder = ProcessInfo.processInfo.environment["REPORT_DUMP"] ?? "/tmp/report-dump"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let info = GLInfo(
      renderer: "llvmpipe (LLVM 15.0.6, 256 bits) / \"x\" \\ é 🎉", version: "4.5 Mesa 22.3.6",
      maxPointSize: 1, maxViewport: (1, 1), hasBaseInstance: true)
    func result(_ k: Double, _ primitive: String) -> ModeResult {
      ModeResult(
        primitive: primitive, frames: 10,
        frame_ms: Summary([0.1 * k, 0.2 * k, 0.30000000000000004 * k, 1e-7, 123456.789 * k]),
        gpu_ms: Summary([0, 0, 0]), app_cpu_ms: Summary([1e-5 * k, 2e15, 3.5]),
        upload_bytes_per_frame: 4 * k, particles_per_second: 2111464 * k,
        pixels_per_particle: 161.9 * k)
    }
    for churn in [false, true] {
      var plan = BenchPlan(
        modes: [.gpu], width: 64, height: 48, seconds: nil, frames: 10, churn: churn, seed: 1,
        effect: try Presets.named("classic-cannon"), reduceMotion: false, build: "debug")
      let one = plan.rows(primitive: .points)
      let single = ["gpu": result(1, "points")]
      try plan.report(sweep: [(300, single)], rows: one, info: info)
        .write(to: URL(fileURLWithPath: "\(folder)/single-\(churn).json"))
      plan.modes = BenchPlan.comparedModes(churn: churn)
      let rows = plan.rows(primitive: .points)
      var all: [String: ModeResult] = [:]
      for (index, row) in rows.enumerated() {
        all[row.label] = result(Double(index + 1) * 1.37, row.primitive.rawValue)
      }
      try plan.report(sweep: [(300, all)], rows: rows, info: info)
        .write(to: URL(fileURLWithPath: "\(folder)/compare-\(churn).json"))
      try plan.report(sweep: [(100, all), (1000, all)], rows: rows, info: info)
        .write(to: URL(fileURLWithPath: "\(folder)/sweep-\(churn).json"))
    }
  }
}
