import Confetti
import ConfettiCore
import ConfettiGL
import ConfettiImage
import Foundation

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
    let description: [String: Any] = [
      "format": format,
      "size": [size.width, size.height],
      "background": [background.red, background.green, background.blue, background.alpha].map {
        Double($0) / 255
      },
      "time": time,
      "recordBytes": stride,
      "count": frame.records.count / stride,
      "copies": frame.copies,
      "attributes": ParticleRecord.attributes.map { attribute -> [String: Any] in
        [
          "name": attribute.name, "location": attribute.location, "count": attribute.count,
          "offset": attribute.offset, "type": typeName(attribute.component),
        ]
      },
      "viewport": [
        frame.viewport.x, frame.viewport.y, frame.viewport.width, frame.viewport.height,
      ],
      "scissor": [0, 0, size.width, size.height],
      "blend": ["ONE", "ONE_MINUS_SRC_ALPHA"],
      "uniforms": linked.map {
        ["name": $0.name, "type": $0.type, "size": $0.size, "values": $0.values]
      },
      "vertexShader": shaders.vertex,
      "fragmentShader": shaders.fragment,
    ]
    let json = try JSONSerialization.data(
      withJSONObject: description, options: [.prettyPrinted, .sortedKeys])
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
