// embed-glfw: a host program with a scene of its own (a backdrop that shifts colour and a square
// that circles) adds confetti to it: a burst wherever you click, the cannons on space.
//
//   swift run embed-glfw [--preset NAME] [--seconds S] [--screenshot FILE.png]
//
// Set up, loop (update, draw), tear down. Confetti draws between the host's own draws and
// leaves the GL state as it found it, so the host sets its program and vertex array once.
@preconcurrency import CEpoxy
import CGLFW
import Confetti
import Foundation

let options = ExampleOptions(CommandLine.arguments.dropFirst())

// MARK: Set up

guard glfwInit() == GLFW_TRUE else { fail("cannot open a window: no display (try xvfb-run)") }
glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3)
glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3)
glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE)
glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE)
guard let window = glfwCreateWindow(960, 540, "Confetti in your program", nil, nil) else {
  fail("cannot make an OpenGL 3.3 core window")
}
glfwMakeContextCurrent(window)
glfwSwapInterval(1)

let square = orFail { try HostSquare() }  // the host's own scene: one program, one vertex array
epoxy_glUseProgram(square.program)
epoxy_glBindVertexArray(square.vertexArray)

let confetti = orFail {
  try ConfettiSystem(effect: .preset(options.preset), size: windowSize(window))
}
let clock = ContinuousClock.now
func now() -> Double { (ContinuousClock.now - clock) / .seconds(1) }

// Clicks and keys reach the loop as a queue of triggers.
nonisolated(unsafe) var pending: [(EmitterTrigger, ConfettiSystem.Point?)] = []
glfwSetMouseButtonCallback(window) { window, button, action, _ in
  guard button == GLFW_MOUSE_BUTTON_LEFT, action == GLFW_PRESS else { return }
  var (x, y) = (0.0, 0.0)
  glfwGetCursorPos(window, &x, &y)  // window points, as the effect's size is
  pending.append((.click, ConfettiSystem.Point(x: x, y: y)))
}
glfwSetKeyCallback(window) { window, key, _, action, _ in
  guard action == GLFW_PRESS else { return }
  if key == GLFW_KEY_SPACE { pending.append((.key, nil)) }
  if key == GLFW_KEY_ESCAPE { glfwSetWindowShouldClose(window, GLFW_TRUE) }
}

// MARK: Loop

var frames = 0
while glfwWindowShouldClose(window) == GLFW_FALSE, options.seconds.map({ now() < $0 }) ?? true {
  glfwPollEvents()
  let time = now()
  var (width, height): (Int32, Int32) = (0, 0)
  glfwGetFramebufferSize(window, &width, &height)

  // Update.
  orFail { try confetti.resize(to: windowSize(window)) }
  for (trigger, point) in pending {
    confetti.trigger(confetti.has(trigger) ? trigger : .click, at: point, time: time)
    let place = point.map { "\(Int($0.x)),\(Int($0.y))" } ?? "the emitters"
    print("\(trigger) at \(place): \(confetti.aliveCount(time: time)) particles alive")
  }
  pending.removeAll()

  // Draw: the host's backdrop and square, confetti over them, then the square's outline on top,
  // drawn with the program and vertex array the host bound before the loop.
  epoxy_glViewport(0, 0, width, height)
  let hue = Float(time * 0.1).truncatingRemainder(dividingBy: 1)
  epoxy_glClearColor(0.10 + 0.05 * hue, 0.12, 0.20 - 0.05 * hue, 1)
  epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
  square.draw(at: time, filled: true)
  orFail { try confetti.draw(in: PixelRect(width: Int(width), height: Int(height)), time: time) }
  square.draw(at: time, filled: false)
  frames += 1
  if let path = options.screenshot, options.seconds.map({ now() >= $0 - 0.1 }) ?? false {
    let picture = screenshot(width: Int(width), height: Int(height))
    orFail { try PNG.write(picture, to: URL(fileURLWithPath: path)) }
  }
  glfwSwapBuffers(window)
}

// MARK: Tear down

print("frames: \(frames), particles alive at the end: \(confetti.aliveCount(time: now()))")
confetti.close()  // while the context is still current
square.release()
glfwDestroyWindow(window)
glfwTerminate()

// MARK: The host's own pieces

/// The window's size in points (GLFW screen coordinates).
func windowSize(_ window: OpaquePointer) -> ConfettiSystem.Size {
  var (width, height): (Int32, Int32) = (0, 0)
  glfwGetWindowSize(window, &width, &height)
  return ConfettiSystem.Size(width: Double(max(1, width)), height: Double(max(1, height)))
}

