import CGLib

/// A burst of work (a reload's report decoded, the timeline and state files encoded) frees most of
/// what it allocated, but glibc gives back to the kernel only what lies at the top of the heap:
/// the freed chunks in between stay dirty pages of the process until they are used again, which
/// for an idle host is the next reload. `giveBack` returns them (malloc_trim) once such a burst is
/// over.
public enum FreedMemory {
    public static func giveBack() { _ = headlines_glib_return_freed_memory() }
}
