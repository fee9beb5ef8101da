import Confetti
import ConfettiCore
import ConfettiPlatform

/// `start|key|click[@X,Y][@T]`: emitters fired at a moment of a render, as the window fires
/// them at a key press or a click, in the words a command line gives them.
extension RenderTrigger: CustomStringConvertible {
  /// `text` as a trigger: a kind, then for a click a place (window points), then seconds (0 to
  /// 3600, default 0); nil where it is none.
  package init?(text: String) {
    var parts = text.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
    guard let kind = EmitterTrigger(rawValue: parts.removeFirst()), parts.count <= 2 else {
      return nil
    }
    self.init(kind, time: 0)
    if kind == .click, let place = parts.first, place.contains(",") {
      let xy = place.split(separator: ",", omittingEmptySubsequences: false)
      guard xy.count == 2, let x = Double(xy[0]), let y = Double(xy[1]), x.isFinite,
        y.isFinite, abs(x) <= 1_000_000, abs(y) <= 1_000_000
      else { return nil }
      point = Point(x: x, y: y)
      parts.removeFirst()
    }
    if let moment = parts.first {
      guard parts.count == 1, let seconds = Double(moment), seconds.isFinite,
        (0...3600).contains(seconds)
      else { return nil }
      time = seconds
    }
  }

  /// The trigger as its text: `click@400,300@2`, `key@1.5`.
  public var description: String {
    let place = point.map { "@\(format($0.x)),\(format($0.y))" } ?? ""
    return "\(kind.rawValue)\(place)@\(format(time))"
  }
}

/// How long a clip is: seconds of animation, or `auto`: until the effect is over.
package enum ClipLength: Equatable {
  /// This many seconds.
  case seconds(Double)
  /// Until the effect's last piece is gone.
  case untilOver

  /// `text` as a length: `auto`, or a number of seconds (checked where it is used); nil where
  /// it is neither.
  package init?(text: String) {
    if text == "auto" {
      self = .untilOver
    } else if let seconds = Double(text) {
      self = .seconds(seconds)
    } else {
      return nil
    }
  }

  /// The seconds given; nil for auto.
  package var seconds: Double? {
    guard case .seconds(let seconds) = self else { return nil }
    return seconds
  }
}

/// `A:B`: frames A to B-1 of a sequence, counted from 0.
package struct FrameRange: CustomStringConvertible {
  /// A, and B (one past the last frame), as given.
  package var first: Int
  /// B: one past the last frame.
  package var end: Int

  /// `text` as a range: two whole numbers around a colon; nil where it is not.
  package init?(text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]) else { return nil }
    (first, end) = (a, b)
  }

  /// Frames A to B-1: A from 0, B above A (an empty or reversed range says why, in a
  /// ``RenderError`` that names the setting as `option` spells `frame_range`, as
  /// ``RenderOptions/check(naming:)`` does).
  package func checked(naming option: (String) -> String) throws -> Range<Int> {
    let named = "\(option("frame_range")) \(self)"
    guard first >= 0 else {
      throw RenderError(description: "\(named) starts before frame 0: frames count from 0")
    }
    guard end > first else {
      throw RenderError(
        description:
          "\(named) holds no frame: A:B renders frames A to B-1, so B must be above A")
    }
    return first..<end
  }

  /// The frames as a range a render takes: an empty one where B is not above A.
  package var frames: Range<Int> { first..<max(first, end) }

  /// The range as its text: `A:B`.
  package var description: String { "\(first):\(end)" }
}

extension Effect {
  /// Gives every burst cell of the effect `count` particles a burst, instead of its own count.
  package mutating func setBurstCount(_ count: Int) {
    for e in config.emitters.indices where config.emitters[e].emission == .burst {
      for c in config.emitters[e].cells.indices {
        config.emitters[e].cells[c].count = count
      }
    }
  }
}

extension RenderTimings {
  /// Where the time went, in one line, the stages that took any and then `total` seconds:
  /// "time: drawing 0.12 s, writing 0.03 s; 0.20 s in all".
  package func line(total: Double) -> String {
    "time: "
      + stages.filter { $0.seconds > 0 }
      .map { "\($0.name) \(String(formatting: "%.2f", $0.seconds)) s" }
      .joined(separator: ", ")
      + String(formatting: "; %.2f s in all", total)
  }
}

extension RenderResult {
  /// What the files written cannot show, one line each: an animation (`out`, in `video`)
  /// whose frames could not be counted back, the pieces that were not drawn.
  package func notes(out: String, video: VideoFormat?) -> [String] {
    var notes: [String] = []
    if video != nil, !wasReadBack {
      notes.append(
        "note: ffprobe is not installed beside ffmpeg or on PATH, so \(out)'s frames "
          + "were not counted back: apt-get install ffmpeg")
    }
    // What the effect promised but the picture cannot show is said, never silently left out.
    if droppedCount > 0 {
      notes.append(
        "note: \(droppedCount) pieces the effect makes are not drawn: more are born at "
          + "once than one scene holds")
    }
    return notes
  }
}
