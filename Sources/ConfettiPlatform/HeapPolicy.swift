import CMalloc

/// How the program asks the C allocator to treat freed memory (the program's choice, made as
/// it starts).
package enum HeapPolicy {
  /// Blocks up to this size come from the heap rather than fresh mappings: 32 MiB, glibc's
  /// largest.
  package static let largestFromHeap: Int32 = 32 << 20
  /// Freed heap the allocator keeps instead of handing back to the system: 256 MiB.
  package static let keptFreeBytes: Int32 = 256 << 20

  /// A software GL (Mesa's llvmpipe, the GL of machines without a GPU) allocates its buffers for
  /// a frame's vertices and bins afresh every frame. By default glibc hands freed memory back
  /// to the system, and the next frame faults every page of it in again: measured on llvmpipe at
  /// 100,000 pieces, a fifth of each frame. Kept, the program's memory stays at its peak instead
  /// of rising and falling every frame. Returns false where the C library does not take the
  /// setting, which costs only that speed. Only the program calls it: the library leaves the
  /// allocator alone, which is its host's choice (see the README).
  @discardableResult
  package static func keepFreedMemory() -> Bool {
    confetti_keep_freed_heap(largestFromHeap, keptFreeBytes) == 1
  }
}
