import CMalloc

/// How the program asks the C allocator to treat freed memory.
enum HeapPolicy {
  /// Freed heap the allocator keeps instead of handing back to the system: 256 MiB.
  static let keptFreeBytes: Int32 = 256 << 20

  /// A software GL (Mesa's llvmpipe, the GL of machines without a GPU) allocates its buffers for
  /// a frame's vertices and bins afresh every frame. By default glibc hands the freed top of
  /// the heap back to the system each time, and the next frame faults every page of it in
  /// again: measured on llvmpipe at 100,000 pieces, a fifth of each frame. Keeping it, the
  /// program's memory stays at its peak instead of rising and falling every frame. The
  /// library leaves the allocator alone: that is its host's choice (see the README).
  static func keepFreedMemory() {
    _ = confetti_keep_freed_heap(keptFreeBytes)
  }
}
