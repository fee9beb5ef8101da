import Confetti
import ConfettiCore
import ConfettiGL
import ConfettiImage

extension Export {
  /// Renders the frames of `effect` as `settings` (resolved) say, on `context`, current on
  /// this thread, and sends each where it goes: down ffmpeg's pipe (an animation), to the
  /// threads that write a sequence's pictures, or into one picture's file (with its records).
  /// Every frame from the first is stepped to, drawn or not, and every stage is timed
  /// (``RenderTimings``). `progress` is told each frame written, in order; once `shouldStop`
  /// says true no frame is made or written after, and what was being written is removed.
  static func renderFrames(
    _ effect: Effect, _ settings: RenderOptions, on context: HeadlessContext,
    naming option: (String) -> String, progress: ((RenderProgress) -> Void)?,
    shouldStop: @escaping @Sendable () -> Bool
  ) throws -> RenderResult {
    let video = settings.video
    let rendered = settings.renderedFrames
    let (size, out) = (settings.pixels, settings.out)
    // Nothing written may be the effect it is made from: its file, or its pictures.
    try settings.checkFiles()
    if settings.records != nil {
      try RecordExport.checkCarries(effect, seed: settings.seed, naming: option)
    }
    let target = try OffscreenTarget(width: size.width, height: size.height, info: context.info)
    defer { target.release() }
    let system = try ConfettiSystem(
      effect: effect, size: settings.points,
      seed: settings.seed, reduceMotion: settings.reduceMotion,
      primitive: settings.records == nil ? settings.primitive : .points)
    defer { system.close() }
    // The picture's context is the system's own, and its rectangle never changes.
    system.glStatePolicy = .cache
    // Light covers a backdrop as much as it shines: what an editor shows when it lays the
    // transparent render over that colour. (Over a transparent one the straight alpha the
    // picture is given does the same, and no layer is needed.) Records describe the one draw
    // their port makes, and are drawn so.
    system.laysLightOverTheBackdrop = settings.background.alpha > 0 && settings.records == nil
    // Over a light colour, light covers some of it, deepened, where added it would not show.
    if settings.background.alpha == 255 { system.backdrop = settings.background }
    // A frame of millions of pieces takes seconds to draw: a stop is seen between its batches.
    system.shouldStop = shouldStop
    let transparent = settings.background.alpha < 255
    let writer = try video.map { _ in
      try VideoWriter(
        path: out, width: size.width, height: size.height, fps: settings.fps,
        transparent: transparent, quality: settings.quality, shouldStop: shouldStop)
    }
    var timeline = RenderTimeline(settings.triggers)
    let start = timeline.start
    func fire(_ trigger: RenderTrigger?, at moment: Seconds) {
      guard let trigger else { return system.fireOpening(time: moment) }
      system.trigger(trigger.kind, at: trigger.point, time: moment)
    }
    timeline.open(fire: fire)
    var written: [String] = []
    var timings = RenderTimings()
    var flashes =
      settings.checksFlashes
      ? FlashCheck(width: size.width, height: size.height, fps: settings.fps) : nil
    // A sequence's pictures are encoded and written on the other cores as frames are drawn.
    let sequence =
      video == nil && settings.frameCount > 1
      ? PictureSequence(
        first: rendered.lowerBound, straightening: transparent, shouldStop: shouldStop) : nil
    // However the render ends, nothing is left in flight, and what is kept is what was told.
    defer { sequence?.stop() }
    /// Tells the sequence's frames written since, in order; throws the earliest that failed.
    func tellWritten() throws {
      try sequence?.tellWritten(of: settings, naming: option) { frame in
        written.append(settings.picture(frame))
        progress?(RenderProgress(done: frame - rendered.lowerBound + 1, total: rendered.count))
      }
    }
    target.bind()
    // Every frame from the first is stepped to, drawn or not: the emission is replayed the
    // same way whichever frames this run renders.
    for frame in 0..<rendered.upperBound {
      let now = start + settings.firstMoment + Double(frame) / settings.fps
      var mark = monotonicSeconds()
      /// Adds the seconds since the last mark to `stage`.
      func spent(_ stage: WritableKeyPath<RenderTimings, Seconds>) {
        let time = monotonicSeconds()
        timings[keyPath: stage] += time - mark
        mark = time
      }
      timeline.run(to: now, advance: system.advance(to:), fire: fire)
      spent(\.emission)
      guard rendered.contains(frame) else { continue }
      // Before the frame's work and once more before anything of it is written: a big frame
      // takes seconds, and a stop meanwhile must not let it be written.
      func stopIfAsked() throws {
        guard shouldStop() else { return }
        writer?.cancel()
        throw RenderStopped(out: out, whole: video != nil || settings.frameCount == 1)
      }
      try stopIfAsked()
      GLFrame.clear(to: settings.background)
      let exported: RecordExport.Frame?
      do {
        exported =
          settings.records == nil ? nil : try system.drawExported(in: target.rect, time: now)
        if exported == nil { try system.draw(in: target.rect, time: now) }
        // Timed apart, the GL's work is waited for here; else the read-back waits for it.
        if settings.timesStages { GLFrame.finish() }
        spent(\.drawing)
      } catch is DrawStopped {
        try stopIfAsked()
        throw RenderError(description: "the frame's draw stopped without being asked to")
      }
      if let exported, exported.records.isEmpty {
        throw RenderError(
          description:
            "no piece is in flight at \(format(settings.firstMoment)) s, so there are no "
            + "records to write: give a \(option("time")) when pieces are")
      }
      if let writer {
        // Read as GL stores it, into memory ffmpeg reads from.
        try writer.append { rows in
          try target.read(bottomRowFirst: &rows)
          spent(\.readBack)
          try stopIfAsked()
          // Over an opaque backdrop every pixel is opaque: premultiplied is straight.
          if transparent { RGBAImage.unpremultiply(&rows) }
          rows.withUnsafeBytes { flashes?.add(rgba: $0) }
          spent(\.converting)
        }
        spent(\.piping)
        progress?(RenderProgress(done: frame - rendered.lowerBound + 1, total: rendered.count))
        continue
      }
      var read = try target.read()
      spent(\.readBack)
      try stopIfAsked()
      if let sequence {
        read.bytes.withUnsafeBytes { flashes?.add(rgba: $0) }
        sequence.add(read, frame: frame, to: settings.picture(frame))
        try tellWritten()
        continue
      }
      // Over an opaque backdrop every pixel is opaque: premultiplied is straight.
      if transparent { read.unpremultiply() }
      let image = read
      spent(\.converting)
      // Encoding a big picture takes a while: a stop meanwhile leaves it unwritten.
      let encoded = try PNG.encode(image)
      spent(\.encoding)
      try stopIfAsked()
      // The picture (and its records) are written whole beside their names, told, and only
      // then put in place, all or none: a stop asked when told leaves what the names held.
      let files = try settings.prepareFiles(picture: encoded, frame: frame, exported: exported)
      spent(\.writing)
      progress?(RenderProgress(done: frame - rendered.lowerBound + 1, total: rendered.count))
      try stopIfAsked()
      try OutputFile.commit(files)
      written = files.map(\.path)
      spent(\.writing)
      return RenderResult(
        files: written, wasReadBack: false, droppedCount: system.droppedCount,
        description: summary(of: settings), timings: timings)
    }
    sequence?.waitForAll()
    try tellWritten()
    // Asked to stop while the last frame was made or told: not a success. An animation is
    // removed; a sequence's pictures are whole, and kept. (A single picture was put in place
    // only once told: it returned above.)
    if shouldStop() {
      writer?.cancel()
      throw RenderStopped(out: out, whole: video != nil)
    }
    if let writer {
      progress?(RenderProgress(done: rendered.count, total: rendered.count, finishing: true))
      let finishing = monotonicSeconds()
      try writer.finish()
      timings.finishing = monotonicSeconds() - finishing
      written = [out]
    }
    if let sequence {
      (timings.converting, timings.encoding, timings.writing) = sequence.time
    }
    return RenderResult(
      files: written, wasReadBack: writer?.wasReadBack ?? false,
      droppedCount: system.droppedCount, description: summary(of: settings), timings: timings,
      flashes: flashes)
  }
}
