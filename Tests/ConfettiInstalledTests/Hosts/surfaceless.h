/* What the headless C hosts share: a GL 3.3 core context on Mesa's surfaceless EGL platform,
 * and a framebuffer of their own to draw into (a surfaceless context has no default one).
 * Included by misuse.c and soak.c, each compiled on its own. */
#ifndef SURFACELESS_H
#define SURFACELESS_H

#include <epoxy/egl.h>
#include <epoxy/gl.h>

static EGLDisplay surfaceless_display = EGL_NO_DISPLAY;
static EGLConfig surfaceless_config = EGL_NO_CONFIG_KHR;

/* A GL 3.3 core context on the surfaceless display (opened on first use), sharing `shared`'s
 * objects unless EGL_NO_CONTEXT; EGL_NO_CONTEXT when there is none. */
static EGLContext surfaceless_context(EGLContext shared) {
  if (surfaceless_display == EGL_NO_DISPLAY) {
    EGLDisplay display =
        eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, NULL, NULL)) return EGL_NO_CONTEXT;
    EGLint attributes[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLint count = 0;
    eglBindAPI(EGL_OPENGL_API);
    eglChooseConfig(display, attributes, &surfaceless_config, 1, &count);
    surfaceless_display = display;
  }
  EGLint version[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                      EGL_NONE};
  return eglCreateContext(surfaceless_display, surfaceless_config, shared, version);
}

/* Makes `context` current (EGL_NO_CONTEXT: none); whether it could. */
static int surfaceless_make_current(EGLContext context) {
  return eglMakeCurrent(surfaceless_display, EGL_NO_SURFACE, EGL_NO_SURFACE, context);
}

/* A width x height colour framebuffer of the current context's, bound for drawing. */
static GLuint surfaceless_framebuffer(int width, int height) {
  GLuint framebuffer = 0, colour = 0;
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glGenRenderbuffers(1, &colour);
  glBindRenderbuffer(GL_RENDERBUFFER, colour);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour);
  return framebuffer;
}

#endif
