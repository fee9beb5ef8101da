/* The session bus for `confetti service`, through GLib's GDBus, which is loaded when the service
 * starts (dlopen of libgio-2.0.so.0): every other run of the program loads none of it. Names,
 * the interface and every message are the Swift side's (ConfettiService); this file only
 * carries calls and replies. */
#ifndef CONFETTI_SESSION_BUS_H
#define CONFETTI_SESSION_BUS_H

#include <stdint.h>

/* One entry of a call's a{sv} options: its key, its value's D-Bus type, and the value read as
 * that type allows (integers of any width in `integer`, or `unsigned_integer` for a `t` above
 * INT64_MAX; doubles in `number`; strings in `text`; booleans in `integer`). */
typedef struct confetti_bus_option {
  const char *key;
  const char *type;
  int64_t integer;
  uint64_t unsigned_integer;
  int is_large_unsigned;
  double number;
  const char *text;
} confetti_bus_option;

/* A method call, valid during the handler only (but `invocation`, which must be answered
 * once, from any thread, by confetti_bus_reply or confetti_bus_reply_error). */
typedef struct confetti_bus_call {
  void *invocation;
  const char *method;
  const char *sender;
  /* The caller's user, as the bus daemon knows it; known is 0 when the daemon did not say. */
  uint32_t sender_uid;
  int sender_uid_known;
  /* The arguments of a (s a{sv}) method: the string and the options. */
  const char *text;
  const confetti_bus_option *options;
  int option_count;
  /* The argument of a (u) method. */
  uint32_t number;
} confetti_bus_call;

typedef void (*confetti_bus_handler)(const confetti_bus_call *call, void *context);
/* Told a connection's unique name (":1.42") once it has left the bus: its calls will never
 * read an answer. */
typedef void (*confetti_bus_gone_handler)(const char *name, void *context);

typedef struct confetti_bus confetti_bus;

/* Loads GDBus, connects to the session bus, exports `interface` (described by the
 * introspection `xml`) at `path` and asks for `name` (not queued behind another owner).
 * NULL on failure, with a message in *error (free it with free()). */
confetti_bus *confetti_bus_open(
    const char *name, const char *path, const char *xml, const char *interface,
    confetti_bus_handler handler, confetti_bus_gone_handler gone, void *context, char **error);

/* Runs the bus until SIGTERM, SIGINT or SIGHUP (0), or until the name is lost or could not
 * be had (1, with a message in *error). */
int confetti_bus_run(confetti_bus *bus, char **error);

/* Answers a call with the variant `format` and one unsigned 32-bit value, such as "(u)". */
void confetti_bus_reply_u32(void *invocation, uint32_t value);
/* Answers a call that returns nothing. */
void confetti_bus_reply_empty(void *invocation);
/* Answers a call with an error: its D-Bus name and a one-line message. */
void confetti_bus_reply_error(void *invocation, const char *name, const char *message);
/* Emits `signal` with one unsigned 32-bit value, from any thread. */
void confetti_bus_emit_u32(confetti_bus *bus, const char *signal, uint32_t value);

#endif
