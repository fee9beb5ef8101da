/* Linux's process controls, for confetti run's overlay (RunCommand.swift), celebrations
   (Celebration.swift) and render's ffmpeg (VideoWriter.swift). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/* Whether signal `number` was ignored when the program started, as it may be: nohup ignores
   SIGHUP, and a shell script's background jobs start with SIGINT and SIGQUIT ignored. */
static inline int confetti_signal_is_ignored(int number) {
  struct sigaction current;
  return sigaction(number, NULL, &current) == 0 && current.sa_handler == SIG_IGN;
}

/* Why a child's end cannot be waited for in this process, or NULL where it can: with SIGCHLD
   ignored, the kernel reaps every child as it ends, and its exit status is lost. */
static inline const char *confetti_children_unwaitable(void) {
  return confetti_signal_is_ignored(SIGCHLD)
             ? "this process ignores SIGCHLD, so its children's ends are lost; give SIGCHLD its "
               "default action first (signal(SIGCHLD, SIG_DFL))"
             : NULL;
}

/* Asks the kernel to send this process SIGTERM when its parent ends, even by SIGKILL: the
   celebration of a `confetti run` that was killed ends with it. Returns 0, or -1 (errno). */
static inline int confetti_end_with_parent(void) {
  return prctl(PR_SET_PDEATHSIG, SIGTERM);
}

/* The file of the program or shared library that holds `address` (pass the caller's
   #dsohandle), or NULL: where a library finds the programs installed beside it. */
static inline const char *confetti_file_holding(const void *address) {
  Dl_info info;
  return dladdr(address, &info) != 0 ? info.dli_fname : NULL;
}

/* A waited-for child's status (waitpid's) as a shell gives it: its exit code, or 128 + the
   signal that ended it. */
static inline int confetti_exit_status(int status) {
  int signal = status & 0x7f;
  return signal == 0 ? (status >> 8) & 0xff : 128 + signal;
}

/* A pipe whose two ends are closed in programs this one starts (a child gets only the end it is
   given, by dup2). Returns 0, or -1 (errno). */
static inline int confetti_private_pipe(int fds[2]) {
  return pipe2(fds, O_CLOEXEC);
}

/* glibc's (2.34 and later), which spawn.h declares only under _GNU_SOURCE: this module does not
   include spawn.h, whose sys/select.h under _GNU_SOURCE defines fd_set unlike the system
   modules' (Dispatch's) and breaks the build. `actions` is a posix_spawn_file_actions_t. */
extern int posix_spawn_file_actions_addclosefrom_np(void *actions, int from);

/* Adds to `actions` (a posix_spawn_file_actions_t) the closing of every descriptor from
   `lowest` up in the started program: it keeps only those it was given. Returns 0, or an
   error number. */
static inline int confetti_spawn_closes_from(void *actions, int lowest) {
  return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

/* Whether a write to standard output has failed since it was opened (its error flag): a write
   that failed while the buffer was being emptied along the way leaves nothing for the final
   fflush to report. */
static inline int confetti_standard_output_failed(void) {
  return ferror(stdout);
}

/* Writes out what standard output holds: 0, or EOF when it could not (errno says why). */
static inline int confetti_flush_standard_output(void) {
  return fflush(stdout);
}

/* Drops what standard output holds unwritten and its error flag: a report that could not be
   written is given up, not reported again at exit. */
static inline void confetti_discard_standard_output(void) {
  __fpurge(stdout);
  clearerr(stdout);
}

/* A descriptor that stands for process `pid` until it is closed (Linux 5.3's pidfd): a signal
   sent through it reaches that process or none, never one that took its number since. Returns
   the descriptor, or -1 (errno). */
static inline int confetti_process_descriptor(pid_t pid) {
  return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* Sends `signal` to the process `descriptor` stands for. Returns 0, or -1 (errno). */
static inline int confetti_signal_process(int descriptor, int signal) {
  return (int)syscall(SYS_pidfd_send_signal, descriptor, signal, NULL, 0);
}
