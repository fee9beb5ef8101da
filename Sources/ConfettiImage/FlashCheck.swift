import ConfettiCore
import ConfettiPlatform
import FoundationEssentials
import Glibc

/// The photosensitivity check of an animation, frame by frame, after WCAG 2.1's success
/// criterion 2.3.1 (Three Flashes or Below Threshold) and its definitions of a general flash and
/// a red flash:
///
/// - a **general flash** is a pair of opposing changes in relative luminance (from linearised
///   sRGB: 0.2126 R + 0.7152 G + 0.0722 B) of 0.1 or more, where the darker state is below
///   0.8;
/// - a **red flash** is a pair of opposing transitions involving a saturated red: R/(R+G+B) of
///   0.8 or more in linear values, and a change of (R − G − B) × 320 greater than 20;
/// - content fails when either happens more than 3 times in any one second over more than 25 %
///   of any region a quarter of the screen wide and a third of it tall (341 × 256 pixels on a
///   1024 × 768 screen: 10° of the visual field at a typical viewing distance).
///
/// Frames are looked at in cells of a few pixels, their colours averaged in linear light, so
/// that a frame is at most 256 cells wide (a 1024 × 768 frame in cells of 4 × 4 pixels: a
/// region is 85 × 64 of them): finer than the eye resolves at that distance, and cheap enough
/// to check every frame of a clip. Each cell's changes are followed from its extremes: a
/// transition is counted when its value turns back from the last extreme by the threshold (a
/// slow fade that keeps going one way is one change, however long). A pair of transitions is a
/// flash, so a second holding 7 transitions holds more than 3 flashes.
public struct FlashCheck: Sendable {
  /// The most flashes a second allowed over more than a quarter of a region.
  public static let mostFlashesPerSecond = 3.0
  /// The share of a region that may flash more often than that.
  public static let largestShare = 0.25
  /// A region, as a share of the picture's width and height.
  public static let region = (width: 341.0 / 1024, height: 256.0 / 768)

  /// How one kind of flash (general or red) went over the whole animation.
  public struct Kind: Sendable, Equatable {
    /// The most flashes within one second over more than a quarter of some region: halves
    /// count (3.5 is 7 transitions).
    public var flashesPerSecond = 0.0
    /// The largest share of a region that flashed more than 3 times within one second.
    public var shareAboveLimit = 0.0
    /// When the second of ``flashesPerSecond`` ended, in seconds from the first frame.
    public var at = 0.0

    /// Whether it stays within WCAG 2.3.1.
    public var passes: Bool {
      flashesPerSecond <= FlashCheck.mostFlashesPerSecond
        && shareAboveLimit <= FlashCheck.largestShare
    }
  }

  /// The result so far: general flashes, and red ones.
  public private(set) var general = Kind()
  public private(set) var red = Kind()

  /// Whether both kinds stay within WCAG 2.3.1.
  public var passes: Bool { general.passes && red.passes }

  /// One line: whether the frames pass, and each kind's worst second.
  public var summary: String {
    func said(_ kind: Kind) -> String {
      guard kind.flashesPerSecond > 0 || kind.shareAboveLimit > 0 else { return "none" }
      let flashes = kind.flashesPerSecond
      var text =
        flashes == 0
        ? "under 1 a second over a quarter of any region"
        : "at most \(flashes == flashes.rounded() ? String(Int(flashes)) : String(flashes)) a "
          + "second over a quarter of a region"
      if !kind.passes { text += String(formatting: " (the second to %.2f s)", kind.at) }
      let share = kind.shareAboveLimit * 100
      if share > 0 {
        text += ", more than 3 over " + (share < 1 ? "under 1" : String(Int(share.rounded())))
        text += " % of one"
      }
      return text
    }
    let verdict = passes ? "within WCAG 2.3.1" : "fails WCAG 2.3.1"
    let line = "flashes: \(verdict): general \(said(general)); red \(said(red))"
    guard !passes else { return line }
    return line
      + ": more than 3 flashes a second over more than a quarter of a region can cause "
      + "seizures; make the flashing pieces slower, smaller or less bright"
  }

