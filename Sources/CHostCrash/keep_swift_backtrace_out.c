/* What libconfetti does as it is loaded into a host (a C, C++ or Python program): it keeps
 * Swift's own crash handler out of it. Swift's runtime, linked into the library, would
 * otherwise install that handler for the whole process, and a crash of the host's own, on a
 * terminal, would wait there 30 s at "Press space to interact…".
 *
 * Not linked into the program: Swift's runtime there finds the program's arguments from where
 * the environment started, which setenv() moves (CommandLine.arguments came out empty). The
 * program replaces the handler with its own instead (CCrash). */
#include <stdlib.h>

/* Before Swift's runtime reads SWIFT_BACKTRACE: a constructor of priority 101 runs before those
 * of default priority in the same file. A value the host set is kept. */
__attribute__((constructor(101))) static void confetti_keep_swift_backtrace_out(void) {
  if (getenv("SWIFT_BACKTRACE") == NULL) setenv("SWIFT_BACKTRACE", "enable=no", 0);
}
