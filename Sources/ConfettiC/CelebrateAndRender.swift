// libconfetti's celebrations and renders: confetti.h's CELEBRATE and RENDER over
// ConfettiCelebration and ConfettiExport, as `confetti overlay` and `confetti render` use them.
import CConfetti
import Confetti
import ConfettiCelebration
import ConfettiCore
import ConfettiExport
import ConfettiGL
import FoundationEssentials
import Glibc
import Synchronization

// MARK: - Celebrate

@_cdecl("confetti_celebrate")
public func confetti_celebrate(_ options: UnsafePointer<confetti_celebrate_options>?)
  -> confetti_status
{
  calling {
    // Nothing could end it: the call has no handle to cancel.
    if let flags = options?.pointee.flags, flags & UInt32(CONFETTI_LOOP) != 0 {
      throw CallError.argument(
        "CONFETTI_LOOP never ends by itself: start it with confetti_celebration_start, then "
          + "confetti_celebration_cancel it")
    }
    let celebration = try startCelebration(options)
    try desktop { _ = try celebration.wait() }
  }
}

@_cdecl("confetti_celebration_start")
public func confetti_celebration_start(
  _ options: UnsafePointer<confetti_celebrate_options>?,
  _ celebration: UnsafeMutablePointer<OpaquePointer?>?
) -> confetti_status {
  calling {
    guard let celebration else {
      throw CallError.argument("the pointer for the new celebration is null")
    }
    celebration.pointee = celebrations.add(try startCelebration(options))
  }
}

@_cdecl("confetti_celebration_wait")
public func confetti_celebration_wait(
  _ celebration: OpaquePointer?, _ timeout: Double, _ over: UnsafeMutablePointer<Bool>?
) -> confetti_status {
  calling {
    let running = try celebrations.find(celebration)
    let limit = try waitLimit(timeout)
    do {
      let ended = try desktop { try running.wait(timeout: limit) }
      over?.pointee = ended
    } catch {
      over?.pointee = true  // it is over: it failed
      throw error
    }
  }
}

@_cdecl("confetti_celebration_wait_shown")
public func confetti_celebration_wait_shown(
  _ celebration: OpaquePointer?, _ timeout: Double, _ shown: UnsafeMutablePointer<Bool>?
) -> confetti_status {
  calling {
    let running = try celebrations.find(celebration)
    let limit = try waitLimit(timeout) ?? .greatestFiniteMagnitude
    shown?.pointee = false
    shown?.pointee = try desktop { try running.waitUntilShown(timeout: limit) }
  }
}

/// A wait's timeout as C gives it: seconds, or, negative or infinite, as long as it takes (nil).
private func waitLimit(_ timeout: Double) throws -> Seconds? {
  guard !timeout.isNaN else { throw CallError.argument("the timeout is not a number") }
  return timeout < 0 || timeout.isInfinite ? nil : timeout
}

@_cdecl("confetti_celebration_cancel")
public func confetti_celebration_cancel(_ celebration: OpaquePointer?) -> confetti_status {
  calling { try celebrations.find(celebration).cancel() }
}

@_cdecl("confetti_celebration_close")
public func confetti_celebration_close(_ celebration: OpaquePointer?) -> confetti_status {
  calling {
    // Cancelled, and killed if it has not ended within its grace period: never a hang.
    try celebrations.remove(celebration).close()
  }
}

/// confetti_celebration_close, by its name before 0.6.
@_cdecl("confetti_celebration_destroy")
public func confetti_celebration_destroy(_ celebration: OpaquePointer?) -> confetti_status {
  confetti_celebration_close(celebration)
}

/// The celebration `options` ask for (nil: the defaults), started.
private func startCelebration(
  _ options: UnsafePointer<confetti_celebrate_options>?
) throws -> Celebration {
  var asked = CelebrationOptions()
  if let given = options?.pointee {
    // The effect is checked here (one of the three, UTF-8, a good effect), as confetti_create
    // checks it: a bad one is this call's CONFETTI_ERROR_EFFECT, not the overlay's failure later.
    // A JSON effect has no folder: an image it names relative to one is refused here too.
    try effect(
      preset: given.preset, json: given.json, path: given.path,
      fallback: Presets.celebrationName
    ).checkImagesCanBeFound()
    asked.preset = try given.preset.map { try text($0, "the preset's name") }
    asked.json = try given.json.map { try text($0, "the effect's JSON") }
    asked.path = try given.path.map { try text($0, "the effect's path") }
    asked.seed = given.seed == 0 ? 1 : given.seed
    asked.monitor = given.monitor == 0 ? nil : Int(given.monitor)
    guard !given.duration.isNaN else {
      throw CallError.argument("the duration is not a number of seconds")
    }
    asked.duration = given.duration == 0 ? nil : given.duration
    let known = UInt32(CONFETTI_REDUCE_MOTION | CONFETTI_FULL_MOTION | CONFETTI_LOOP)
    guard given.flags & ~known == 0 else {
      throw CallError.argument("unknown flags 0x\(String(given.flags & ~known, radix: 16))")
    }
    let reduce = given.flags & UInt32(CONFETTI_REDUCE_MOTION) != 0
    let full = given.flags & UInt32(CONFETTI_FULL_MOTION) != 0
    guard !(reduce && full) else {
      throw CallError.argument("give CONFETTI_REDUCE_MOTION or CONFETTI_FULL_MOTION, not both")
    }
    asked.reduceMotion = reduce ? true : full ? false : nil
    asked.loop = given.flags & UInt32(CONFETTI_LOOP) != 0
    do {
      try asked.check()
    } catch let error as CelebrationError {
      throw CallError.argument(error.description)
    }
  }
  return try desktop { try Celebration(asked) }
}

