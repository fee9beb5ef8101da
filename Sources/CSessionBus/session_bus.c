/* GDBus, loaded at the service's start: the few GLib and GIO functions the service uses, by
 * their documented signatures (GLib's ABI is stable), with no GLib header or link at build
 * time. */
#define _GNU_SOURCE
#include "confetti_session_bus.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint32_t domain;
  int code;
  char *message;
} bus_error; /* GError */

typedef void (*method_call_fn)(void *, const char *, const char *, const char *, const char *,
                               void *, void *, void *);
typedef struct {
  method_call_fn method_call;
  void *get_property;
  void *set_property;
  void *padding[8];
} bus_vtable; /* GDBusInterfaceVTable */

static struct {
  void *(*bus_get_sync)(int, void *, bus_error **);
  void *(*node_info_new_for_xml)(const char *, bus_error **);
  void *(*node_info_lookup_interface)(void *, const char *);
  unsigned (*register_object)(void *, const char *, void *, const bus_vtable *, void *,
                              void (*)(void *), bus_error **);
  unsigned (*own_name_on_connection)(void *, const char *, int,
                                     void (*)(void *, const char *, void *),
                                     void (*)(void *, const char *, void *), void *,
                                     void (*)(void *));
  void *(*main_loop_new)(void *, int);
  void (*main_loop_run)(void *);
  void (*main_loop_quit)(void *);
  unsigned (*unix_signal_add)(int, int (*)(void *), void *);
  void (*variant_get)(void *, const char *, ...);
  void *(*variant_new)(const char *, ...);
  void *(*variant_get_child_value)(void *, size_t);
  size_t (*variant_n_children)(void *);
  const char *(*variant_get_type_string)(void *);
  const char *(*variant_get_string)(void *, size_t *);
  void (*variant_unref)(void *);
  void (*return_value)(void *, void *);
  void (*return_dbus_error)(void *, const char *, const char *);
  void *(*connection_call_sync)(void *, const char *, const char *, const char *, const char *,
                                void *, const void *, int, int, void *, bus_error **);
  int (*emit_signal)(void *, const char *, const char *, const char *, const char *, void *,
                     bus_error **);
  unsigned (*signal_subscribe)(void *, const char *, const char *, const char *, const char *,
                               const char *, int,
                               void (*)(void *, const char *, const char *, const char *,
                                        const char *, void *, void *),
                               void *, void (*)(void *));
  void (*error_free)(bus_error *);
} g;

struct confetti_bus {
  void *connection;
  void *loop;
  char *path;
  char *interface;
  confetti_bus_handler handler;
  confetti_bus_gone_handler gone;
  void *context;
  int lost;
  int acquired;
};

static char *say(const char *what, bus_error *error) {
  char *message = NULL;
  if (asprintf(&message, "%s%s%s", what, error ? ": " : "", error ? error->message : "") < 0)
    message = NULL;
  if (error) g.error_free(error);
  return message;
}

static int load(char **error) {
  static void *gio;
  if (gio) return 1;
  void *library = dlopen("libgio-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    *error = say("cannot load GLib's GIO (libgio-2.0.so.0), which the session service talks "
                 "to the bus with; install libglib2.0-0", NULL);
    return 0;
  }
  struct { void **slot; const char *name; } symbols[] = {
      {(void **)&g.bus_get_sync, "g_bus_get_sync"},
      {(void **)&g.node_info_new_for_xml, "g_dbus_node_info_new_for_xml"},
      {(void **)&g.node_info_lookup_interface, "g_dbus_node_info_lookup_interface"},
      {(void **)&g.register_object, "g_dbus_connection_register_object"},
      {(void **)&g.own_name_on_connection, "g_bus_own_name_on_connection"},
      {(void **)&g.main_loop_new, "g_main_loop_new"},
      {(void **)&g.main_loop_run, "g_main_loop_run"},
      {(void **)&g.main_loop_quit, "g_main_loop_quit"},
      {(void **)&g.unix_signal_add, "g_unix_signal_add"},
      {(void **)&g.variant_get, "g_variant_get"},
      {(void **)&g.variant_new, "g_variant_new"},
      {(void **)&g.variant_get_child_value, "g_variant_get_child_value"},
      {(void **)&g.variant_n_children, "g_variant_n_children"},
      {(void **)&g.variant_get_type_string, "g_variant_get_type_string"},
      {(void **)&g.variant_get_string, "g_variant_get_string"},
      {(void **)&g.variant_unref, "g_variant_unref"},
      {(void **)&g.return_value, "g_dbus_method_invocation_return_value"},
      {(void **)&g.return_dbus_error, "g_dbus_method_invocation_return_dbus_error"},
      {(void **)&g.connection_call_sync, "g_dbus_connection_call_sync"},
      {(void **)&g.emit_signal, "g_dbus_connection_emit_signal"},
      {(void **)&g.signal_subscribe, "g_dbus_connection_signal_subscribe"},
      {(void **)&g.error_free, "g_error_free"},
  };
  for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
    *symbols[i].slot = dlsym(library, symbols[i].name);
    if (!*symbols[i].slot) {
      char what[160];
      snprintf(what, sizeof what, "GLib's GIO lacks %s: it is older than 2.58", symbols[i].name);
      *error = say(what, NULL);
      dlclose(library);
      return 0;
    }
  }
  gio = library;
  return 1;
}

