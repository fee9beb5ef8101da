/* The overlay on a Wayland desktop whose compositor offers the layer shell (sway, KDE Plasma,
   Hyprland, labwc, …): a surface on the overlay layer over a whole output, anchored to its four
   edges, with an empty input region and no keyboard focus, and an OpenGL 3.3 context on it
   through EGL (a compatibility profile where the driver has one, else core). The program's GL
   code then draws on it as on any other context. */
#ifndef CONFETTI_WAYLAND_H
#define CONFETTI_WAYLAND_H

#include <stddef.h>

typedef struct confetti_wl_overlay confetti_wl_overlay;

/* Why confetti_wl_overlay_open gave no overlay. */
typedef enum {
  CONFETTI_WL_OPENED = 0,
  /* No Wayland compositor to connect to (WAYLAND_DISPLAY unset, or nothing listening). */
  CONFETTI_WL_NO_COMPOSITOR = 1,
  /* A compositor that offers no layer shell (GNOME's Mutter, Weston): use XWayland. */
  CONFETTI_WL_NO_LAYER_SHELL = 2,
  /* Anything else: the message says what. */
  CONFETTI_WL_FAILED = 3,
} confetti_wl_status;

/* Connects to the compositor, puts a surface on the overlay layer of output `monitor` (from 1, in
   the order the compositor lists them; 0: the compositor's choice, usually the focused one),
   waits for its size (at most 5 s for each answer) and makes an OpenGL 3.3 context on it
   current. On failure returns NULL, sets *status and writes a one-line reason into `error`. */
confetti_wl_overlay *confetti_wl_overlay_open(int monitor, confetti_wl_status *status,
                                              char *error, size_t error_size);

/* The surface's size in points (surface coordinates) and the scale of its pixels. */
void confetti_wl_overlay_size(const confetti_wl_overlay *overlay, int *width, int *height,
                              int *scale);

/* Shows the frame drawn on the context (eglSwapBuffers) and asks the compositor to say when it
   wants the next. Returns 0, or -1 when the frame could not be shown. */
int confetti_wl_overlay_swap(confetti_wl_overlay *overlay);

/* Handles the compositor's events until it wants the next frame, or `timeout_ms` pass, or a
   signal arrives. Returns 0 while the surface lives, -1 once the compositor closed it (its
   output went away), -2 when the connection broke (the compositor stopped). */
int confetti_wl_overlay_wait(confetti_wl_overlay *overlay, int timeout_ms);

/* Releases the context, the surface and the connection. NULL is allowed. */
void confetti_wl_overlay_close(confetti_wl_overlay *overlay);

#endif
