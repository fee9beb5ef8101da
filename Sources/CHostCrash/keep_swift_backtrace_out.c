/* What libconfetti does as it is loaded into a process (a C, C++ or Python host, or the confetti
 * program, which is linked against it): it keeps Swift's own crash handler out, and tells Swift's
 * runtime the process's arguments.
 *
 * Swift's runtime, linked into the library, would otherwise install that handler for the whole
 * process, and a crash of the host's own, on a terminal, would wait there 30 s at "Press space
 * to interact…". The program replaces the handler with its own (CCrash), and takes the setting
 * out of its environment again, so that the commands it runs (confetti run -- swift build) keep
 * theirs.
 *
 * The runtime finds the arguments from where the environment started, which setenv() moves
 * (CommandLine.arguments came out empty): the constructor, given them by the C library, hands
 * them over first. */
#include <stdlib.h>

#include "confetti_host_crash.h"

/* The runtime's own entry for arguments found another way (Swift's stdlib, CommandLine.cpp). */
extern void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc);

int libconfetti_set_swift_backtrace;

/* Before Swift's runtime reads SWIFT_BACKTRACE: a constructor of priority 101 runs before those
 * of default priority in the same library. A value the host set is kept. */
__attribute__((constructor(101))) static void confetti_keep_swift_backtrace_out(
    int argc, char **argv, char **environment) {
  (void)environment;
  if (argv != NULL && argc > 0) _swift_stdlib_overrideUnsafeArgvArgc(argv, argc);
  if (getenv("SWIFT_BACKTRACE") == NULL) {
    setenv("SWIFT_BACKTRACE", "enable=no", 0);
    libconfetti_set_swift_backtrace = 1;
  }
}