  private let width: Int
  private let height: Int
  /// Pixels a cell has on each side, and the cells across and down.
  private let block: Int
  private let columns: Int
  private let rows: Int
  /// How many pixels each cell holds: the block's, less at the right and bottom edges.
  private let cellPixels: [Double]
  private let window: Int
  private let fps: Double
  private var frame = 0
  private var luminance: Follower
  private var redness: Follower

  /// The most cells a frame is looked at in, across.
  public static let mostColumns = 256

  /// A check of frames `width` × `height` pixels shown at `fps` frames a second.
  public init(width: Int, height: Int, fps: Double) {
    precondition(width > 0 && height > 0 && fps > 0, "a check needs pixels and a frame rate")
    (self.width, self.height, self.fps) = (width, height, fps)
    block = max(1, (width + Self.mostColumns - 1) / Self.mostColumns)
    (columns, rows) = ((width + block - 1) / block, (height + block - 1) / block)
    cellPixels = (0..<rows).flatMap { [block, columns] row in
      (0..<columns).map { column in
        Double(min(block, width - column * block) * min(block, height - row * block))
      }
    }
    window = max(1, Int(fps.rounded()))
    luminance = Follower(count: columns * rows, threshold: 0.1, darkerBelow: 0.8)
    redness = Follower(count: columns * rows, threshold: 20, darkerBelow: .infinity)
  }

  /// Adds the next frame: `bytes` of opaque RGBA pixels, row after row (either way up).
  public mutating func add(rgba bytes: UnsafeRawBufferPointer) {
    precondition(bytes.count >= width * height * 4, "a frame smaller than the check's")
    var sums = [Double](repeating: 0, count: columns * rows * 3)
    let pixels = bytes.bindMemory(to: UInt8.self)
    RGBA8.linearLight.withUnsafeBufferPointer { linear in
      sums.withUnsafeMutableBufferPointer { sums in
        for y in 0..<height {
          let cellRow = (y / block) * columns
          var at = y * width * 4
          for x in 0..<width {
            let cell = cellRow + x / block
            sums[cell * 3] += linear[Int(pixels[at])]
            sums[cell * 3 + 1] += linear[Int(pixels[at + 1])]
            sums[cell * 3 + 2] += linear[Int(pixels[at + 2])]
            at += 4
          }
        }
      }
    }
    let counts = cellPixels
    var lum = [Double](repeating: 0, count: columns * rows)
    var reds = [Double](repeating: 0, count: columns * rows)
    sums.withUnsafeBufferPointer { sums in
      for cell in 0..<(columns * rows) {
        let (r, g, b) = (
          sums[cell * 3] / counts[cell], sums[cell * 3 + 1] / counts[cell],
          sums[cell * 3 + 2] / counts[cell]
        )
        lum[cell] = RGBA8.relativeLuminance(red: r, green: g, blue: b)
        let sum = r + g + b
        reds[cell] = sum > 0 && r / sum >= 0.8 ? max(0, (r - g - b) * 320) : 0
      }
    }
    luminance.follow(lum, frame: frame)
    redness.follow(reds, frame: frame)
    let seconds = Double(frame) / fps
    update(&general, from: luminance, at: seconds)
    update(&red, from: redness, at: seconds)
    frame += 1
  }

