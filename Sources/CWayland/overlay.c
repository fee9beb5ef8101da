/* The Wayland overlay: see confetti_wayland.h. The layer shell's two interfaces are described
   here by hand (their requests and events, in the protocol's order), as wayland-scanner would
   describe them, so that the build needs nothing beyond libwayland's headers. */
#include "confetti_wayland.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>
#include <wayland-egl.h>

/* MARK: The layer shell (wlr-layer-shell-unstable-v1, version 1) */

enum { LAYER_OVERLAY = 3 };
enum { ANCHOR_ALL = 1 | 2 | 4 | 8 }; /* top, bottom, left, right */
enum {
  SHELL_GET_LAYER_SURFACE = 0,
};
enum {
  LAYER_SURFACE_SET_ANCHOR = 1,
  LAYER_SURFACE_SET_EXCLUSIVE_ZONE = 2,
  LAYER_SURFACE_SET_KEYBOARD_INTERACTIVITY = 4,
  LAYER_SURFACE_ACK_CONFIGURE = 6,
  LAYER_SURFACE_DESTROY = 7,
};

static const struct wl_interface *no_types[4] = {NULL, NULL, NULL, NULL};
extern const struct wl_interface confetti_layer_surface_interface;
static const struct wl_interface *get_layer_surface_types[] = {
    &confetti_layer_surface_interface, &wl_surface_interface, &wl_output_interface, NULL, NULL};

static const struct wl_message layer_shell_requests[] = {
    {"get_layer_surface", "no?ous", get_layer_surface_types},
};
static const struct wl_interface layer_shell_interface = {
    "zwlr_layer_shell_v1", 1, 1, layer_shell_requests, 0, NULL};

static const struct wl_message layer_surface_requests[] = {
    {"set_size", "uu", no_types},
    {"set_anchor", "u", no_types},
    {"set_exclusive_zone", "i", no_types},
    {"set_margin", "iiii", no_types},
    {"set_keyboard_interactivity", "u", no_types},
    {"get_popup", "o", no_types},
    {"ack_configure", "u", no_types},
    {"destroy", "", no_types},
};
static const struct wl_message layer_surface_events[] = {
    {"configure", "uuu", no_types},
    {"closed", "", no_types},
};
const struct wl_interface confetti_layer_surface_interface = {
    "zwlr_layer_surface_v1", 1, 8, layer_surface_requests, 2, layer_surface_events};

struct layer_surface_listener {
  void (*configure)(void *data, struct wl_proxy *surface, uint32_t serial, uint32_t width,
                    uint32_t height);
  void (*closed)(void *data, struct wl_proxy *surface);
};

/* MARK: The overlay */

enum { MOST_OUTPUTS = 16 };

struct output {
  struct wl_output *proxy;
  int32_t scale;
  confetti_wl_overlay *overlay;
};

struct confetti_wl_overlay {
  struct wl_display *display;
  struct wl_registry *registry;
  struct wl_compositor *compositor;
  struct wl_proxy *layer_shell;
  struct output outputs[MOST_OUTPUTS];
  int output_count;
  struct wl_surface *surface;
  struct wl_proxy *layer_surface;
  struct wl_callback *frame;
  struct wl_egl_window *egl_window;
  EGLDisplay egl_display;
  EGLContext context;
  EGLSurface egl_surface;
  int width, height, scale;
  /* The output the surface is on, once the compositor says. */
  struct wl_output *entered;
  int configured, closed;
};

static void say(char *error, size_t size, const char *format, ...) {
  if (!error || size == 0) return;
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(error, size, format, arguments);
  va_end(arguments);
}

static void output_geometry(void *data, struct wl_output *output, int32_t x, int32_t y,
                            int32_t width, int32_t height, int32_t subpixel, const char *make,
                            const char *model, int32_t transform) {}
static void output_mode(void *data, struct wl_output *output, uint32_t flags, int32_t width,
                        int32_t height, int32_t refresh) {}
static void take_scale(confetti_wl_overlay *overlay, int32_t scale);
/* An output's new settings are complete: the surface on it takes its scale (the person changed
   it while the overlay runs). */
