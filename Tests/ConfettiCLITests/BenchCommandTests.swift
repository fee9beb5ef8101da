import Foundation
import XCTest

/// `confetti --bench`, run headless as a script would, its JSON parsed.
final class BenchCommandTests: XCTestCase {
  func json(_ arguments: [String]) throws -> [String: Any] {
    let result = try confetti(arguments, environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
    XCTAssertEqual(result.status, 0, result.stderr)
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return try XCTUnwrap(object as? [String: Any], result.stdout)
  }

  func assertModeFigures(_ mode: [String: Any], _ name: String) {
    for key in ["frame_ms", "gpu_ms", "app_cpu_ms"] {
      let summary = mode[key] as? [String: Double]
      XCTAssertEqual(
        Set(summary?.keys ?? [:].keys), ["min", "median", "p95", "p99", "max"], "\(name) \(key)")
      if let summary {
        XCTAssertLessThanOrEqual(summary["min"]!, summary["median"]!, "\(name) \(key)")
        XCTAssertLessThanOrEqual(summary["median"]!, summary["max"]!, "\(name) \(key)")
      }
    }
    XCTAssertEqual(mode["frames"] as? Int, 6, name)
    XCTAssertGreaterThan(mode["particles_per_second"] as? Double ?? 0, 0, name)
  }

  func testABenchPrintsOneJSONObjectWithoutADisplay() throws {
    let report = try json(["--bench", "3000", "--size", "320x240", "--frames", "6", "--json"])
    XCTAssertFalse((report["renderer"] as? String ?? "").isEmpty)
    XCTAssertFalse((report["gl_version"] as? String ?? "").isEmpty)
    XCTAssertEqual(report["particles"] as? Int, 3000)
    XCTAssertEqual(report["width"] as? Int, 320)
    XCTAssertEqual(report["height"] as? Int, 240)
    XCTAssert(["debug", "release"].contains(report["build"] as? String ?? ""))
    assertModeFigures(report, "gpu")
    XCTAssertEqual(
      report["upload_bytes_per_frame"] as? Double, 4, "a steady frame sends the clock only")
  }

  func testCompareReportsEveryModeAndTheRatios() throws {
    let report = try json([
      "--bench", "2000", "--size", "200x150", "--frames", "6", "--compare", "--json",
    ])
    let modes = try XCTUnwrap(report["modes"] as? [String: [String: Any]])
    XCTAssertEqual(Set(modes.keys), ["gpu", "cpu", "floor"])
    for (name, mode) in modes {
      assertModeFigures(mode, name)
      XCTAssertEqual(mode["mode"] as? String, name)
      XCTAssertEqual(mode["particles"] as? Int, 2000)
      XCTAssertEqual(mode["renderer"] as? String, report["renderer"] as? String)
    }
    XCTAssertEqual(modes["gpu"]?["upload_bytes_per_frame"] as? Double, 4)
    // The cpu baseline sends 20 bytes of placement per particle per frame.
    XCTAssertEqual(modes["cpu"]?["upload_bytes_per_frame"] as? Double, 2000 * 20)
    XCTAssertEqual(modes["floor"]?["upload_bytes_per_frame"] as? Double, 0)
    let ratios = try XCTUnwrap(report["ratios"] as? [String: Double])
    XCTAssertNotNil(ratios["gpu/cpu frame_ms"])
    XCTAssertNotNil(ratios["gpu/floor frame_ms"])
    XCTAssertNotNil(ratios["gpu/cpu app_cpu_ms"])
  }

  func testChurnUploadsTheNewlyBornRecordsEachFrame() throws {
    let report = try json([
      "--bench", "9000", "--size", "200x150", "--frames", "6", "--churn", "--json",
    ])
    XCTAssertEqual(report["scenario"] as? String, "churn")
    // 9000 particles living 3 s: 3000 births a second, 50 per 1/60 s frame, 64 bytes each.
    let bytes = try XCTUnwrap(report["upload_bytes_per_frame"] as? Double)
    XCTAssertEqual(bytes, 50 * 64 + 4, accuracy: 64)
  }

  func testASweepWritesATableAndAPlot() throws {
    let directory = try temporaryDirectory()
    let plot = directory.appendingPathComponent("sweep.svg")
    let result = try confetti([
      "--sweep", "100,1000", "--size", "160x120", "--frames", "5", "--plot", plot.path,
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssert(
      result.stdout.contains("N = 100 particles") && result.stdout.contains("N = 1000 particles"))
    let svg = try String(contentsOf: plot, encoding: .utf8)
    XCTAssert(svg.hasPrefix("<svg"))
    XCTAssertEqual(svg.components(separatedBy: "<polyline").count - 1, 3, "one line per mode")
  }

  func testAnUnwritablePlotIsRefusedBeforeMeasuring() throws {
    let result = try confetti(["--sweep", "10,20", "--frames", "5", "--plot", "/nonexistent/p.svg"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.stderr, "confetti: cannot write /nonexistent/p.svg: No such file or directory\n")
    XCTAssertEqual(result.stdout, "", "nothing was measured")
  }

  func testADebugBuildIsFlaggedLoudly() throws {
    #if DEBUG
      let result = try confetti(["--bench", "100", "--size", "64x64", "--frames", "5"])
      XCTAssert(result.stdout.contains("WARNING: this is a DEBUG build"), result.stdout)
    #endif
  }
}
