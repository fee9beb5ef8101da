/* A host that destroys its EGL context and terminates its display while the context is
 * current, then destroys its system: the first call that would need GL functions libepoxy has
 * not looked up yet. It must end the handle (status 0), not abort the program.
 *
 *   cc destroyed-context.c -o destroyed-context $(pkg-config --cflags --libs confetti egl)
 */
#include <EGL/egl.h>
#include <confetti.h>
#include <stdio.h>

int main(void) {
  EGLDisplay display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (!eglInitialize(display, NULL, NULL)) return printf("no EGL display\n"), 1;
  eglBindAPI(EGL_OPENGL_API);
  EGLint wanted[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                     EGL_NONE};
  EGLConfig config;
  EGLint count = 0;
  eglChooseConfig(display, wanted, &config, 1, &count);
  EGLint version[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                      EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, version);
  EGLint size[] = {EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, size);
  if (!eglMakeCurrent(display, surface, surface, context)) return printf("no context\n"), 1;
  confetti_desc desc = {0};
  desc.width = 64, desc.height = 64;
  confetti_system *system;
  if (confetti_create(&desc, &system) != CONFETTI_OK)
    return printf("create: %s\n", confetti_last_error()), 1;
  confetti_fire_opening(system, 0);
  printf("draw %d\n", confetti_draw(system, 0, 0, 64, 64, 0.5));
  eglDestroyContext(display, context);
  eglTerminate(display);
  printf("destroy %d\n", confetti_close(system));
  return 0;
}
