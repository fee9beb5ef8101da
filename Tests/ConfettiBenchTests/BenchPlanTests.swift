import ConfettiBench
import ConfettiCore
import ConfettiGL
import ConfettiGLTestSupport
import ConfettiPresets
import Foundation
import XCTest

/// `confetti bench`'s measuring and report, run in-process: every row measured for its frames in
/// rounds, the product sending only its clock, and the JSON a script reads.
final class BenchPlanTests: HeadlessGLTestCase {
  private func plan(modes: [BenchMode]) throws -> BenchPlan {
    BenchPlan(
      modes: modes, width: 64, height: 64, seconds: nil, frames: 10, churn: false, seed: 1,
      effect: try Presets.named("classic-cannon"), reduceMotion: false, build: "test")
  }

  func testACompareRunMeasuresEveryRowAndReportsModesAndRatios() throws {
    let plan = try plan(modes: BenchPlan.comparedModes(churn: false))
    let rows = plan.rows(primitive: .points)
    XCTAssertEqual(
      rows.map(\.label),
      ["gpu", "gpu instanced-points", "gpu quads", "cpu", "cpu-simd", "floor"])
    let results = try plan.measure(count: 300, rows: rows, info: context.info) { _ in [] }
    XCTAssertEqual(Set(results.keys), Set(rows.map(\.label)))
    for (label, result) in results {
      XCTAssertEqual(result.frames, 10, label)
      XCTAssertGreaterThan(result.frame_ms.median, 0, label)
    }
    XCTAssertEqual(results["gpu"]?.upload_bytes_per_frame, 4, "the product sends its clock")
    XCTAssertGreaterThan(results["cpu"]?.upload_bytes_per_frame ?? 0, 300 * 16)

    let data = try plan.report(sweep: [(300, results)], rows: rows, info: context.info)
    let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    XCTAssertEqual(report["particles"] as? Int, 300)
    XCTAssertEqual(report["build"] as? String, "test")
    XCTAssertEqual(report["effect"] as? String, "classic-cannon")
    XCTAssertEqual(report["renderer"] as? String, context.info.renderer)
    let modes = try XCTUnwrap(report["modes"] as? [String: [String: Any]])
    XCTAssertEqual(Set(modes.keys), Set(rows.map(\.label)))
    XCTAssertEqual(modes["gpu quads"]?["primitive"] as? String, "quads")
    let ratios = try XCTUnwrap(report["ratios"] as? [String: Double])
    XCTAssertNotNil(ratios["gpu/cpu frame_ms"])
  }

  func testEveryRoundMeasuresAFrameHoweverShortItsShare() throws {
    var plan = try plan(modes: [.gpu])
    (plan.seconds, plan.frames) = (1e-9, nil)
    let results = try plan.measure(
      count: 50, rows: plan.rows(primitive: .points), info: context.info
    ) { _ in [] }
    XCTAssertEqual(results["gpu"]?.frames, BenchPlan.rounds, "one a round, none of them zero")
    XCTAssertGreaterThan(results["gpu"]?.frame_ms.median ?? 0, 0)
  }

  func testOneModesFiguresSitAtTheTopAndASweepIsAList() throws {
    let plan = try plan(modes: [.gpu])
    let rows = plan.rows(primitive: .quads)
    XCTAssertEqual(rows.map(\.label), ["gpu"])
    let small = try plan.measure(count: 50, rows: rows, info: context.info) { _ in [] }
    let large = try plan.measure(count: 500, rows: rows, info: context.info) { _ in [] }

    let one = try plan.report(sweep: [(50, small)], rows: rows, info: context.info)
    let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: one) as? [String: Any])
    XCTAssertEqual(report["mode"] as? String, "gpu")
    XCTAssertEqual(report["primitive"] as? String, "quads")
    XCTAssertEqual(report["frames"] as? Int, 10)
    XCTAssertNil(report["modes"])

    let both = try plan.report(sweep: [(50, small), (500, large)], rows: rows, info: context.info)
    let sweep = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: both) as? [String: Any])?["sweep"] as? [[String: Any]]
    )
    XCTAssertEqual(sweep.map { $0["particles"] as? Int }, [50, 500])
  }
}
