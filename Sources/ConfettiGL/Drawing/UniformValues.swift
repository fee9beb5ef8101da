@preconcurrency import CEpoxy

/// One active uniform of a linked program and the values it holds now, read back from the GL:
/// what a port of the shaders must set to draw the same picture (`confetti records`).
package struct UniformValue: Sendable {
  /// Its name, without the `[0]` of an array.
  package var name: String
  /// Its GLSL type: float, vec2, vec4, int, ivec2, uint, sampler2D.
  package var type: String
  /// Its array length (1 for a single value).
  package var size: Int
  /// Every component of every element, in order.
  package var values: [Double]
}

extension ShaderProgram {
  /// Every active uniform of the program and its current values, in the GL's order.
  package func uniformValues() -> [UniformValue] {
    var count: GLint = 0
    epoxy_glGetProgramiv(id, GLenum(GL_ACTIVE_UNIFORMS), &count)
    var found: [UniformValue] = []
    for index in 0..<GLuint(max(0, count)) {
      var name = [GLchar](repeating: 0, count: 256)
      var (length, size, type): (GLsizei, GLint, GLenum) = (0, 0, 0)
      epoxy_glGetActiveUniform(id, index, 256, &length, &size, &type, &name)
      var base = String(
        decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if base.hasSuffix("[0]") { base.removeLast(3) }
      let (glsl, components, kind): (String, Int, Character) =
        switch Int32(type) {
        case GL_FLOAT: ("float", 1, "f")
        case GL_FLOAT_VEC2: ("vec2", 2, "f")
        case GL_FLOAT_VEC4: ("vec4", 4, "f")
        case GL_INT: ("int", 1, "i")
        case GL_INT_VEC2: ("ivec2", 2, "i")
        case GL_UNSIGNED_INT: ("uint", 1, "u")
        case GL_SAMPLER_2D: ("sampler2D", 1, "i")
        default: ("0x\(String(type, radix: 16))", 0, "?")
        }
      var values: [Double] = []
      for element in 0..<Int(size) {
        let location = uniform(size > 1 ? "\(base)[\(element)]" : base)
        switch kind {
        case "f":
          var read = [GLfloat](repeating: 0, count: components)
          epoxy_glGetUniformfv(id, location, &read)
          values += read.map(Double.init)
        case "i":
          var read = [GLint](repeating: 0, count: components)
          epoxy_glGetUniformiv(id, location, &read)
          values += read.map(Double.init)
        case "u":
          var read = [GLuint](repeating: 0, count: components)
          epoxy_glGetUniformuiv(id, location, &read)
          values += read.map(Double.init)
        default:
          break
        }
      }
      found.append(UniformValue(name: base, type: glsl, size: Int(size), values: values))
    }
    return found
  }
}