static void output_done(void *data, struct wl_output *proxy) {
  struct output *output = data;
  if (output->overlay->entered == proxy) take_scale(output->overlay, output->scale);
}
/* Outputs are scaled 1 to 4 times in practice; anything past 16 is taken as 16. */
static void output_scale(void *data, struct wl_output *output, int32_t factor) {
  ((struct output *)data)->scale = factor < 1 ? 1 : factor > 16 ? 16 : factor;
}
static const struct wl_output_listener output_listener = {
    .geometry = output_geometry, .mode = output_mode, .done = output_done, .scale = output_scale};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
                            const char *interface, uint32_t version) {
  confetti_wl_overlay *overlay = data;
  if (strcmp(interface, wl_compositor_interface.name) == 0 && !overlay->compositor) {
    overlay->compositor = wl_registry_bind(registry, name, &wl_compositor_interface,
                                           version < 3 ? version : 3);
  } else if (strcmp(interface, layer_shell_interface.name) == 0 && !overlay->layer_shell) {
    overlay->layer_shell = wl_registry_bind(registry, name, &layer_shell_interface, 1);
  } else if (strcmp(interface, wl_output_interface.name) == 0 &&
             overlay->output_count < MOST_OUTPUTS) {
    struct output *output = &overlay->outputs[overlay->output_count++];
    output->scale = 1;
    output->overlay = overlay;
    output->proxy =
        wl_registry_bind(registry, name, &wl_output_interface, version < 2 ? version : 2);
    wl_output_add_listener(output->proxy, &output_listener, output);
  }
}
static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {}
static const struct wl_registry_listener registry_listener = {registry_global,
                                                              registry_global_remove};

static void resize(confetti_wl_overlay *overlay) {
  if (overlay->egl_window) {
    wl_egl_window_resize(overlay->egl_window, overlay->width * overlay->scale,
                         overlay->height * overlay->scale, 0, 0);
  }
}

static void layer_configure(void *data, struct wl_proxy *layer_surface, uint32_t serial,
                            uint32_t width, uint32_t height) {
  confetti_wl_overlay *overlay = data;
  wl_proxy_marshal_flags(layer_surface, LAYER_SURFACE_ACK_CONFIGURE, NULL,
                         wl_proxy_get_version(layer_surface), 0, serial);
  if (width > 0 && height > 0 && width <= 1 << 20 && height <= 1 << 20) {
    overlay->width = (int)width;
    overlay->height = (int)height;
    resize(overlay);
  }
  overlay->configured = 1;
}
static void layer_closed(void *data, struct wl_proxy *layer_surface) {
  ((confetti_wl_overlay *)data)->closed = 1;
}
static const struct layer_surface_listener layer_listener = {layer_configure, layer_closed};

/* The surface's pixels take `scale` from its next frame on. */
static void take_scale(confetti_wl_overlay *overlay, int32_t scale) {
  if (scale == overlay->scale) return;
  overlay->scale = scale;
  wl_surface_set_buffer_scale(overlay->surface, overlay->scale);
  resize(overlay);
}

/* The surface is shown on an output: its pixels take that output's scale. */
static void surface_enter(void *data, struct wl_surface *surface, struct wl_output *entered) {
  confetti_wl_overlay *overlay = data;
  overlay->entered = entered;
  for (int i = 0; i < overlay->output_count; i++) {
    if (overlay->outputs[i].proxy == entered) take_scale(overlay, overlay->outputs[i].scale);
  }
}
static void surface_leave(void *data, struct wl_surface *surface, struct wl_output *left) {}
static const struct wl_surface_listener surface_listener = {.enter = surface_enter,
                                                            .leave = surface_leave};

/* How long the compositor has to answer while the overlay is set up, in milliseconds. */
enum { ANSWER_WITHIN_MS = 5000 };

static long milliseconds_now(void);

/* Reads and handles the compositor's events until `ready` is set, the deadline passes (0) or
   the connection breaks (-1); 1 once ready. A signal does not end the wait. */
