/* glibc's allocator, for the program's heap policy (HeapPolicy.swift). */
#include <malloc.h>

/* Keeps up to `bytes` of freed memory at the top of the heap instead of handing it back to the
   system. Returns 1 on success. */
static inline int confetti_keep_freed_heap(int bytes) {
  return mallopt(M_TRIM_THRESHOLD, bytes);
}