/* One a{sv} entry's value, read as its type allows. */
static void read_option(void *value, confetti_bus_option *option) {
  const char *type = g.variant_get_type_string(value);
  option->type = type;
  switch (type[1] == 0 ? type[0] : 0) {
  case 'y': { unsigned char v; g.variant_get(value, "y", &v); option->integer = v; break; }
  case 'n': { int16_t v; g.variant_get(value, "n", &v); option->integer = v; break; }
  case 'q': { uint16_t v; g.variant_get(value, "q", &v); option->integer = v; break; }
  case 'i': { int32_t v; g.variant_get(value, "i", &v); option->integer = v; break; }
  case 'u': { uint32_t v; g.variant_get(value, "u", &v); option->integer = v; break; }
  case 'x': { int64_t v; g.variant_get(value, "x", &v); option->integer = v; break; }
  case 't': {
    uint64_t v;
    g.variant_get(value, "t", &v);
    option->unsigned_integer = v;
    option->is_large_unsigned = v > (uint64_t)INT64_MAX;
    option->integer = option->is_large_unsigned ? 0 : (int64_t)v;
    break;
  }
  case 'b': { int v; g.variant_get(value, "b", &v); option->integer = v != 0; break; }
  case 'd': { double v; g.variant_get(value, "d", &v); option->number = v; break; }
  case 's': option->text = g.variant_get_string(value, NULL); break;
  default: break;
  }
}

static void method_call(void *connection, const char *sender, const char *path,
                        const char *interface, const char *method, void *parameters,
                        void *invocation, void *user_data) {
  (void)path;
  (void)interface;
  struct confetti_bus *bus = user_data;
  confetti_bus_call call = {.invocation = invocation, .method = method, .sender = sender};
  /* Who calls: the bus daemon knows each connection's user. */
  void *uid = g.connection_call_sync(
      connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
      "GetConnectionUnixUser", g.variant_new("(s)", sender), "(u)", 0, 5000, NULL, NULL);
  if (uid) {
    g.variant_get(uid, "(u)", &call.sender_uid);
    call.sender_uid_known = 1;
    g.variant_unref(uid);
  }
  /* (s a{sv}) calls: the text and the options; GDBus has checked the signature against the
   * interface already. */
  void *text = NULL, *options = NULL;
  confetti_bus_option *read = NULL;
  void **values = NULL;
  size_t count = 0;
  const char *shape = g.variant_get_type_string(parameters);
  if (strcmp(shape, "(u)") == 0) g.variant_get(parameters, "(u)", &call.number);
  if (strcmp(shape, "(sa{sv})") == 0) {
    text = g.variant_get_child_value(parameters, 0);
    options = g.variant_get_child_value(parameters, 1);
    call.text = g.variant_get_string(text, NULL);
    count = g.variant_n_children(options);
    read = calloc(count ? count : 1, sizeof *read);
    values = calloc(count ? count : 1, sizeof *values);
    if (!read || !values) count = 0;
    for (size_t i = 0; i < count; i++) {
      void *entry = g.variant_get_child_value(options, i);
      void *key = g.variant_get_child_value(entry, 0);
      void *boxed = g.variant_get_child_value(entry, 1);
      g.variant_get(boxed, "v", &values[i]);
      read[i].key = g.variant_get_string(key, NULL);
      read_option(values[i], &read[i]);
      /* The key's and the value's strings live as long as the options do. */
      g.variant_unref(boxed);
      g.variant_unref(key);
      g.variant_unref(entry);
    }
    call.options = read;
    call.option_count = (int)count;
  }
  bus->handler(&call, bus->context);
  for (size_t i = 0; i < count; i++) g.variant_unref(values[i]);
  free(values);
  free(read);
  if (text) g.variant_unref(text);
  if (options) g.variant_unref(options);
}

static void acquired(void *connection, const char *name, void *user_data) {
  (void)connection;
  (void)name;
  ((struct confetti_bus *)user_data)->acquired = 1;
}

