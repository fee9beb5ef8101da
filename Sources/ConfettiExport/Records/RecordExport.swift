import Confetti
import ConfettiConfig
import ConfettiCore
import ConfettiGL
import ConfettiImage
import FoundationEssentials

/// `confetti render --records NAME.bin`: one picture's particle records and everything a port
/// of the shaders needs to draw them as this program did (`Examples/webgl2` reads them).
enum RecordExport {
  /// What one draw exports: its records as the GL's buffer holds them, every uniform's value,
  /// the viewport it drew into, and how many copies of each particle it drew (its trail).
  typealias Frame = (records: [UInt8], uniforms: [UniformValue], viewport: PixelRect, copies: Int)

  /// The description written beside the records `path` (NAME.bin): NAME.json.
  static func descriptionPath(of path: String) -> String {
    String(path.dropLast(".bin".count)) + ".json"
  }

  /// What a description begins by saying, so that one can be told from another JSON file.
  static let format = "confetti records 1"

  /// Throws unless the description of `path` may be written: nothing is there, or a
  /// description an earlier render wrote (any other JSON file is someone's, and kept).
  static func checkDescription(of path: String, sparing inputs: [String]) throws {
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

  /// Throws unless records can carry `effect` (drawn from `seed`): not its picture shapes
  /// (emoji, text, images), whose texture atlas is not exported. `option` spells a setting as
  /// the caller does.
  static func checkCarries(
    _ effect: Effect, seed: UInt64, naming option: (String) -> String
  ) throws {
    let scene = try EffectScene(config: effect.config.validated(), capacity: 1, seed: seed)
    guard !scene.expectedFeatures.contains(.images) else {
      throw RenderError(
        description:
          "\(option("records")) cannot carry this effect's picture shapes (emoji, text, "
          + "images): their texture atlas is not exported; choose an effect without them")
    }
  }

  /// The records for `path` and the description beside it, written into hidden files not yet
  /// in their places (``OutputFile/commit(_:)``).
  static func prepare(
    _ frame: Frame, for path: String, size: PixelSize, background: RGBA8, time: Seconds
  ) throws -> [(file: ExclusiveFile, path: String)] {
    let describedAt = descriptionPath(of: path)
    let json: String
    do {
      json = try description(of: frame, size: size, background: background, time: time)
        .text(.indented)
    } catch {
      throw RenderError(
        description: "cannot write \(oneLine(describedAt)), the records' description: \(error)")
    }
    return [
      (try OutputFile.prepare(Data(frame.records), for: path), path),
      (try OutputFile.prepare(Data(json.utf8), for: describedAt), describedAt),
    ]
  }

  /// How to draw `frame`'s records as this program drew them, its keys sorted: the format,
  /// the picture's size and background (RGBA, 0 to 1), the moment drawn, the records' layout
  /// and count, the viewport, scissor box and blending, every uniform's value, the shaders.
  static func description(
    of frame: Frame, size: PixelSize, background: RGBA8, time: Seconds
  ) -> JSONValue {
    let stride = MemoryLayout<ParticleRecord>.stride
    let shaders = ParticleRenderer.shaderSources(features: .all, primitive: .points)
    /// A count or a place in pixels as a JSON number.
    func number(_ value: Int) -> JSONValue { .number(Double(value)) }
    /// A list of them.
    func numbers(_ values: [Int]) -> JSONValue { .array(values.map(number)) }
    let viewport = frame.viewport
    let description: JSONValue = .object([
      ("format", .string(format)),
      ("size", numbers([size.width, size.height])),
      (
        "background",
        .array(
          [background.red, background.green, background.blue, background.alpha].map {
            .number(Double($0) / 255)
          })
      ),
      ("time", .number(time)),
      ("recordBytes", number(stride)),
      ("count", number(frame.records.count / stride)),
      ("copies", number(frame.copies)),
      (
        "attributes",
        .array(
          ParticleRecord.attributes.map {
            .object([
              ("name", .string($0.name)), ("location", .number(Double($0.location))),
              ("count", number($0.count)), ("offset", number($0.offset)),
              ("type", .string(typeName($0.component))),
            ])
          })
      ),
      ("viewport", numbers([viewport.x, viewport.y, viewport.width, viewport.height])),
      ("scissor", numbers([0, 0, size.width, size.height])),
      ("blend", .array([.string("ONE"), .string("ONE_MINUS_SRC_ALPHA")])),
      (
        "uniforms",
        .array(
          frame.uniforms.map {
            .object([
              ("name", .string($0.name)), ("type", .string($0.type)), ("size", number($0.size)),
              ("values", .array($0.values.map(JSONValue.number))),
            ])
          })
      ),
      ("vertexShader", .string(shaders.vertex)),
      ("fragmentShader", .string(shaders.fragment)),
    ])
    return description.sortedByKey
  }

  /// A record attribute's component type as the description names it.
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
