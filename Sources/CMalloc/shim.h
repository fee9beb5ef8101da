/* glibc's allocator, for the program's heap policy (HeapPolicy.swift). */
#include <malloc.h>

/* Serves blocks up to `largest_mapped` bytes from the heap instead of mapping each afresh, and
   keeps up to `kept` bytes of freed memory at the top of the heap instead of handing it back
   to the system. (Setting either turns off glibc's own sliding of the mapping threshold, so
   both are set.) Returns 1 when the allocator took both, 0 otherwise (another C library). */
static inline int confetti_keep_freed_heap(int largest_mapped, int kept) {
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
  return mallopt(M_MMAP_THRESHOLD, largest_mapped) == 1 && mallopt(M_TRIM_THRESHOLD, kept) == 1;
#else
  (void)largest_mapped;
  (void)kept;
  return 0;
#endif
}
