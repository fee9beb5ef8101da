import FoundationEssentials

/// The animation formats `confetti render` writes through the `ffmpeg` program.
public enum VideoFormat: String, CaseIterable, Sendable {
  /// GIF: a palette of each frame's colours, one bit of transparency.
  case gif
  /// WebM with VP9: alpha kept.
  case webm
  /// MP4 with H.264: no alpha.
  case mp4
  /// QuickTime with ProRes 4444: alpha kept, for video editors.
  case mov

  /// The format a file name's extension asks for, if it is one of these.
  public init?(path: String) {
    self.init(rawValue: URL(fileURLWithPath: path).pathExtension.lowercased())
  }

  /// Whether it keeps a transparent backdrop: GIF (one bit), VP9 WebM and ProRes 4444 do;
  /// H.264 MP4 does not.
  var keepsTransparency: Bool { self != .mp4 }

  /// What it is, for messages.
  var name: String {
    switch self {
    case .gif: "GIF"
    case .webm: "WebM (VP9)"
    case .mp4: "MP4 (H.264)"
    case .mov: "QuickTime (ProRes 4444)"
    }
  }

  /// How it keeps a transparent background, after its ``name`` in the last line: the pixel
  /// format an editor reports.
  var alpha: String {
    switch self {
    case .gif: "with one-bit transparency"
    case .webm: "with alpha (yuva420p, in a side stream: ffprobe lists the video as yuv420p)"
    case .mp4: "with no alpha"
    case .mov: "with alpha (yuva444p10le, which ffprobe lists as ProRes's own yuva444p12le)"
    }
  }

  /// The most frames a second it plays at its own speed: a GIF's delays are whole hundredths
  /// of a second and players stretch those under two; WebM's timestamps are milliseconds.
  var fastestFrameRate: Double {
    switch self {
    case .gif: 50
    case .webm, .mp4, .mov: 1000
    }
  }

  /// The fewest frames a second it keeps: a GIF's delay is at most 655.35 s (16 bits of
  /// hundredths); the others' timestamps have room for any.
  var slowestFrameRate: Double { self == .gif ? 100.0 / 65535 : 0 }

  /// Whether its pictures must have even sides (4:2:0 chroma: H.264's and VP9's).
  var needsEvenSides: Bool { self == .webm || self == .mp4 }
  /// Whether its pictures must be of an even width (ffmpeg's fast ProRes encoder, prores_aw).
  var needsEvenWidth: Bool { self == .mov }

  /// Why frames of `width` × `height` at `fps` cannot be written as it, in one line; nil when
  /// they can.
  func refusal(
    width: Int, height: Int, fps: Double, naming option: (String) -> String
  ) -> String? {
    if fps < slowestFrameRate {
      return "\(name) shows a frame for at most 655.35 s, so at least 0.0016 frames a second, "
        + "not \(fps): give a higher \(option("fps"))"
    }
    if fps > fastestFrameRate {
      let asked = fps < 1e9 && fps == fps.rounded() ? String(Int(fps)) : String(fps)
      return "\(name) plays at most \(Int(fastestFrameRate)) frames a second at its own speed, "
        + "not \(asked): give a lower \(option("fps"))"
    }
    if needsEvenSides, !width.isMultiple(of: 2) || !height.isMultiple(of: 2) {
      let even = "\(width + width % 2)x\(height + height % 2)"
      return "\(name) needs even sides, not \(width)×\(height): give \(option("size")) \(even)"
    }
    if needsEvenWidth, !width.isMultiple(of: 2) {
      return "\(name) needs an even width, not \(width)×\(height): give \(option("size")) "
        + "\(width + 1)x\(height)"
    }
    return nil
  }

  /// ffmpeg's options for the output, after the raw RGBA input, at `quality`. The standard
  /// settings were chosen by measurement against the lossless frames (docs/export.md): within
  /// 0.0003 SSIM and 1.6 dB of the best over mid-grey, at a fifth to three quarters of its time.
  func outputArguments(transparent: Bool, quality: ExportQuality = .standard) -> [String] {
    let best = quality == .best
    switch self {
    case .gif:
      // A palette of each frame's own colours, made and used as the frames pass: a palette for
      // the whole animation would hold every frame in memory until the last.
      let palette = "palettegen=stats_mode=single" + (transparent ? ":reserve_transparent=1" : "")
      let use = "paletteuse=new=1:dither=sierra2_4a" + (transparent ? ":alpha_threshold=128" : "")
      return [
        "-filter_complex", "[0:v]split[a][b];[a]\(palette)[p];[b][p]\(use)", "-loop", "0",
        "-f", "gif",
      ]
    case .webm:
      // libvpx's real-time mode at speed 6 took a third of the CPU of its "good" mode at speed
      // 4, at the same luma PSNR (42.5 dB) and 12 % more bytes; 4:2:0 chroma bounds both.
      return [
        "-c:v", "libvpx-vp9", "-pix_fmt", transparent ? "yuva420p" : "yuv420p", "-b:v", "0",
        "-crf", best ? "20" : "30", "-deadline", best ? "good" : "realtime",
        "-cpu-used", best ? "2" : "6", "-row-mt", "1", "-f", "webm",
      ]
    case .mp4:
      return [
        "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18",
        "-preset", best ? "medium" : "veryfast", "-movflags", "+faststart", "-f", "mp4",
      ]
    case .mov:
      // prores_aw measured 4.6 times as fast as prores_ks, whose rate control searches each
      // block: 73.4 dB against 75.0 (luma PSNR), the same profile (ap4h) and size within 10 %.
      return [
        "-c:v", best ? "prores_ks" : "prores_aw", "-profile:v", best ? "4444" : "4",
        "-pix_fmt", transparent ? "yuva444p10le" : "yuv444p10le", "-f", "mov",
      ]
    }
  }
}

/// How an animation's encoder trades time for quality.
public enum ExportQuality: String, CaseIterable, Sendable {
  /// The settings measured to keep the quality at a fraction of the time: the default.
  case standard
  /// The encoders' slower settings, for a master copy: VP9's "good" mode at speed 2 and CRF 20,
  /// x264's medium preset, prores_ks.
  case best
}

extension VideoFormat {
  /// How its files begin: a GIF's header, WebM's EBML magic, an ISO media file's first box type
  /// (at byte 4) for MP4 and QuickTime.
  var signatures: [(offset: Int, bytes: [UInt8])] {
    switch self {
    case .gif: [(0, Array("GIF89a".utf8)), (0, Array("GIF87a".utf8))]
    case .webm: [(0, [0x1A, 0x45, 0xDF, 0xA3])]
    case .mp4, .mov: [(4, Array("ftyp".utf8))]
    }
  }
}