static void lost(void *connection, const char *name, void *user_data) {
  (void)name;
  struct confetti_bus *bus = user_data;
  /* No connection: the bus closed it (the session ended, the bus daemon stopped). */
  bus->lost = connection ? 1 : 2;
  g.main_loop_quit(bus->loop);
}

/* NameOwnerChanged (s name, s old owner, s new owner): a unique name with no new owner has
 * left the bus. */
static void owner_changed(void *connection, const char *sender, const char *path,
                          const char *interface, const char *signal, void *parameters,
                          void *user_data) {
  (void)connection, (void)sender, (void)path, (void)interface, (void)signal;
  struct confetti_bus *bus = user_data;
  const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
  if (strcmp(g.variant_get_type_string(parameters), "(sss)") != 0) return;
  g.variant_get(parameters, "(&s&s&s)", &name, &old_owner, &new_owner);
  if (name[0] == ':' && new_owner[0] == 0) bus->gone(name, bus->context);
}

static int quit(void *user_data) {
  g.main_loop_quit(((struct confetti_bus *)user_data)->loop);
  return 0; /* G_SOURCE_REMOVE */
}

static const bus_vtable vtable = {.method_call = method_call};

confetti_bus *confetti_bus_open(const char *name, const char *path, const char *xml,
                                const char *interface, confetti_bus_handler handler,
                                confetti_bus_gone_handler gone, void *context, char **error) {
  *error = NULL;
  if (!load(error)) return NULL;
  bus_error *failure = NULL;
  const char *address = getenv("DBUS_SESSION_BUS_ADDRESS");
  if (!address || !*address) {
    /* GDBus would try X11's autolaunch, which starts a bus nobody else uses. */
    *error = say("no session bus: DBUS_SESSION_BUS_ADDRESS is not set; run it in your desktop "
                 "session (or under dbus-run-session)", NULL);
    return NULL;
  }
  void *connection = g.bus_get_sync(2 /* G_BUS_TYPE_SESSION */, NULL, &failure);
  if (!connection) {
    *error = say("cannot connect to the session bus", failure);
    return NULL;
  }
  void *node = g.node_info_new_for_xml(xml, &failure);
  if (!node) {
    *error = say("the service's interface does not parse", failure);
    return NULL;
  }
  struct confetti_bus *bus = calloc(1, sizeof *bus);
  if (!bus) {
    *error = say("out of memory", NULL);
    return NULL;
  }
  bus->connection = connection;
  bus->path = strdup(path);
  bus->interface = strdup(interface);
  bus->handler = handler;
  bus->gone = gone;
  bus->context = context;
  bus->loop = g.main_loop_new(NULL, 0);
  void *info = g.node_info_lookup_interface(node, interface);
  if (!info || !g.register_object(connection, path, info, &vtable, bus, NULL, &failure)) {
    *error = say("cannot export the service's object", failure);
    return NULL;
  }
  /* Callers that leave, from the bus daemon itself. */
  g.signal_subscribe(connection, "org.freedesktop.DBus", "org.freedesktop.DBus",
                     "NameOwnerChanged", "/org/freedesktop/DBus", NULL, 0, owner_changed, bus,
                     NULL);
  /* G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE: another owner means this one is not needed. */
  g.own_name_on_connection(connection, name, 4, acquired, lost, bus, NULL);
  return bus;
}

int confetti_bus_run(confetti_bus *bus, char **error) {
  *error = NULL;
  g.unix_signal_add(SIGTERM, quit, bus);
  g.unix_signal_add(SIGINT, quit, bus);
  g.unix_signal_add(SIGHUP, quit, bus);
  g.main_loop_run(bus->loop);
  if (bus->lost == 2) {
    *error = say("the session bus went away (the session ended, or its bus stopped)", NULL);
    return 1;
  }
  if (bus->lost) {
    *error = say(bus->acquired ? "the service's name on the session bus was taken from it"
                               : "another program owns the service's name on the session bus "
                                 "already (a confetti service running?)",
                 NULL);
    return 1;
  }
  return 0;
}

void confetti_bus_reply_u32(void *invocation, uint32_t value) {
  g.return_value(invocation, g.variant_new("(u)", value));
}

void confetti_bus_reply_empty(void *invocation) { g.return_value(invocation, NULL); }

void confetti_bus_reply_error(void *invocation, const char *name, const char *message) {
  g.return_dbus_error(invocation, name, message);
}

void confetti_bus_emit_u32(confetti_bus *bus, const char *signal, uint32_t value) {
  g.emit_signal(bus->connection, NULL, bus->path, bus->interface, signal,
                g.variant_new("(u)", value), NULL);
}
