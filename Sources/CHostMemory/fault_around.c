// Why the host turns off the kernel's fault-around for its code (issue 14).
//
// When a process first touches a page of a file it has mapped (its binary, libc, GLib), the kernel
// maps that page and, if they are in the page cache, up to 15 neighbours in the same 64 KiB
// window ("fault-around", mm/memory.c). For a big program that is mostly a win; for the idle host
// it is most of its RSS: the host runs about 0.8 MB of its 9 MB of code, spread over almost every
// window of libswiftCore's single 1.6 MB text section and of libc, GIO and GLib, so RSS counted
// 3.7 MB of our own text and about twice what it runs of the libraries. make bench showed it:
// idle host 12.3 MB with fault-around, 9.0 MB without.
//
// No madvise turns it off (MADV_RANDOM does not, measured on 6.18). What does is documented
// kernel behaviour: a mapping registered with userfaultfd for write-protect tracking never
// faults around (uffd_disable_fault_around), and with UFFD_FEATURE_WP_ASYNC (Linux 6.7) the
// kernel resolves any write-protect fault itself, so no thread has to serve the descriptor. We
// never write-protect a page, so the registration changes nothing but fault-around. The pages
// stay in the page cache; the host simply stops mapping the ones it never runs.
//
// Only private mappings of the ELF objects already loaded (the files that have an executable
// mapping) are registered, never a shared mapping and never anonymous memory (which has no
// fault-around). The descriptor stays open for the life of the process: closing it would undo
// the registration. It is close-on-exec, and a forked child does not inherit the registration.
// Without the kernel's support every step fails cleanly and the host runs exactly as before.
#define _GNU_SOURCE
#include "CHostMemory.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif
#ifndef UFFD_FEATURE_WP_ASYNC
#define UFFD_FEATURE_WP_ASYNC (1 << 15)  // Linux 6.7; Debian 12's headers predate it
#endif

enum { MAX_MAPPINGS = 512, MAPS_LIMIT = 256 * 1024 };

struct mapping { unsigned long start, end; char perms[5]; const char *path; };

static int userfault_fd = -1;

// Reads /proc/self/maps whole (procfs, so bounded by the process's own mappings; cut at 256 KiB).
static char *read_own_maps(void) {
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    char *buffer = malloc(MAPS_LIMIT + 1);
    size_t used = 0;
    while (buffer && used < MAPS_LIMIT) {
        ssize_t n = read(fd, buffer + used, MAPS_LIMIT - used);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        used += (size_t)n;
    }
    close(fd);
    if (buffer) buffer[used] = '\0';
    return buffer;
}

static int parse_maps(char *text, struct mapping *out) {
    int count = 0;
    for (char *line = strtok(text, "\n"); line && count < MAX_MAPPINGS; line = strtok(NULL, "\n")) {
        struct mapping m = {0};
        int path_at = 0;
        if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %n", &m.start, &m.end, m.perms, &path_at) < 3) continue;
        if (path_at <= 0 || line[path_at] != '/') continue;  // anonymous, [heap], [vdso], ...
        m.path = line + path_at;
        out[count++] = m;
    }
    return count;
}

static int is_loaded_object(const struct mapping *all, int count, const char *path) {
    for (int i = 0; i < count; i++)
        if (all[i].perms[2] == 'x' && strcmp(all[i].path, path) == 0) return 1;
    return 0;
}

int chm_map_only_touched_pages(void) {
    if (userfault_fd >= 0) return 0;
    int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
    if (fd < 0 && errno == EINVAL) fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return -errno;
    struct uffdio_api api = { .api = UFFD_API, .features = UFFD_FEATURE_WP_ASYNC };
    if (ioctl(fd, UFFDIO_API, &api) != 0) { int e = errno; close(fd); return -e; }

    char *text = read_own_maps();
    struct mapping *all = malloc(sizeof(struct mapping) * MAX_MAPPINGS);
    if (!text || !all) { free(text); free(all); close(fd); return -ENOMEM; }
    int count = parse_maps(text, all), registered = 0;
    for (int i = 0; i < count; i++) {
        if (all[i].perms[3] != 'p' || !is_loaded_object(all, count, all[i].path)) continue;
        struct uffdio_register r = {
            .range = { .start = all[i].start, .len = all[i].end - all[i].start },
            .mode = UFFDIO_REGISTER_MODE_WP,
        };
        if (ioctl(fd, UFFDIO_REGISTER, &r) == 0) registered++;
    }
    free(text);
    free(all);
    if (registered == 0) { close(fd); return -ENOTSUP; }
    userfault_fd = fd;
    return registered;
}
