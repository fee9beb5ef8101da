import Confetti
import ConfettiCore
import ConfettiGL
import ConfettiImage
import FoundationEssentials
import Glibc

/// `confetti render --records NAME.bin`: one picture's particle records and everything a port
/// of the shaders needs to draw them as this program did (`Examples/webgl2` reads them).
package enum RecordExport {
  /// The description written beside the records `path` (NAME.bin): NAME.json.
  package static func descriptionPath(of path: String) -> String {
    String(path.dropLast(".bin".count)) + ".json"
  }

  /// What a description begins by saying, so that one can be told from another JSON file.
  static let format = "confetti records 1"

  /// Throws unless the description of `path` may be written: nothing is there, or a
  /// description an earlier render wrote (any other JSON file is someone's, and kept).
  package static func checkDescription(of path: String, sparing inputs: [String]) throws {
    let described = descriptionPath(of: path)
    try OutputFile.check(described, sparing: inputs)
    guard FileManager.default.fileExists(atPath: described) else { return }
    let kept = (try? Data(contentsOf: URL(fileURLWithPath: described)).prefix(4096)) ?? Data()
    guard String(decoding: kept, as: UTF8.self).contains("\"\(format)\"") else {
      throw RenderError(
        description: "cannot write \(oneLine(described)), the records' description: a JSON "
          + "file that confetti did not write is there; move it, or give the records "
          + "another name")
    }
  }

  /// The records for `path` and the description beside it, written into hidden files not yet
  /// in their places (``OutputFile/commit(_:)``).
  package static func prepare(
    _ frame: (records: [UInt8], uniforms: [UniformValue], viewport: PixelRect, copies: Int),
    for path: String, size: PixelSize, background: RGBA8, time: Seconds
  ) throws -> [(file: ExclusiveFile, path: String)] {
    let stride = MemoryLayout<ParticleRecord>.stride
    let shaders = ParticleRenderer.shaderSources(features: .all, primitive: .points)
    let linked = frame.uniforms
    let description = RecordsDescription(
      format: format,
      size: [size.width, size.height],
      background: [background.red, background.green, background.blue, background.alpha].map {
        Double($0) / 255
      },
      time: time,
      recordBytes: stride,
      count: frame.records.count / stride,
      copies: frame.copies,
      attributes: ParticleRecord.attributes.map {
        .init(
          name: $0.name, location: $0.location, count: $0.count, offset: $0.offset,
          type: typeName($0.component))
      },
      viewport: [frame.viewport.x, frame.viewport.y, frame.viewport.width, frame.viewport.height],
      scissor: [0, 0, size.width, size.height],
      blend: ["ONE", "ONE_MINUS_SRC_ALPHA"],
      uniforms: linked.map {
        .init(name: $0.name, type: $0.type, size: $0.size, values: $0.values)
      },
      vertexShader: shaders.vertex,
      fragmentShader: shaders.fragment)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let json = try encoder.encode(description)
    let describedAt = descriptionPath(of: path)
    return [
      (try OutputFile.prepare(Data(frame.records), for: path), path),
      (try OutputFile.prepare(json, for: describedAt), describedAt),
    ]
  }

  private static func typeName(_ component: RecordAttribute.Component) -> String {
    switch component {
    case .float32: "float32"
    case .float16: "float16"
    case .normalizedUInt8: "unorm8"
    case .uint8: "uint8"
    case .uint32: "uint32"
    }
  }
}

/// The description written beside the records: how to draw them (the JSON's keys sorted).
private struct RecordsDescription: Encodable {
  struct Attribute: Encodable {
    var name: String
    var location: UInt32
    var count: Int
    var offset: Int
    var type: String
  }
  struct Uniform: Encodable {
    var name: String
    var type: String
    var size: Int
    var values: [Double]
  }
  var format: String
  var size: [Int]
  var background: [Double]
  var time: Double
  var recordBytes: Int
  var count: Int
  var copies: Int
  var attributes: [Attribute]
  var viewport: [Int]
  var scissor: [Int]
  var blend: [String]
  var uniforms: [Uniform]
  var vertexShader: String
  var fragmentShader: String
}
