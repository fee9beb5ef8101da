/* libconfetti's constructor (keep_swift_backtrace_out.c). */
#ifndef CONFETTI_HOST_CRASH_H
#define CONFETTI_HOST_CRASH_H

/* 1 when the library set SWIFT_BACKTRACE as it was loaded (the host had not). */
extern int libconfetti_set_swift_backtrace;

#endif