/// Runs `body`; a celebration's failure is CONFETTI_ERROR_DESKTOP.
private func desktop<T>(_ body: () throws -> T) throws -> T {
  do {
    return try body()
  } catch let error as CelebrationError {
    throw CallError.desktop(error.description)
  }
}

/// The celebrations under way.
private let celebrations = HandleTable<Celebration>(
  name: "celebration",
  remade: "start a new one with confetti_celebration_start",
  maker: "confetti_celebration_start")

// MARK: - Render

@_cdecl("confetti_render")
public func confetti_render(_ options: UnsafePointer<confetti_render_options>?)
  -> confetti_status
{
  calling {
    guard let given = options?.pointee else { throw CallError.argument("the options are null") }
    guard let out = given.out else { throw CallError.argument("the file to write (out) is null") }
    var settings = RenderOptions(out: try text(out, "the file to write (out)"))
    guard given.width >= 0, given.height >= 0 else {
      throw CallError.argument(
        "the picture's width and height are pixels, 1 or more (0: 800 x 600), not "
          + "\(given.width)×\(given.height)")
    }
    if given.width != 0 || given.height != 0 {
      settings.size = PixelSize(width: Int(given.width), height: Int(given.height))
    }
    settings.scale = given.scale == 0 ? 1 : Int(given.scale)
    // 0: the default first moment (0 for a clip, 0.6 s for one picture), unless
    // CONFETTI_AT_TIME takes it as given.
    let atTime = given.flags & UInt32(CONFETTI_AT_TIME) != 0
    settings.time = given.time == 0 && !atTime ? nil : given.time
    guard let frames = Int(exactly: given.frames) else {
      throw CallError.argument("the frames \(given.frames) do not fit this machine's integers")
    }
    // 0: the default length (one picture, or an animation until the effect is over).
    settings.frames = frames == 0 ? nil : frames
    settings.untilOver = given.flags & UInt32(CONFETTI_UNTIL_OVER) != 0
    settings.fps = given.fps == 0 ? 30 : given.fps
    if given.first_frame != 0 || given.end_frame != 0 {
      guard let first = Int(exactly: given.first_frame), let end = Int(exactly: given.end_frame),
        first >= 0, end > first
      else {
        throw CallError.argument(
          "the frames to render run from first_frame (0 or more) to end_frame, past it: not "
            + "\(given.first_frame) to \(given.end_frame)")
      }
      settings.frameRange = first..<end
    }
    if let named = given.background {
      let name = try text(named, "the background")
      guard let color = RenderOptions.background(named: name) else {
        throw CallError.argument(
          "the background is transparent, #rrggbb or #rrggbbaa, not '\(oneLine(name))'")
      }
      settings.background = color
    }
    settings.seed = given.seed == 0 ? 1 : given.seed
    let known =
      UInt32(
        CONFETTI_REDUCE_MOTION | CONFETTI_UNTIL_OVER | CONFETTI_BEST_QUALITY | CONFETTI_AT_TIME
          | CONFETTI_CHECK_FLASHES)
      | primitiveFlags
    guard given.flags & ~known == 0 else {
      throw CallError.argument("unknown flags 0x\(String(given.flags & ~known, radix: 16))")
    }
    settings.reduceMotion = given.flags & UInt32(CONFETTI_REDUCE_MOTION) != 0
    settings.quality = given.flags & UInt32(CONFETTI_BEST_QUALITY) != 0 ? .best : .standard
    settings.primitive = try primitive(given.flags)
    settings.checksFlashes = given.flags & UInt32(CONFETTI_CHECK_FLASHES) != 0
    let naming: (String) -> String = { [untilOver = settings.untilOver] in
      switch $0 {
      case "length": untilOver ? "frames instead of CONFETTI_UNTIL_OVER" : "frames"
      case "until_over": "CONFETTI_UNTIL_OVER"
      case "duration": "CONFETTI_UNTIL_OVER"
      default: $0
      }
    }
    do {
      try settings.check(naming: naming)
    } catch let error as RenderError {
      throw CallError.argument(error.description)
    }
    let effect = try effect(preset: given.preset, json: given.json, path: given.path)
    settings.inputs = [given.path.map { String(cString: $0) }].compactMap { $0 } + effect.imageFiles
    do {
      settings = try settings.resolved(
        for: effect, named: given.path.map { String(cString: $0) }, naming: naming)
    } catch let error as RenderError {
      throw CallError.argument(error.description)
    }
    let callback = given.progress
    var stopped = false
    let result: RenderResult
    do {
      result = try Export.render(
        effect, settings,
        progress: { reached in
          // C's callback is told frames only (confetti.h): not the finishing step.
          if let callback, !stopped, !reached.finishing {
            stopped = callback(Int64(reached.done), Int64(reached.total), given.user) != 0
          }
        },
        shouldStop: { stopped })
    } catch let error as RenderStopped {
      throw CallError.stopped("stopped by the progress callback: \(error)")
    } catch let error as GLError {
      throw error
    } catch let error as EffectError {
      throw error
    } catch {
      throw CallError.output("\(error)")
    }
    // The verdict of the flash check, when asked: the files are written either way.
    if let flashes = result.flashes, !flashes.passes {
      throw CallError.flashes(flashes.summary)
    }
  }
}
