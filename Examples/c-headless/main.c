/* c-headless: frames of an effect drawn by libconfetti from plain C, through EGL: no window, no
 * display. Writes FRAMES numbered PNG files, one every 1/30 s of the effect, 1280x720 pixels of
 * a 640x360-point effect (two pixels a point).
 *
 *   cc main.c -o c-headless $(pkg-config --cflags --libs confetti epoxy libpng)
 *   ./c-headless [PRESET [FRAMES [OUTPUT-PREFIX]]]     (default: fireworks 6 headless-)
 *
 * Each frame is what `confetti render --preset PRESET --size 1280x720 --scale 2 --seed 7
 * --time 0.5 --frames FRAMES --fps 30` writes: the same effect, seed and moments.
 */
#include <confetti.h>
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

enum { POINTS_WIDE = 640, POINTS_HIGH = 360, PIXELS_PER_POINT = 2 };
enum { WIDTH = POINTS_WIDE * PIXELS_PER_POINT, HEIGHT = POINTS_HIGH * PIXELS_PER_POINT };

static int fail(const char *what, const char *why) {
  fprintf(stderr, "c-headless: %s: %s\n", what, why);
  return 1;
}

/* A GL 3.3 context with no surface, on Mesa's surfaceless platform or the default display: a
   compatibility profile where the driver has one, as `confetti render` makes (its points are
   whole-pixel squares, which Mesa's llvmpipe draws faster), else a core profile. */
static int make_context(void) {
  EGLDisplay display = EGL_NO_DISPLAY;
  if (epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless"))
    display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
  if (display == EGL_NO_DISPLAY) display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, NULL, NULL)) return 0;
  /* No surface: any config that renders desktop GL (or none, with EGL_KHR_no_config_context). */
  EGLint config_attributes[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = EGL_NO_CONFIG_KHR;
  EGLint count = 0;
  if (!eglBindAPI(EGL_OPENGL_API)) return 0;
  eglChooseConfig(display, config_attributes, &config, 1, &count);
  EGLint profiles[] = {EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
                       EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT};
  EGLContext context = EGL_NO_CONTEXT;
  for (int i = 0; i < 2 && context == EGL_NO_CONTEXT; i++) {
    EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,       3,
                                   EGL_CONTEXT_MINOR_VERSION,       3,
                                   EGL_CONTEXT_OPENGL_PROFILE_MASK, profiles[i],
                                   EGL_NONE};
    context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  }
  return context != EGL_NO_CONTEXT &&
         eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context);
}

/* Reads the bound framebuffer (bottom row first) into a PNG (top row first). */
static int write_png(const char *path, unsigned char *pixels) {
  glReadPixels(0, 0, WIDTH, HEIGHT, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  png_image image = {.version = PNG_IMAGE_VERSION, .width = WIDTH, .height = HEIGHT,
                     .format = PNG_FORMAT_RGBA};
  int stride = -WIDTH * 4; /* negative: the rows are stored bottom-up */
  return png_image_write_to_file(&image, path, 0, pixels, stride, NULL);
}

int main(int argc, char **argv) {
  const char *preset = argc > 1 ? argv[1] : "fireworks";
  int frames = argc > 2 ? atoi(argv[2]) : 6;
  const char *prefix = argc > 3 ? argv[3] : "headless-";
  if (frames < 1 || frames > 1000) return fail("FRAMES", "must be 1 to 1000");

  /* Set up: a context, a picture to draw into, and the effect on that context. */
  if (!make_context()) return fail("EGL", "no headless OpenGL 3.3 context");
  GLuint framebuffer, color;
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glGenRenderbuffers(1, &color);
  glBindRenderbuffer(GL_RENDERBUFFER, color);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, WIDTH, HEIGHT);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
  unsigned char *pixels = malloc((size_t)WIDTH * HEIGHT * 4);

  confetti_desc desc = {0};
  desc.preset = preset;
  desc.width = POINTS_WIDE;
  desc.height = POINTS_HIGH;
  desc.seed = 7;
  confetti_system *confetti;
  if (confetti_create(&desc, &confetti) != CONFETTI_OK)
    return fail(preset, confetti_last_error());

  /* The effect opens at 1 s on our clock as the window and confetti render open it: its start
   * emitters, or where it has none (nothing alive after them) its key ones, or its click ones. */
  const double start = 1.0;
  const confetti_trigger_type openings[] = {CONFETTI_TRIGGER_START, CONFETTI_TRIGGER_KEY,
                                            CONFETTI_TRIGGER_CLICK};
  bool alive = false;
  for (int i = 0; i < 3 && !alive; i++) {
    confetti_trigger(confetti, openings[i], start);
    confetti_is_alive(confetti, start, &alive);
  }
  /* Loop: each frame is the closed form at its moment; drawing moves the emission on to it (an
   * effect makes the same pieces whatever steps its clock takes). */
  for (int frame = 0; frame < frames; frame++) {
    double time = start + 0.5 + frame / 30.0;
    glClearColor(18 / 255.0f, 20 / 255.0f, 28 / 255.0f, 1); /* confetti render's backdrop */
    glClear(GL_COLOR_BUFFER_BIT);
    if (confetti_draw(confetti, 0, 0, WIDTH, HEIGHT, time) != CONFETTI_OK)
      return fail("draw", confetti_last_error());
    char path[4096];
    snprintf(path, sizeof path, "%s%03d.png", prefix, frame);
    if (!write_png(path, pixels)) return fail(path, "cannot write the picture");
    int64_t alive = 0;
    confetti_alive_count(confetti, time, &alive);
    printf("%s: %lld particles at %.3f s\n", path, (long long)alive, time - start);
  }

  /* Tear down: GL objects go while their context is current. */
  double end;
  confetti_end_time(confetti, &end);
  if (isinf(end) && end > 0)
    printf("the last particle is gone later: an emitter is still emitting\n");
  else
    printf("the last particle is gone at %.3f s\n", end - start);
  confetti_close(confetti);
  glDeleteRenderbuffers(1, &color);
  glDeleteFramebuffers(1, &framebuffer);
  free(pixels);
  return 0;
}