  /// Folds this frame's last second into `kind`.
  private func update(_ kind: inout Kind, from follower: Follower, at seconds: Double) {
    let counts = follower.transitions(since: frame - window + 1)
    let (width, height) = (columns, rows)
    // The worst region's share of cells with at least t transitions in the last second.
    let regionWidth = min(width, max(1, Int((Double(width) * Self.region.width).rounded())))
    let regionHeight = min(height, max(1, Int((Double(height) * Self.region.height).rounded())))
    let stride = width + 1
    var table = [Int32](repeating: 0, count: stride * (height + 1))
    func worstShare(atLeast t: UInt8) -> Double {
      // A summed-area table of the cells that changed t times or more.
      let most = counts.withUnsafeBufferPointer { counts in
        table.withUnsafeMutableBufferPointer { table -> Int32 in
          for y in 0..<height {
            var row: Int32 = 0
            for x in 0..<width {
              row += counts[y * width + x] >= t ? 1 : 0
              table[(y + 1) * stride + x + 1] = table[y * stride + x + 1] + row
            }
          }
          var most: Int32 = 0
          for y in 0...(height - regionHeight) {
            let (top, bottom) = (y * stride, (y + regionHeight) * stride)
            for x in 0...(width - regionWidth) {
              let right = x + regionWidth
              let inside =
                table[bottom + right] - table[top + right] - table[bottom + x] + table[top + x]
              if inside > most { most = inside }
            }
          }
          return most
        }
      }
      return Double(most) / Double(regionWidth * regionHeight)
    }
    let limit = UInt8(Self.mostFlashesPerSecond * 2) + 1  // 7 transitions: more than 3 flashes
    kind.shareAboveLimit = max(kind.shareAboveLimit, worstShare(atLeast: limit))
    // The most transitions over more than a quarter of a region (up to as many as a cell's
    // record holds).
    var t: UInt8 = 1
    while t <= UInt8(Follower.kept), worstShare(atLeast: t) > Self.largestShare { t += 1 }
    let flashes = Double(t - 1) / 2
    if flashes > kind.flashesPerSecond {
      kind.flashesPerSecond = flashes
      kind.at = seconds
    }
  }

  /// Every pixel's changes of one value: its last extreme, the way it was going, and when its
  /// last transitions were.
  private struct Follower: Sendable {
    let threshold: Double
    let darkerBelow: Double
    var extreme: [Double]
    var direction: [Int8]
    /// The frames of each pixel's last `kept` transitions, newest at `next`.
    var times: [Int32]
    var next: [UInt8]
    var started = false
    /// Enough to tell 8 flashes a second; more are counted as 8.
    static let kept = 16

    init(count: Int, threshold: Double, darkerBelow: Double) {
      (self.threshold, self.darkerBelow) = (threshold, darkerBelow)
      extreme = [Double](repeating: 0, count: count)
      direction = [Int8](repeating: 0, count: count)
      times = [Int32](repeating: Int32.min / 2, count: count * Self.kept)
      next = [UInt8](repeating: 0, count: count)
    }

    mutating func follow(_ values: [Double], frame: Int) {
      guard started else {
        extreme = values
        started = true
        return
      }
      let (threshold, darkerBelow, kept) = (self.threshold, self.darkerBelow, Self.kept)
      let now = Int32(frame)
      values.withUnsafeBufferPointer { values in
        extreme.withUnsafeMutableBufferPointer { extreme in
          direction.withUnsafeMutableBufferPointer { direction in
            times.withUnsafeMutableBufferPointer { times in
              next.withUnsafeMutableBufferPointer { next in
                for cell in 0..<values.count {
                  let (value, last, way) = (values[cell], extreme[cell], direction[cell])
                  let change = value - last
                  if way != 0, change * Double(way) > 0 {
                    extreme[cell] = value  // further the same way: the extreme moves on
                    continue
                  }
                  guard abs(change) >= threshold, min(value, last) < darkerBelow else { continue }
                  // A transition: the other way from the last (or the first one).
                  direction[cell] = change > 0 ? 1 : -1
                  extreme[cell] = value
                  let slot = Int(next[cell])
                  times[cell * kept + slot] = now
                  next[cell] = UInt8((slot + 1) % kept)
                }
              }
            }
          }
        }
      }
    }

    /// How many transitions each cell made from frame `first` on: counted back from its
    /// newest, which is mostly none.
    func transitions(since first: Int) -> [UInt8] {
      var counts = [UInt8](repeating: 0, count: extreme.count)
      let first = Int32(clamping: first)
      let kept = Self.kept
      times.withUnsafeBufferPointer { times in
        next.withUnsafeBufferPointer { next in
          counts.withUnsafeMutableBufferPointer { counts in
            for cell in 0..<counts.count {
              var (count, slot) = (0, Int(next[cell]))
              while count < kept {
                slot = slot == 0 ? kept - 1 : slot - 1
                guard times[cell * kept + slot] >= first else { break }
                count += 1
              }
              counts[cell] = UInt8(count)
            }
          }
        }
      }
      return counts
    }
  }
}
