/// Lengths in window points: GLFW window coordinates, origin top-left, y growing downward.
/// The framebuffer may hold more pixels than points (HiDPI); only the projection knows that.
public typealias Points = Double

/// Durations and instants in seconds.
public typealias Seconds = Double

/// One frame at 60 Hz, the one frame rate everything steps at: the grid emission decides
/// births on, a render's scene steps, the window's frame step, and the bench's frames.
package let oneFrame: Seconds = 1.0 / 60

/// Speeds in points per second. "Up" is a negative y speed (y grows downward, as on screen).
public typealias PointsPerSecond = Double

/// Accelerations in points per second squared.
public typealias PointsPerSecondSquared = Double

/// Rates in 1/s: drag coefficients, and the classic confetti's "Hz" that act as radians per second.
public typealias PerSecond = Double

/// Angles in degrees, as rotation and spin are written in configurations.
public typealias Degrees = Double

/// Angles in radians, as flutter and flip phases are drawn.
public typealias Radians = Double

/// A size in points.
public struct Size: Equatable, Sendable {
  /// Across, in points.
  public var width: Points
  /// Down, in points.
  public var height: Points

  /// A size of `width` by `height` points.
  public init(width: Points, height: Points) {
    self.width = width
    self.height = height
  }
}

/// A position in window points.
public struct Point: Equatable, Sendable {
  /// From the left edge, in points.
  public var x: Points
  /// From the top edge, in points (y grows downward).
  public var y: Points

  /// The point `x` points from the left and `y` from the top.
  public init(x: Points, y: Points) {
    self.x = x
    self.y = y
  }
}
