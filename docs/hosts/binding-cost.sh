#!/bin/sh
# What a draw costs through each language's binding, in instructions (callgrind: repeatable
# whatever else the machine does): N draws of one system, N = 100 and 1100, from C (confetti.h)
# and from Python (confetti_gl, through ctypes); the difference over 1000 draws is one draw's.
# The system holds no particle, so what is counted is the call itself, not the GL's work.
#
#   sh docs/hosts/binding-cost.sh PACKAGE-USR PYTHON
#
# PACKAGE-USR: a laid-out package's usr/ (sh .ci/package OUT: OUT/root/usr); PYTHON: a Python
# with the confetti_gl wheel and moderngl installed (sh .ci/python-tests leaves one in
# .build/python-test-venv/bin/python). Needs valgrind, cc and libepoxy-dev.
set -eu
usr="$(cd "${1:?usage: binding-cost.sh PACKAGE-USR PYTHON}" && pwd)"
python="${2:?usage: binding-cost.sh PACKAGE-USR PYTHON}"
lib="$(ls -d "$usr"/lib/*-linux-gnu)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/draws.c" <<'C'
#include <confetti.h>
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int count = argc > 1 ? atoi(argv[1]) : 1;
  EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
  eglInitialize(display, NULL, NULL);
  EGLint attributes[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config;
  EGLint found;
  eglBindAPI(EGL_OPENGL_API);
  eglChooseConfig(display, attributes, &config, 1, &found);
  EGLint version[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, version);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context);
  GLuint framebuffer, colour;
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glGenRenderbuffers(1, &colour);
  glBindRenderbuffer(GL_RENDERBUFFER, colour);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 320, 240);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour);
  confetti_desc desc = {0};
  desc.preset = "classic-cannon";
  desc.width = 320, desc.height = 240;
  confetti_system *system;
  if (confetti_create(&desc, &system) != CONFETTI_OK) return 1;
  for (int i = 0; i < count; i++) confetti_draw(system, 0, 0, 320, 240, 1.0 + i * 1e-3);
  confetti_close(system);
  return 0;
}
C
cat > "$work/draws.py" <<'PY'
import sys
import moderngl
import confetti_gl as confetti
count = int(sys.argv[1])
context = moderngl.create_standalone_context(backend="egl")
context.simple_framebuffer((320, 240)).use()
with confetti.System("classic-cannon", width=320, height=240, seed=1) as system:
    for i in range(count):
        system.draw(0, 0, 320, 240, 1.0 + i * 1e-3)
context.release()
PY
# shellcheck disable=SC2046
cc "$work/draws.c" -o "$work/draws" -I "$usr/include" -L "$lib" -lconfetti $(pkg-config --cflags --libs epoxy)
count() { # instructions of `$@`, under callgrind, as .ci/instructions counts them
  LP_NUM_THREADS=0 MESA_SHADER_CACHE_DISABLE=true SWIFT_DETERMINISTIC_HASHING=1 PYTHONHASHSEED=0 \
    LD_LIBRARY_PATH="$lib" valgrind --tool=callgrind --callgrind-out-file="$work/out" "$@" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for language in C Python; do
  if [ "$language" = C ]; then set -- "$work/draws"; else set -- "$python" "$work/draws.py"; fi
  few="$(count "$@" 100)"
  many="$(count "$@" 1100)"
  echo "$language: $(( (many - few) / 1000 )) instructions a draw ($few for 100 draws, $many for 1100)"
done
