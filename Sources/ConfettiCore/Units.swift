/// Lengths in window points: GLFW window coordinates, origin top-left, y growing downward.
/// The framebuffer may hold more pixels than points (HiDPI); only the projection knows that.
public typealias Points = Double

/// Durations and instants in seconds.
public typealias Seconds = Double

/// One frame at 60 Hz, the one frame rate everything steps at: the grid emission decides
/// births on, a render's scene steps, the window's frame step, and the bench's frames.
public let oneFrame: Seconds = 1.0 / 60

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
  public var width: Points
  public var height: Points

  public init(width: Points, height: Points) {
    self.width = width
    self.height = height
  }
}

/// A position in window points.
public struct Point: Equatable, Sendable {
  public var x: Points
  public var y: Points

  public init(x: Points, y: Points) {
    self.x = x
    self.y = y
  }
}
