import FoundationEssentials
import Glibc

/// The outlines and pictures particles may be drawn with beyond rectangles and circles: polygons
/// (the triangle and the star built in, a scene's own after them) and images, which the GL layer
/// packs into one texture atlas. The GPU keeps the polygons as a uniform array; a record names
/// its outline with one byte (``ParticleShape``).
package struct ShapeTable: Equatable, Sendable {
  /// The most corners all polygons together may have (the shader's array).
  package static let pointCapacity = 128
  /// The most corners one polygon may have.
  package static let cornerCapacity = 32

  /// A scene's own polygons, each with its corners stretched to [−1, 1] on both axes (y down).
  package private(set) var polygons: [[SIMD2<Double>]] = []
  /// A scene's images, in ``ParticleShape/image(_:)`` order: PNG files and texts to draw.
  package private(set) var images: [ImageSource] = []

  /// Where an image comes from.
  package enum ImageSource: Hashable, Sendable {
    /// A PNG file's path.
    case file(String)
    /// Text or emoji, drawn from the system's fonts.
    case text(String)
  }

  package init() {}

  /// The triangle: apex up, base down, filling the piece's box.
  package static let triangle: [SIMD2<Double>] = [SIMD2(0, -1), SIMD2(1, 1), SIMD2(-1, 1)]

  /// The five-pointed star, point up, inner radius 0.45 of the outer.
  package static let star: [SIMD2<Double>] = (0..<10).map { corner in
    let angle = Double(corner) * .pi / 5 - .pi / 2
    let radius = corner.isMultiple(of: 2) ? 1 : 0.45
    return SIMD2(radius * cos(angle), radius * sin(angle))
  }

  /// The built-in polygons and then the scene's, in the shader's order.
  package var allPolygons: [[SIMD2<Double>]] { Self.builtInPolygons + polygons }

  /// The outlines every table starts with, in the order of their shape codes.
  package static let builtInPolygons = [triangle, star]
  /// The most outlines a table holds: the built-in ones (``builtInPolygons``) and a scene's
  /// own (``ParticleShape/polygonCapacity``): the shaders' POLYGONS.
  package static let outlineCapacity = builtInPolygons.count + ParticleShape.polygonCapacity

  /// Adds a polygon (corners in any units, y down) and returns its shape, or reuses an equal one.
  /// Throws when it has fewer than 3 or more than ``cornerCapacity`` corners, a flat bounding box
  /// (no width or no height), or the table is full.
  package mutating func add(polygon corners: [SIMD2<Double>]) throws(ShapeTableError)
    -> ParticleShape
  {
    guard (3...Self.cornerCapacity).contains(corners.count) else {
      throw .polygonCorners(corners.count)
    }
    let low = corners.reduce(SIMD2(Double.infinity, .infinity)) { pointwiseMin($0, $1) }
    let high = corners.reduce(SIMD2(-Double.infinity, -.infinity)) { pointwiseMax($0, $1) }
    let extent = high - low
    guard extent.x > 0, extent.y > 0, extent.x.isFinite, extent.y.isFinite else {
      throw .flatPolygon
    }
    let normalized = corners.map { ($0 - low) / extent * 2 - 1 }
    if let index = polygons.firstIndex(of: normalized) { return .polygon(index) }
    guard polygons.count < ParticleShape.polygonCapacity,
      allPolygons.joined().count + corners.count <= Self.pointCapacity
    else {
      throw .full(
        "polygons: at most \(ParticleShape.polygonCapacity), \(Self.pointCapacity) corners in all")
    }
    polygons.append(normalized)
    return .polygon(polygons.count - 1)
  }

  /// Adds an image by its file's path and returns its shape, or reuses the same path.
  package mutating func add(image path: String) throws(ShapeTableError) -> ParticleShape {
    try add(.file(path))
  }

  /// Adds a text to draw as an image and returns its shape, or reuses the same text.
  package mutating func add(text: String) throws(ShapeTableError) -> ParticleShape {
    try add(.text(text))
  }

  private mutating func add(_ source: ImageSource) throws(ShapeTableError) -> ParticleShape {
    if let index = images.firstIndex(of: source) { return .image(index) }
    guard images.count < ParticleShape.imageCapacity else {
      throw .full("images and texts: at most \(ParticleShape.imageCapacity)")
    }
    images.append(source)
    return .image(images.count - 1)
  }
}

/// Why a shape does not fit the table.
package enum ShapeTableError: Error, Equatable, CustomStringConvertible {
  case polygonCorners(Int)
  case flatPolygon
  case full(String)

  package var description: String {
    switch self {
    case .polygonCorners(let count):
      "a polygon needs 3 to \(ShapeTable.cornerCapacity) corners, not \(count)"
    case .flatPolygon: "a polygon needs area: its corners must differ in both x and y"
    case .full(let what): "too many shapes in one scene (\(what))"
    }
  }
}
