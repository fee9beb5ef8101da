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

  /// Writes the records to `path` and the rest to the `.json` beside it.
  package static func write(
    _ frame: (records: [UInt8], uniforms: [UniformValue], viewport: PixelRect, copies: Int),
    to path: String, size: PixelSize, background: RGBA8, time: Seconds
  ) throws {
    let stride = MemoryLayout<ParticleRecord>.stride
    let shaders = ParticleRenderer.shaderSources(features: .all, primitive: .points)
    let linked = frame.uniforms
    let description: [String: Any] = [
      "format": "confetti records 1",
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
    try OutputFile.check(describedAt)
    try OutputFile.write(Data(frame.records), to: path)
    do {
      try OutputFile.write(json, to: describedAt)
    } catch {
      unlink(path)  // the two files or neither
      throw error
    }
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
