/* Clicks at a point of a wlroots compositor's output through its virtual pointer protocol
   (zwlr_virtual_pointer_v1, described by hand below), as a person's mouse would: the Wayland
   overlay's tests check that the click reaches the window under the overlay.
     wayland-click X Y WIDTH HEIGHT     (the point, and the output's size, in pixels) */
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

static const struct wl_interface *no_types[8] = {NULL};
static const struct wl_interface pointer_interface;
static const struct wl_interface *create_types[] = {&wl_seat_interface, &pointer_interface};
static const struct wl_message manager_requests[] = {
    {"create_virtual_pointer", "?on", create_types},
};
static const struct wl_interface manager_interface = {
    "zwlr_virtual_pointer_manager_v1", 1, 1, manager_requests, 0, NULL};
static const struct wl_message pointer_requests[] = {
    {"motion", "uff", no_types},          {"motion_absolute", "uuuuu", no_types},
    {"button", "uuu", no_types},          {"axis", "uuf", no_types},
    {"frame", "", no_types},              {"axis_source", "u", no_types},
    {"axis_stop", "uu", no_types},        {"axis_discrete", "uufi", no_types},
    {"destroy", "", no_types},
};
static const struct wl_interface pointer_interface = {
    "zwlr_virtual_pointer_v1", 1, 9, pointer_requests, 0, NULL};
enum { MOTION_ABSOLUTE = 1, BUTTON = 2, FRAME = 4, DESTROY = 8 };

static struct wl_proxy *manager;

static void global(void *data, struct wl_registry *registry, uint32_t name,
                   const char *interface, uint32_t version) {
  if (strcmp(interface, manager_interface.name) == 0) {
    manager = wl_registry_bind(registry, name, &manager_interface, 1);
  }
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {}
static const struct wl_registry_listener registry_listener = {global, global_remove};

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: wayland-click X Y WIDTH HEIGHT\n");
    return 2;
  }
  uint32_t x = atoi(argv[1]), y = atoi(argv[2]), width = atoi(argv[3]), height = atoi(argv[4]);
  struct wl_display *display = wl_display_connect(NULL);
  if (!display) {
    fprintf(stderr, "wayland-click: no Wayland compositor\n");
    return 1;
  }
  wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, NULL);
  wl_display_roundtrip(display);
  if (!manager) {
    fprintf(stderr, "wayland-click: the compositor offers no virtual pointer\n");
    return 1;
  }
  struct wl_proxy *pointer = wl_proxy_marshal_flags(manager, 0, &pointer_interface, 1, 0, NULL,
                                                    NULL);
  /* The seat gains a pointer: let clients see it before it moves. */
  wl_display_roundtrip(display);
  wl_display_roundtrip(display);
  wl_proxy_marshal_flags(pointer, MOTION_ABSOLUTE, NULL, 1, 0, 1u, x, y, width, height);
  wl_proxy_marshal_flags(pointer, FRAME, NULL, 1, 0);
  wl_display_roundtrip(display);
  /* The window under the pointer learns that it entered before the button comes. */
  usleep(300000);
  wl_proxy_marshal_flags(pointer, BUTTON, NULL, 1, 0, 2u, (uint32_t)BTN_LEFT, 1u);
  wl_proxy_marshal_flags(pointer, FRAME, NULL, 1, 0);
  wl_display_roundtrip(display);
  wl_proxy_marshal_flags(pointer, BUTTON, NULL, 1, 0, 3u, (uint32_t)BTN_LEFT, 0u);
  wl_proxy_marshal_flags(pointer, FRAME, NULL, 1, 0);
  wl_display_roundtrip(display);
  /* The pointer stays until the caller ends this program: sway 1.7 crashes when a pointer goes
     away while an XWayland window has its focus. */
  fflush(stdout);
  while (wl_display_dispatch(display) >= 0) {
  }
  return 0;
}
