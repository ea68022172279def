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

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>

// Marks every descriptor above 2 close-on-exec (close_range's CLOSE_RANGE_CLOEXEC, Linux 5.11;
// on older kernels, one fcntl per entry of /proc/self/fd): what a process inherited stays usable
// in it and reaches no program it starts.
static inline void headlines_glib_cloexec_inherited(void) {
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
    if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
    DIR *dir = opendir("/proc/self/fd");
    if (!dir) return;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        int fd = atoi(entry->d_name);
        if (fd > 2 && fd != dirfd(dir)) fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
    }
    closedir(dir);
}
