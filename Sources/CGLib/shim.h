// GLib alone (no GIO, no libnotify): what HeadlinesGLib needs.
#include <glib.h>
#include <sys/prctl.h>
#include <malloc.h>

// prctl is variadic, which Swift cannot call: the one use, as a plain function.
static inline int headlines_glib_set_parent_death_signal(int sig) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0UL, 0UL, 0UL);
}

// One malloc arena for every thread of the process (glibc's malloc.h is not in Swift's Glibc module).
static inline int headlines_glib_single_malloc_arena(void) {
    return mallopt(M_ARENA_MAX, 1);
}

// Freed heap memory back to the kernel, wherever in the heap it lies.
static inline int headlines_glib_return_freed_memory(void) {
    return malloc_trim(0);
}
