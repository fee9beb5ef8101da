@preconcurrency import CEpoxy
import ConfettiCore
import ConfettiShaderFiles
import FoundationEssentials
import Glibc

/// A shader's text and the file it came from (for error messages).
package struct ShaderSource: Sendable {
  package var fileName: String
  package var text: String

  package init(fileName: String, text: String) {
    self.fileName = fileName
    self.text = text
  }

  /// A shader from the package's `Shaders/` folder, embedded at build time, with the constants
  /// it shares with Swift (``ShaderConstants``) defined after its `#version` line and each
  /// `#include "file"` line replaced by that file of the folder (GLSL has no include of its
  /// own). A compiler message about an included line names source string 1, 2, … in the order
  /// of the includes, with the line number in that file.
  package static func embedded(_ fileName: String) -> ShaderSource {
    var included = 0
    let lines = text(of: fileName).split(separator: "\n", omittingEmptySubsequences: false)
    let expanded = lines.enumerated().flatMap { number, line -> [Substring] in
      guard line.hasPrefix("#include \""), line.hasSuffix("\"") else { return [line] }
      included += 1
      let name = String(line.dropFirst("#include \"".count).dropLast())
      return ["#line 1 \(included)"] + text(of: name).split(separator: "\n")
        + ["#line \(number + 2) 0"]
    }
    return ShaderSource(fileName: fileName, text: expanded.joined(separator: "\n"))
      .defining(ShaderConstants.definitions)
  }

  private static func text(of fileName: String) -> String {
    if fileName == "cells.glsl" { return ShaderConstants.cellTable }
    guard let text = shaderFiles[fileName] else {
      preconditionFailure("no shader \(fileName) was embedded; is it in Shaders/?")
    }
    return text
  }

  /// The same source with `#define NAME` (or `#define NAME VALUE`) lines after its `#version`
  /// line; the compiler's line numbers stay those of the file.
  package func defining(_ definitions: [String]) -> ShaderSource {
    guard !definitions.isEmpty else { return self }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let at = lines.first?.hasPrefix("#version") == true ? 1 : 0
    lines.insert(contentsOf: definitions.map { "#define \($0)" }, at: at)
    lines.insert("#line \(at + 1)", at: at + definitions.count)
    return ShaderSource(fileName: fileName, text: lines.joined(separator: "\n"))
  }
}

/// A linked GL program whose compile and link status has been checked.
package final class ShaderProgram {
  /// The GL program's name; 0 once released.
  package private(set) var id: GLuint

  /// Compiles and links `vertex` and `fragment`.
  ///
  /// - Parameters:
  ///   - attributes: bound by name to their locations before linking, so the shader needs no
  ///     `layout(location = …)` and the record's layout is written in one place.
  ///   - feedbackVaryings: vertex outputs to capture with transform feedback (interleaved).
  package init(
    vertex: ShaderSource, fragment: ShaderSource, attributes: [RecordAttribute] = [],
    feedbackVaryings: [String] = []
  ) throws {
    let vertexShader = try Self.compile(vertex, stage: GL_VERTEX_SHADER)
    defer { epoxy_glDeleteShader(vertexShader) }
    let fragmentShader = try Self.compile(fragment, stage: GL_FRAGMENT_SHADER)
    defer { epoxy_glDeleteShader(fragmentShader) }

    let id = epoxy_glCreateProgram()
    epoxy_glAttachShader(id, vertexShader)
    epoxy_glAttachShader(id, fragmentShader)
    for attribute in attributes {
      epoxy_glBindAttribLocation(id, attribute.location, attribute.name)
    }
    if !feedbackVaryings.isEmpty {
      withCStrings(feedbackVaryings) { names in
        epoxy_glTransformFeedbackVaryings(
          id, GLsizei(names.count), names, GLenum(GL_INTERLEAVED_ATTRIBS))
      }
    }
    epoxy_glLinkProgram(id)
    var linked: GLint = 0
    epoxy_glGetProgramiv(id, GLenum(GL_LINK_STATUS), &linked)
    do {
      guard linked == GL_TRUE else {
        let log = Self.infoLog(id, epoxy_glGetProgramiv, epoxy_glGetProgramInfoLog)
        throw GLError.programLink(files: [vertex.fileName, fragment.fileName], log: log)
      }
      try checkGL("linking \(vertex.fileName) and \(fragment.fileName)")
    } catch {
      epoxy_glDeleteProgram(id)
      throw error
    }
    self.id = id
  }

  deinit {
    release()
  }

  /// Deletes the GL program now (deinit does it otherwise); the program must not be used again.
  package func release() {
    if id != 0 { epoxy_glDeleteProgram(id) }
    id = 0
  }

  /// The location of a uniform; -1 (ignored by glUniform*) if the linker removed it.
  package func uniform(_ name: String) -> GLint {
    epoxy_glGetUniformLocation(id, name)
  }

  private static func compile(_ source: ShaderSource, stage: Int32) throws -> GLuint {
    let shader = epoxy_glCreateShader(GLenum(stage))
    source.text.withCString { text in
      var pointer: UnsafePointer<GLchar>? = text
      epoxy_glShaderSource(shader, 1, &pointer, nil)
    }
    epoxy_glCompileShader(shader)
    var compiled: GLint = 0
    epoxy_glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &compiled)
    guard compiled == GL_TRUE else {
      let log = infoLog(shader, epoxy_glGetShaderiv, epoxy_glGetShaderInfoLog)
      epoxy_glDeleteShader(shader)
      throw GLError.shaderCompile(file: source.fileName, log: log)
    }
    return shader
  }

  private static func infoLog(
    _ object: GLuint,
    _ getParameter: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
    _ getLog: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) ->
      Void
  ) -> String {
    var length: GLint = 0
    getParameter(object, GLenum(GL_INFO_LOG_LENGTH), &length)
    guard length > 0 else { return "(no log)" }
    var log = [GLchar](repeating: 0, count: Int(length))
    getLog(object, length, nil, &log)
    return String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// Calls `body` with the strings as an array of C string pointers.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<GLchar>?]) -> R) -> R {
  let copies = strings.map { strdup($0) }
  defer { copies.forEach { free($0) } }
  return body(copies.map { UnsafePointer($0) })
}
