import ConfettiTestSupport
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
    // The product drawn as `auto` picks on this GL (per-vertex points on llvmpipe, quads on
    // NVIDIA's), and as each of the other two.
    let auto = try XCTUnwrap(modes["gpu"]?["primitive"] as? String)
    let others = ["points", "instanced-points", "quads"].filter { $0 != auto }
    XCTAssertEqual(others.count, 2, "gpu is drawn as \(auto)")
    XCTAssertEqual(
      Set(modes.keys), Set(["gpu", "cpu", "cpu-simd", "floor"] + others.map { "gpu \($0)" }))
    for other in others {
      XCTAssertEqual(modes["gpu \(other)"]?["primitive"] as? String, other)
    }
    for (name, mode) in modes {
      assertModeFigures(mode, name)
      XCTAssertEqual(mode["mode"] as? String, name)
      XCTAssertEqual(mode["particles"] as? Int, 2000)
      XCTAssertEqual(mode["renderer"] as? String, report["renderer"] as? String)
    }
    XCTAssertEqual(modes["gpu"]?["upload_bytes_per_frame"] as? Double, 4)
    // The cpu baselines send a 32-byte sprite per particle per frame.
    XCTAssertEqual(modes["cpu"]?["upload_bytes_per_frame"] as? Double, 2000 * 32)
    XCTAssertEqual(modes["cpu-simd"]?["upload_bytes_per_frame"] as? Double, 2000 * 32)
    XCTAssertEqual(modes["floor"]?["upload_bytes_per_frame"] as? Double, 0)
    // Quads shade fewer pixels per particle than point sprites: only the piece and its edge.
    // (The baselines are drawn as the product is.)
    let pixels = Dictionary(
      modes.values.map { ($0["primitive"] as? String ?? "", $0["pixels_per_particle"] as? Double) },
      uniquingKeysWith: { first, _ in first })
    XCTAssertLessThan(
      try XCTUnwrap(pixels["quads"] ?? nil), try XCTUnwrap(pixels["points"] ?? nil))
    XCTAssertEqual(pixels["points"], pixels["instanced-points"])
    let drawn = modes.mapValues { $0["pixels_per_particle"] as? Double ?? 0 }
    XCTAssertEqual(drawn["gpu"], drawn["cpu"])
    // Every time is rounded to the microsecond: no long binary fractions in the text.
    let text = try confetti([
      "--bench", "500", "--size", "100x100", "--frames", "3", "--compare", "--json",
    ]).stdout
    XCTAssertNil(
      text.range(of: #""(min|median|p95|p99|max)": ?-?\d+\.\d{4,}"#, options: .regularExpression),
      text)
    XCTAssertNotNil(text.range(of: #""median": ?\d+\.\d{1,3}[,}]"#, options: .regularExpression))
    let ratios = try XCTUnwrap(report["ratios"] as? [String: Double])
    XCTAssertNotNil(ratios["gpu/cpu-simd frame_ms"])
    XCTAssertNotNil(ratios["gpu/cpu frame_ms"])
    XCTAssertNotNil(ratios["gpu/floor frame_ms"])
    XCTAssertNotNil(ratios["gpu/cpu app_cpu_ms"])
  }

  func testChurnUploadsTheNewlyBornRecordsEachFrame() throws {
    let report = try json([
      "--bench", "9000", "--size", "200x150", "--frames", "6", "--churn", "--json",
    ])
    XCTAssertEqual(report["scenario"] as? String, "churn")
    // 9000 particles living 3 s: 3000 births a second, 50 per 1/60 s frame, 68 bytes each.
    let bytes = try XCTUnwrap(report["upload_bytes_per_frame"] as? Double)
    XCTAssertEqual(bytes, 50 * 68 + 4, accuracy: 68)
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
    // Six rows (the product drawn three ways, three baselines), each with a frame time line
    // and an application CPU time line, dashed.
    XCTAssertEqual(svg.components(separatedBy: "<polyline").count - 1, 12, "two lines per row")
    XCTAssertEqual(svg.components(separatedBy: "stroke-dasharray").count - 1, 6)
    for label in ["gpu", "cpu", "cpu-simd", "floor"] {
      XCTAssert(svg.contains(">\(label)</text>"), "the legend names \(label)")
    }
    // And the product as the two primitives `auto` did not pick on this GL.
    let drawnAs = ["points", "instanced-points", "quads"].filter {
      svg.contains(">gpu \($0)</text>")
    }
    XCTAssertEqual(drawnAs.count, 2, "the legend names the other primitives: \(drawnAs)")
  }

  func testAnUnwritablePlotIsRefusedBeforeMeasuring() throws {
    let result = try confetti([
      "--sweep", "10,20", "--frames", "5", "--plot", "\(missingFolder)/p.svg",
    ])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.stderr, "confetti: cannot write \(missingFolder)/p.svg: No such file or directory\n")
    XCTAssertEqual(result.stdout, "", "nothing was measured")
  }

  func testADebugBuildIsFlaggedLoudlyAndAReleaseBuildIsNot() throws {
    // The binary under test is built as the tests are: flagged in debug, quiet in release.
    let result = try confetti(["--bench", "100", "--size", "64x64", "--frames", "5"])
    XCTAssertEqual(result.status, 0, result.stderr)
    #if DEBUG
      XCTAssert(result.stdout.contains("WARNING: this is a DEBUG build"), result.stdout)
    #else
      XCTAssertFalse(result.stdout.contains("WARNING"), result.stdout)
      XCTAssert(result.stdout.contains("ms"), result.stdout)
    #endif
  }
}
