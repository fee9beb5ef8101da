/* The few X11 calls the overlay needs, on GLFW's own display connection: whether a compositor
   runs, an empty input shape so that clicks and keys reach the windows below, and the hints
   that keep a window manager from focusing it. */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <X11/Xlib.h>

/* GLFW's X11 accessors, as glfw3native.h declares them (which would also need Xrandr's headers). */
Display *glfwGetX11Display(void);
Window glfwGetX11Window(GLFWwindow *window);
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xfixes.h>
#include <X11/extensions/shapeconst.h>
#include <stdio.h>
#include <unistd.h>

/* Whether the X display's root window names, in _NET_SUPPORTING_WM_CHECK, a window that no longer
   exists or does not name itself there in turn (as EWMH has it): left by a window manager that
   exited without clearing it. GLFW 3.3.8 then leaves its X error handler installed by mistake
   and aborts on an assertion when a window is made. Writes the named window's id into *window.
   Call before glfwInit; 0 when no display can be opened. The connection it opens is handed back
   in *connection, to be closed by confetti_x11_close once GLFW has its own: closed before, it
   could be a server's last client (xvfb-run's Xvfb has no other), whose leaving resets the
   server, and GLFW's connection, made during the reset, would be refused. */
static inline int confetti_x11_stale_wm_check(unsigned long *window, void **connection) {
  *connection = NULL;
  Display *display = XOpenDisplay(NULL);
  if (!display) return 0;
  *connection = display;
  Atom check = XInternAtom(display, "_NET_SUPPORTING_WM_CHECK", True);
  int stale = 0;
  Atom type;
  int format;
  unsigned long count, after;
  unsigned char *value = NULL;
  if (check != None &&
      XGetWindowProperty(display, DefaultRootWindow(display), check, 0, 1, False, XA_WINDOW,
                         &type, &format, &count, &after, &value) == Success &&
      value && count == 1 && format == 32) {
    /* The check window is a child of the root (EWMH): look among them, which asks nothing of a
       window that may not exist (that would be an X error). */
    *window = *(unsigned long *)value;
    Window root, parent, *children = NULL;
    unsigned int child_count = 0;
    if (XQueryTree(display, DefaultRootWindow(display), &root, &parent, &children,
                   &child_count)) {
      int exists = 0;
      for (unsigned int i = 0; i < child_count; i++) {
        if (children[i] == (Window)*window) exists = 1;
      }
      if (children) XFree(children);
      unsigned char *own = NULL;
      stale = !exists ||
              XGetWindowProperty(display, (Window)*window, check, 0, 1, False, XA_WINDOW, &type,
                                 &format, &count, &after, &own) != Success ||
              !own || count != 1;
      if (own) XFree(own);
    }
  }
  if (value) XFree(value);
  return stale;
}

/* Closes a connection confetti_x11_stale_wm_check handed back (NULL: none). */
static inline void confetti_x11_close(void *connection) {
  if (connection) XCloseDisplay((Display *)connection);
}

/* Ends the program with one line when the X connection is lost (the server stopped, or a remote
   display went away), instead of Xlib's own lines: there is nothing left to draw on. */
static inline int confetti_x11_display_lost(Display *display) {
  static const char line[] =
      "confetti: the X display went away (its server stopped or the connection broke)\n";
  if (write(2, line, sizeof line - 1) < 0) {
  }
  _exit(1);
}
static inline void confetti_x11_say_when_the_display_is_lost(void) {
  XSetIOErrorHandler(confetti_x11_display_lost);
}

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

/* Keeps the not yet mapped window out of the way of a window manager and the person at the
   keyboard: it takes no keyboard focus (WM_HINTS input False), it says it is a notification,
   above the others and on no taskbar or pager, and it is override-redirect, so that no window
   manager places, frames or focuses it. */
static inline void confetti_x11_stay_out_of_the_way(GLFWwindow *window) {
  Display *display = glfwGetX11Display();
  if (!display) return;
  Window handle = glfwGetX11Window(window);
  XWMHints *hints = XGetWMHints(display, handle);
  if (!hints) hints = XAllocWMHints();
  if (hints) {
    hints->flags |= InputHint;
    hints->input = False;
    XSetWMHints(display, handle, hints);
    XFree(hints);
  }
  Atom type = XInternAtom(display, "_NET_WM_WINDOW_TYPE_NOTIFICATION", False);
  XChangeProperty(display, handle, XInternAtom(display, "_NET_WM_WINDOW_TYPE", False), XA_ATOM,
                  32, PropModeReplace, (unsigned char *)&type, 1);
  Atom states[] = {
      XInternAtom(display, "_NET_WM_STATE_ABOVE", False),
      XInternAtom(display, "_NET_WM_STATE_SKIP_TASKBAR", False),
      XInternAtom(display, "_NET_WM_STATE_SKIP_PAGER", False),
  };
  XChangeProperty(display, handle, XInternAtom(display, "_NET_WM_STATE", False), XA_ATOM, 32,
                  PropModeReplace, (unsigned char *)states, 3);
  /* And none manages it at all: no placement by hand (twm's default), no focus, no frame. */
  XSetWindowAttributes attributes = {0};
  attributes.override_redirect = True;
  XChangeWindowAttributes(display, handle, CWOverrideRedirect, &attributes);
  XFlush(display);
}

/* Maps the window on top, without waiting for a window manager to show it (glfwShowWindow
   waits for the window to become visible, and under twm spins until someone places it). */
static inline void confetti_x11_show(GLFWwindow *window) {
  Display *display = glfwGetX11Display();
  if (!display) return;
  XMapRaised(display, glfwGetX11Window(window));
  XFlush(display);
}
