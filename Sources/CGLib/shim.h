// GLib alone (no GIO, no libnotify): what HeadlinesGLib needs, which the static reload child
// (headlines-fetch) links as well as every other program.
#include <glib.h>
#include <sys/prctl.h>

// prctl is variadic, which Swift cannot call: the one use, as a plain function.
static inline int headlines_glib_set_parent_death_signal(int sig) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0UL, 0UL, 0UL);
}

#include <linux/memfd.h>
#include <sys/syscall.h>
#include <unistd.h>

// An anonymous file, kept across exec (memfd_create, Linux 3.17; glibc declares it only under
// _GNU_SOURCE, which Swift's Glibc module is not built with): how the reload child hands its
// report to the image step it execs, on that step's stdin. -1 with errno set on failure.
static inline int headlines_glib_memfd(const char *name) {
    return (int)syscall(SYS_memfd_create, name, 0U);
}
