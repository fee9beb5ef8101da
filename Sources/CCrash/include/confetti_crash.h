/* What a crash of the program does: crash_handler.c. */
#ifndef CONFETTI_CRASH_H
#define CONFETTI_CRASH_H

#include <stddef.h>

/* Installs the program's crash handlers (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT) in
 * place of Swift's: the terminal is given back (confetti_crash_gives_back), one line says
 * `program` crashed and a short backtrace follows on standard error, and the process ends by the
 * same signal (a core dump where the system keeps one). */
void confetti_crash_handlers_install(const char *program);

/* What giving the terminal back takes: `count` bytes written to `output` (at most 256) and,
 * where `input` is 0 or more, `mode` (a struct termios) set on it. Copied. */
void confetti_crash_gives_back(int output, const void *bytes, size_t count, int input,
                               const void *mode);

/* Nothing to give back (the terminal was given back as it should be). */
void confetti_crash_gives_back_nothing(void);

/* Gives the terminal back now, if it was borrowed: from a crash handler, or a thread about to
 * end the process. Safe in a signal handler; never waits on a terminal that reads nothing. */
void confetti_give_back_terminal_now(void);

#endif