static int dispatch_until(struct wl_display *display, const int *ready, long deadline) {
  while (!*ready) {
    while (wl_display_prepare_read(display) != 0) {
      if (wl_display_dispatch_pending(display) < 0) return -1;
      if (*ready) return 1;
    }
    if (wl_display_flush(display) < 0 && errno != EAGAIN) {
      wl_display_cancel_read(display);
      return -1;
    }
    long left = deadline - milliseconds_now();
    struct pollfd readable = {wl_display_get_fd(display), POLLIN, 0};
    int polled = left > 0 ? poll(&readable, 1, (int)left) : 0;
    if (polled <= 0) {
      wl_display_cancel_read(display);
      if (polled < 0 && errno == EINTR) continue;
      return 0;
    }
    if (wl_display_read_events(display) < 0 || wl_display_dispatch_pending(display) < 0)
      return -1;
  }
  return 1;
}

static void synced(void *data, struct wl_callback *callback, uint32_t serial) {
  *(int *)data = 1;
  wl_callback_destroy(callback);
}
static const struct wl_callback_listener sync_listener = {synced};

/* wl_display_roundtrip with a deadline: 1 answered, 0 not in time, -1 connection broken. */
static int roundtrip(struct wl_display *display, long deadline) {
  int done = 0;
  struct wl_callback *callback = wl_display_sync(display);
  wl_callback_add_listener(callback, &sync_listener, &done);
  int answered = dispatch_until(display, &done, deadline);
  if (!done) wl_callback_destroy(callback);
  return answered;
}

static int make_context(confetti_wl_overlay *overlay, char *error, size_t error_size) {
  overlay->egl_display = eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, overlay->display, NULL);
  if (overlay->egl_display == EGL_NO_DISPLAY ||
      !eglInitialize(overlay->egl_display, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API)) {
    say(error, error_size, "EGL cannot draw on this Wayland display (error 0x%x)", eglGetError());
    return 0;
  }
  const EGLint config_attributes[] = {
      EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
      EGL_RED_SIZE,     8,              EGL_GREEN_SIZE,      8,
      EGL_BLUE_SIZE,    8,              EGL_ALPHA_SIZE,      8,
      EGL_NONE};
  EGLConfig config;
  EGLint count = 0;
  if (!eglChooseConfig(overlay->egl_display, config_attributes, &config, 1, &count) ||
      count < 1) {
    say(error, error_size, "EGL offers no RGBA window configuration with alpha on Wayland");
    return 0;
  }
  /* A compatibility profile where the driver has one (its points are whole-pixel squares, which
     Mesa's llvmpipe draws faster), else a core profile. */
  const EGLint profiles[] = {EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
                             EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT};
  overlay->context = EGL_NO_CONTEXT;
  for (size_t i = 0; i < 2 && overlay->context == EGL_NO_CONTEXT; i++) {
    const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,        3,
                                         EGL_CONTEXT_MINOR_VERSION,        3,
                                         EGL_CONTEXT_OPENGL_PROFILE_MASK, profiles[i],
                                         EGL_NONE};
    overlay->context =
        eglCreateContext(overlay->egl_display, config, EGL_NO_CONTEXT, context_attributes);
  }
  if (overlay->context == EGL_NO_CONTEXT) {
    say(error, error_size, "cannot make an OpenGL 3.3 context on Wayland (EGL error 0x%x)",
        eglGetError());
    return 0;
  }
  overlay->egl_window = wl_egl_window_create(overlay->surface, overlay->width * overlay->scale,
                                             overlay->height * overlay->scale);
  overlay->egl_surface =
      overlay->egl_window ? eglCreatePlatformWindowSurface(overlay->egl_display, config,
                                                           overlay->egl_window, NULL)
                          : EGL_NO_SURFACE;
  if (overlay->egl_surface == EGL_NO_SURFACE ||
      !eglMakeCurrent(overlay->egl_display, overlay->egl_surface, overlay->egl_surface,
                      overlay->context)) {
    say(error, error_size, "cannot draw on the Wayland surface (EGL error 0x%x)", eglGetError());
    return 0;
  }
  /* Frames are paced by the compositor's frame callbacks (confetti_wl_overlay_wait), which a
     signal can interrupt, never inside eglSwapBuffers. */
  eglSwapInterval(overlay->egl_display, 0);
  return 1;
}

