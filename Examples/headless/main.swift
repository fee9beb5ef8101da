// headless: frames of an effect rendered with the library alone, through EGL: no window, no
// display. Writes FRAMES numbered PNG files, one every 1/30 s of the effect.
//
//   swift run headless [PRESET] [FRAMES] [OUTPUT-PREFIX]     (default: fireworks 6 headless-)
import Confetti
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let preset = arguments.count > 0 ? arguments[0] : "fireworks"
let frames = arguments.count > 1 ? Int(arguments[1]) ?? 0 : 6
let prefix = arguments.count > 2 ? arguments[2] : "headless-"
let size = ConfettiSystem.Size(width: 640, height: 360)  // points; pictures of 2 pixels per point

do {
  guard (1...1000).contains(frames) else { throw EffectError("FRAMES must be 1 to 1000") }

  // Set up: a GL context of our own, a picture to draw into, and the effect on that context.
  let context = try HeadlessContext()
  let target = try OffscreenTarget(
    width: Int(size.width) * 2, height: Int(size.height) * 2, info: context.info)
  let confetti = try ConfettiSystem(effect: .preset(preset), size: size, seed: 7)

  // The effect opens at 1 s on our clock as the window and `confetti render` open it: its start
  // emitters, or where it has none its key ones (or its click ones).
  let start = 1.0
  confetti.fireOpening(time: start)
  // Loop: each frame is the closed form at its moment; drawing moves the emission on to it (an
  // effect makes the same pieces whatever steps its clock takes).
  for frame in 0..<frames {
    let time = start + 0.5 + Double(frame) / 30
    target.bind()
    GLFrame.clear(to: GLFrame.background)
    try confetti.draw(in: target.rect, time: time)
    let path = prefix + String(format: "%03d", frame) + ".png"
    try PNG.write(try target.read(), to: URL(fileURLWithPath: path))
    print("\(path): \(confetti.aliveCount(time: time)) particles at \(time - start) s")
  }

  // Tear down: GL objects go while their context is current.
  let end = confetti.endTime.map { "at \($0 - start) s" } ?? "later: an emitter is still emitting"
  print("the last particle is gone \(end)")
  confetti.close()
  target.release()
  withExtendedLifetime(context) {}
} catch {
  FileHandle.standardError.write(Data("headless: \(error)\n".utf8))
  exit(1)
}
