import ConfettiCore
import ConfettiImage

/// How far a render has come: `done` of `total` frames written, and then, for an animation,
/// ffmpeg finishing the file.
public struct RenderProgress: Sendable, Equatable {
  /// Frames written so far.
  public var done: Int
  /// Frames this render writes.
  public var total: Int
  /// Whether every frame is sent and ffmpeg is finishing the file (its last frames' encoding,
  /// the container, the count read back): told once, after the last frame's progress.
  public var finishing: Bool

  /// `done` of `total` frames, or, `finishing`, all of them and the file being finished.
  public init(done: Int, total: Int, finishing: Bool = false) {
    (self.done, self.total, self.finishing) = (done, total, finishing)
  }
}

/// What a render wrote.
public struct RenderResult: Sendable, CustomStringConvertible {
  /// The files written, in order: the picture or pictures, the animation, the records.
  public var files: [String]
  /// Whether an animation's frames were counted back with ffprobe (false where ffprobe is not
  /// installed; a picture is always whole).
  public var wasReadBack: Bool
  /// Pieces the effect makes that were not drawn: more are born at once than a scene holds.
  public var droppedCount: Int
  /// One line: what was written where.
  public var description: String
  /// Where the render's time went, stage by stage: measured by every render, for its caller
  /// to read (the drawing's figure exact with ``RenderOptions/timesStages``).
  public var timings = RenderTimings()
  /// The flash check of the frames rendered, where ``RenderOptions/checksFlashes`` asked.
  public var flashes: FlashCheck?
}

/// Where a render's time went, in seconds, stage by stage. Every render measures it, reading
/// the clock between its stages (nothing beside a frame's work), and returns it in
/// ``RenderResult/timings`` for its caller to read. The GL's own drawing is not seen apart
/// unless asked for (``RenderOptions/timesStages``): the read-back waits for it, and is timed
/// with it. A PNG sequence's pictures are made straight, encoded and written on other threads
/// while the next frames are drawn: those three are summed over the threads.
public struct RenderTimings: Sendable, Equatable {
  /// Stepping the emission from frame to frame (births, and the records written).
  public var emission: Seconds = 0
  /// Clearing and drawing each frame; with ``RenderOptions/timesStages``, the GL's work
  /// waited for too (else it is the read-back's).
  public var drawing: Seconds = 0
  /// Reading each frame's pixels back from the GL.
  public var readBack: Seconds = 0
  /// Making the premultiplied pixels straight.
  public var converting: Seconds = 0
  /// Encoding PNG pictures.
  public var encoding: Seconds = 0
  /// Writing PNG pictures to their files.
  public var writing: Seconds = 0
  /// Sending an animation's frames down ffmpeg's pipe: waiting for the encoder, where it is
  /// the slower.
  public var piping: Seconds = 0
  /// Waiting for ffmpeg to finish the file once every frame is sent (and reading it back).
  public var finishing: Seconds = 0

  /// The stages, named, in order.
  public var stages: [(name: String, seconds: Seconds)] {
    [
      ("emission", emission), ("drawing", drawing), ("read-back", readBack),
      ("conversion", converting), ("PNG encoding", encoding), ("writing", writing),
      ("the pipe to ffmpeg", piping), ("ffmpeg finishing", finishing),
    ]
  }
}

/// A render that cannot be done as asked, said in one line: settings that are refused, a
/// picture of a sequence that could not be written after others were, records that cannot
/// carry the effect.
public struct RenderError: Error, CustomStringConvertible {
  /// Why, in one line.
  public var description: String
  /// A render refused, saying why.
  public init(description: String) { self.description = description }
}

/// A render stopped part-way because it was asked to: what was being written is removed.
public struct RenderStopped: Error, CustomStringConvertible {
  /// The file that was being written.
  public var out: String
  /// Whether `out` is one file (an animation, a picture), not a numbered sequence, whose
  /// finished pictures are kept.
  public var whole: Bool
  /// What became of the files: removed, or the whole pictures kept.
  public var description: String {
    whole ? "\(out) was not written" : "the frames written so far are whole"
  }
}

extension Export {
  /// The render's last line: what was written where, its size and length, and, for a sequence
  /// or an animation, whether and how it keeps a transparent background.
  static func summary(of settings: RenderOptions) -> String {
    let rendered = settings.renderedFrames
    let pixels = "\(settings.pixels.width)×\(settings.pixels.height)"
    if settings.video == nil, settings.frameCount == 1 {
      let described = settings.records.map {
        ", its records \($0) and \(RecordExport.descriptionPath(of: $0))"
      }
      return "wrote \(settings.out) (\(pixels))\(described ?? "")"
    }
    let seconds = format(Double(rendered.count) / settings.fps)
    let frames = rendered.count == 1 ? "1 frame" : "\(rendered.count) frames"
    let what = "\(frames) (\(seconds) s at \(format(settings.fps)) fps, \(pixels))"
    let transparent = settings.background.alpha < 255
    if let video = settings.video {
      return "wrote \(what) to \(settings.out), \(video.name) "
        + (transparent ? video.alpha : "with an opaque background")
    }
    return "wrote \(what) to \(settings.pictures(rendered))"
      + (transparent ? ", RGBA with straight alpha" : "")
  }
}