confetti_wl_overlay *confetti_wl_overlay_open(int monitor, confetti_wl_status *status,
                                              char *error, size_t error_size) {
  *status = CONFETTI_WL_FAILED;
  confetti_wl_overlay *overlay = calloc(1, sizeof *overlay);
  if (!overlay) {
    say(error, error_size, "out of memory");
    return NULL;
  }
  overlay->scale = 1;
  overlay->display = wl_display_connect(NULL);
  if (!overlay->display) {
    *status = CONFETTI_WL_NO_COMPOSITOR;
    say(error, error_size, "no Wayland compositor to connect to");
    free(overlay);
    return NULL;
  }
  overlay->registry = wl_display_get_registry(overlay->display);
  wl_registry_add_listener(overlay->registry, &registry_listener, overlay);
  /* The globals, then the outputs' scales. */
  long deadline = milliseconds_now() + ANSWER_WITHIN_MS;
  int answered = roundtrip(overlay->display, deadline);
  if (answered > 0) answered = roundtrip(overlay->display, deadline);
  if (answered <= 0) {
    say(error, error_size,
        answered == 0 ? "the Wayland compositor did not answer within %d s"
                      : "the Wayland compositor closed the connection",
        ANSWER_WITHIN_MS / 1000);
    goto failed;
  }
  if (!overlay->compositor || !overlay->layer_shell) {
    *status = CONFETTI_WL_NO_LAYER_SHELL;
    say(error, error_size, "this Wayland compositor offers no layer shell");
    goto failed;
  }
  if (monitor > overlay->output_count) {
    say(error, error_size, "there is no monitor %d: this desktop has %d (--monitor 1 to %d)",
        monitor, overlay->output_count, overlay->output_count);
    goto failed;
  }
  struct wl_output *output = monitor > 0 ? overlay->outputs[monitor - 1].proxy : NULL;
  if (monitor > 0) overlay->scale = overlay->outputs[monitor - 1].scale;

  overlay->surface = wl_compositor_create_surface(overlay->compositor);
  wl_surface_add_listener(overlay->surface, &surface_listener, overlay);
  wl_surface_set_buffer_scale(overlay->surface, overlay->scale);
  /* An empty input region: every click, touch and scroll goes to what is below. */
  struct wl_region *nothing = wl_compositor_create_region(overlay->compositor);
  wl_surface_set_input_region(overlay->surface, nothing);
  wl_region_destroy(nothing);
  overlay->layer_surface = wl_proxy_marshal_flags(
      overlay->layer_shell, SHELL_GET_LAYER_SURFACE, &confetti_layer_surface_interface,
      wl_proxy_get_version(overlay->layer_shell), 0, NULL, overlay->surface, output,
      (uint32_t)LAYER_OVERLAY, "confetti");
  struct wl_proxy *layer = overlay->layer_surface;
  uint32_t version = wl_proxy_get_version(layer);
  wl_proxy_add_listener(layer, (void (**)(void))&layer_listener, overlay);
  wl_proxy_marshal_flags(layer, LAYER_SURFACE_SET_ANCHOR, NULL, version, 0, (uint32_t)ANCHOR_ALL);
  /* Over panels and docks too, not moved aside for them. */
  wl_proxy_marshal_flags(layer, LAYER_SURFACE_SET_EXCLUSIVE_ZONE, NULL, version, 0, -1);
  /* Never the keyboard's focus. */
  wl_proxy_marshal_flags(layer, LAYER_SURFACE_SET_KEYBOARD_INTERACTIVITY, NULL, version, 0, 0u);
  wl_surface_commit(overlay->surface);
  dispatch_until(overlay->display, &overlay->configured, milliseconds_now() + ANSWER_WITHIN_MS);
  if (!overlay->configured || overlay->width <= 0 || overlay->height <= 0) {
    say(error, error_size, "the Wayland compositor gave the overlay no place on screen");
    goto failed;
  }
  if (!make_context(overlay, error, error_size)) goto failed;
  *status = CONFETTI_WL_OPENED;
  return overlay;

failed:
  confetti_wl_overlay_close(overlay);
  return NULL;
}

