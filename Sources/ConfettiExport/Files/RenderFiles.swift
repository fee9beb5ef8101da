import ConfettiImage
import FoundationEssentials

/// The files a render writes, by name: each checked before the first frame is drawn, and one
/// picture with its records written whole beside their names, to be put in place together.
/// (A sequence's pictures are written by ``PictureSequence``; an animation by ffmpeg, into a
/// file that ``VideoWriter`` puts in place.)
extension RenderOptions {
  /// The PNG file of `frame`: ``out`` itself for a single picture, numbered in a sequence (at
  /// least four digits, and as many as the last frame's: names sort as frames do). On
  /// ``resolved(for:named:naming:)`` options.
  func picture(_ frame: Int) -> String {
    guard frameCount > 1 else { return out }
    let url = URL(fileURLWithPath: out)
    let ext = url.pathExtension.isEmpty ? "png" : url.pathExtension
    let stem = url.deletingPathExtension().path
    let digits = max(4, String(frameCount - 1).count)
    let number = String(frame)
    return stem + "-" + String(repeating: "0", count: max(0, digits - number.count)) + number
      + "." + ext
  }

  /// The PNG files of `frames`, for a message: the first … the last, or the one.
  func pictures(_ frames: Range<Int>) -> String {
    frames.count == 1
      ? picture(frames.lowerBound)
      : "\(picture(frames.lowerBound)) … \(picture(frames.upperBound - 1))"
  }

  /// Throws unless every file these options write may be written (``OutputFile``'s checks):
  /// none of them is a file the effect is made from (``inputs``: its file, its pictures), and
  /// a records' description replaces only one that an earlier render wrote.
  func checkFiles() throws {
    if video == nil {
      for frame in renderedFrames { try OutputFile.check(picture(frame), sparing: inputs) }
    } else {
      try OutputFile.check(out, sparing: inputs)
    }
    if let records {
      try OutputFile.check(records, sparing: inputs)
      try RecordExport.checkDescription(of: records, sparing: inputs)
    }
  }

  /// The picture of `frame`, `encoded`, and where ``records`` asks for them `exported`'s
  /// records and their description, written whole into hidden files beside their names:
  /// ``OutputFile/commit(_:)`` puts them all in place, or none.
  func prepareFiles(
    picture encoded: Data, frame: Int, exported: RecordExport.Frame?
  ) throws -> [(file: ExclusiveFile, path: String)] {
    let picture = picture(frame)
    var files = [(file: try OutputFile.prepare(encoded, for: picture), path: picture)]
    if let exported, let records {
      files += try RecordExport.prepare(
        exported, for: records, size: pixels, background: background, time: firstMoment)
    }
    return files
  }
}
