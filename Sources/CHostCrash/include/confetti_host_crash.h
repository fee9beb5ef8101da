/* libconfetti's constructor (keep_swift_backtrace_out.c) has nothing to call: this header only
 * makes the target a C module. */
#ifndef CONFETTI_HOST_CRASH_H
#define CONFETTI_HOST_CRASH_H
#endif