void confetti_wl_overlay_size(const confetti_wl_overlay *overlay, int *width, int *height,
                              int *scale) {
  *width = overlay->width;
  *height = overlay->height;
  *scale = overlay->scale;
}

static void frame_done(void *data, struct wl_callback *callback, uint32_t time) {
  confetti_wl_overlay *overlay = data;
  wl_callback_destroy(callback);
  if (overlay->frame == callback) overlay->frame = NULL;
}
static const struct wl_callback_listener frame_listener = {frame_done};

int confetti_wl_overlay_swap(confetti_wl_overlay *overlay) {
  if (overlay->frame) wl_callback_destroy(overlay->frame);
  overlay->frame = wl_surface_frame(overlay->surface);
  wl_callback_add_listener(overlay->frame, &frame_listener, overlay);
  return eglSwapBuffers(overlay->egl_display, overlay->egl_surface) ? 0 : -1;
}

static long milliseconds_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec * 1000L + now.tv_nsec / 1000000L;
}

int confetti_wl_overlay_wait(confetti_wl_overlay *overlay, int timeout_ms) {
  struct wl_display *display = overlay->display;
  long deadline = milliseconds_now() + timeout_ms;
  do {
    while (wl_display_prepare_read(display) != 0) {
      if (wl_display_dispatch_pending(display) < 0) return -2;
    }
    if (wl_display_flush(display) < 0 && errno != EAGAIN) {
      wl_display_cancel_read(display);
      return -2;
    }
    long left = deadline - milliseconds_now();
    struct pollfd ready = {wl_display_get_fd(display), POLLIN, 0};
    int polled = left > 0 && overlay->frame ? poll(&ready, 1, (int)left) : 0;
    if (polled <= 0) {
      /* Time is up, or a signal came: the caller looks at it. */
      wl_display_cancel_read(display);
      break;
    }
    if (wl_display_read_events(display) < 0) return -2;
    if (wl_display_dispatch_pending(display) < 0) return -2;
  } while (overlay->frame && !overlay->closed);
  if (wl_display_dispatch_pending(display) < 0) return -2;
  return overlay->closed ? -1 : 0;
}

void confetti_wl_overlay_close(confetti_wl_overlay *overlay) {
  if (!overlay) return;
  if (overlay->egl_display != EGL_NO_DISPLAY && overlay->egl_display) {
    eglMakeCurrent(overlay->egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (overlay->egl_surface) eglDestroySurface(overlay->egl_display, overlay->egl_surface);
    if (overlay->context) eglDestroyContext(overlay->egl_display, overlay->context);
    eglTerminate(overlay->egl_display);
  }
  if (overlay->egl_window) wl_egl_window_destroy(overlay->egl_window);
  if (overlay->frame) wl_callback_destroy(overlay->frame);
  if (overlay->layer_surface) {
    wl_proxy_marshal_flags(overlay->layer_surface, LAYER_SURFACE_DESTROY, NULL,
                           wl_proxy_get_version(overlay->layer_surface), WL_MARSHAL_FLAG_DESTROY);
  }
  if (overlay->surface) wl_surface_destroy(overlay->surface);
  for (int i = 0; i < overlay->output_count; i++) wl_output_destroy(overlay->outputs[i].proxy);
  if (overlay->layer_shell) wl_proxy_destroy(overlay->layer_shell);
  if (overlay->compositor) wl_compositor_destroy(overlay->compositor);
  if (overlay->registry) wl_registry_destroy(overlay->registry);
  wl_display_flush(overlay->display);
  wl_display_disconnect(overlay->display);
  free(overlay);
}