/// A square circling the middle of the window: the host's scene.
struct HostSquare {
  let program: GLuint
  var vertexArray: GLuint = 0
  var buffer: GLuint = 0
  let offsetUniform: GLint

  init() throws {
    program = try Self.link(
      vertex: "#version 330 core\nin vec2 p; uniform vec2 u_offset;\n"
        + "void main() { gl_Position = vec4(p * vec2(0.09, 0.16) + u_offset, 0.0, 1.0); }",
      fragment: "#version 330 core\nout vec4 c; void main() { c = vec4(0.95, 0.95, 1.0, 1.0); }")
    offsetUniform = epoxy_glGetUniformLocation(program, "u_offset")
    epoxy_glGenVertexArrays(1, &vertexArray)
    epoxy_glBindVertexArray(vertexArray)
    epoxy_glGenBuffers(1, &buffer)
    epoxy_glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
    let corners: [GLfloat] = [-1, -1, 1, -1, 1, 1, -1, 1]
    epoxy_glBufferData(GLenum(GL_ARRAY_BUFFER), 32, corners, GLenum(GL_STATIC_DRAW))
    epoxy_glEnableVertexAttribArray(0)
    epoxy_glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
  }

  /// Draws with whatever program and vertex array are bound: the host's, if confetti kept them.
  func draw(at time: Double, filled: Bool) {
    epoxy_glUniform2f(offsetUniform, GLfloat(0.5 * cos(time)), GLfloat(0.5 * sin(time)))
    epoxy_glDrawArrays(GLenum(filled ? GL_TRIANGLE_FAN : GL_LINE_LOOP), 0, 4)
  }

  func release() {
    var (vertexArray, buffer) = (vertexArray, buffer)
    epoxy_glDeleteVertexArrays(1, &vertexArray)
    epoxy_glDeleteBuffers(1, &buffer)
    epoxy_glDeleteProgram(program)
  }

  /// A program of two shaders, its vertex attribute 0 named `p`.
  static func link(vertex: String, fragment: String) throws -> GLuint {
    let program = epoxy_glCreateProgram()
    for (text, stage) in [(vertex, GL_VERTEX_SHADER), (fragment, GL_FRAGMENT_SHADER)] {
      let shader = epoxy_glCreateShader(GLenum(stage))
      text.withCString { source in
        var sources: [UnsafePointer<GLchar>?] = [source]
        epoxy_glShaderSource(shader, 1, &sources, nil)
      }
      epoxy_glCompileShader(shader)
      epoxy_glAttachShader(program, shader)
      epoxy_glDeleteShader(shader)  // kept while attached
    }
    epoxy_glBindAttribLocation(program, 0, "p")
    epoxy_glLinkProgram(program)
    var linked: GLint = 0
    epoxy_glGetProgramiv(program, GLenum(GL_LINK_STATUS), &linked)
    guard linked == GL_TRUE else {
      epoxy_glDeleteProgram(program)
      throw EffectError("the host's square did not compile")
    }
    return program
  }
}

/// The back buffer as a picture, rows from the top.
func screenshot(width: Int, height: Int) -> RGBAImage {
  var rows = [UInt8](repeating: 0, count: width * height * 4)
  epoxy_glReadBuffer(GLenum(GL_BACK))
  epoxy_glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
  epoxy_glReadPixels(
    0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &rows)
  let row = width * 4
  let topDown = (0..<height).reversed().flatMap { rows[($0 * row)..<(($0 + 1) * row)] }
  return RGBAImage(width: width, height: height, bytes: topDown)
}

/// `--preset NAME` (default confetti), `--seconds S` (quit after S seconds), `--screenshot PNG`
/// (the last frame, written when --seconds ends).
struct ExampleOptions {
  var preset = "confetti"
  var seconds: Double?
  var screenshot: String?

  init(_ arguments: ArraySlice<String>) {
    var arguments = arguments
    while let flag = arguments.popFirst() {
      guard let value = arguments.popFirst() else { fail("\(flag) needs a value") }
      switch flag {
      case "--preset": preset = value
      case "--seconds":
        guard let number = Double(value), number > 0 else { fail("--seconds takes a number > 0") }
        seconds = number
      case "--screenshot": screenshot = value
      default: fail("unknown option \(flag); use --preset, --seconds, --screenshot")
      }
    }
  }
}

/// The value `body` makes, or its error as one line and exit status 1.
func orFail<T>(_ body: () throws -> T) -> T {
  do { return try body() } catch { fail("\(error)") }
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("embed-glfw: \(message)\n".utf8))
  exit(1)
}
