/* The few X11 calls the overlay needs, on GLFW's own display connection: whether a compositor
   runs, and an empty input shape so that clicks and keys reach the windows below. */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <X11/Xlib.h>

/* GLFW's X11 accessors, as glfw3native.h declares them (which would also need Xrandr's headers). */
Display *glfwGetX11Display(void);
Window glfwGetX11Window(GLFWwindow *window);
#include <X11/extensions/Xfixes.h>
#include <X11/extensions/shapeconst.h>
#include <stdio.h>

/* Whether GLFW runs on an X11 display (an X server, or XWayland). Call after glfwInit. */
static inline int confetti_x11_display_open(void) {
  return glfwGetX11Display() != NULL;
}

/* Whether a compositing manager owns the screen's _NET_WM_CM_Sn selection: without one, a
   transparent window shows black where it is transparent. */
static inline int confetti_x11_has_compositor(void) {
  Display *display = glfwGetX11Display();
  if (!display) return 0;
  char name[32];
  snprintf(name, sizeof name, "_NET_WM_CM_S%d", DefaultScreen(display));
  return XGetSelectionOwner(display, XInternAtom(display, name, False)) != None;
}

/* Gives the window an empty input shape (XFixes): every click and key goes to what is below.
   Returns 0 when the server lacks the XFixes extension. */
static inline int confetti_x11_pass_input_through(GLFWwindow *window) {
  Display *display = glfwGetX11Display();
  int event, error;
  if (!display || !XFixesQueryExtension(display, &event, &error)) return 0;
  XserverRegion region = XFixesCreateRegion(display, NULL, 0);
  XFixesSetWindowShapeRegion(display, glfwGetX11Window(window), ShapeInput, 0, 0, region);
  XFixesDestroyRegion(display, region);
  XFlush(display);
  return 1;
}
