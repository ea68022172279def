#define _GNU_SOURCE
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

// Debian 12's headers stop at ABI 2; the kernel may offer more, and its numbers never change.
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#define CSB_ACCESS_NET_BIND_TCP (1ULL << 0)
#define CSB_SCOPE_SIGNAL (1ULL << 1)

// The kernel's struct as of ABI 6; an older kernel is given only the fields it knows.
struct csb_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

// What a file (as opposed to a folder) can be granted.
static const uint64_t file_rights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |
    LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV;
static const uint64_t read_rights = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
// Atomic writes: a temporary file made, written, renamed over the old one; folders made below.
// No symbolic links, sockets, pipes or device nodes, and nothing executed.
static const uint64_t write_rights = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR |
    LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
    LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_REFER |
    LANDLOCK_ACCESS_FS_TRUNCATE;

int csb_no_new_privs(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? 0 : errno; }

int csb_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi >= 1 ? (int)abi : -errno;
}

static uint64_t handled_fs(int abi) {
    uint64_t fs = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;    // ABI 1: EXECUTE .. MAKE_SYM
    if (abi >= 2) fs |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) fs |= LANDLOCK_ACCESS_FS_TRUNCATE;
    if (abi >= 5) fs |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
    return fs;
}

// Adds `path` with `rights` (cut to what a file may hold when it is one). A path that cannot be
// opened is one this process could not reach anyway: it is left out.
static int add_path(int ruleset, const char *path, uint64_t rights, uint64_t handled) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return 0;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return e;
    }
    struct landlock_path_beneath_attr rule = {
        .allowed_access = rights & handled & (S_ISDIR(st.st_mode) ? ~0ULL : file_rights),
        .parent_fd = fd,
    };
    int status = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) == 0 ? 0 : errno;
    close(fd);
    return status;
}

int csb_landlock_restrict(int abi, const char *const *readable, int readable_count,
                          const char *const *writable, int writable_count, const char **failed_path) {
    *failed_path = NULL;
    struct csb_ruleset_attr attr = { .handled_access_fs = handled_fs(abi) };
    size_t size = offsetof(struct csb_ruleset_attr, handled_access_net);
    if (abi >= 4) {
        // Connecting is the child's job; listening never is.
        attr.handled_access_net = CSB_ACCESS_NET_BIND_TCP;
        size = offsetof(struct csb_ruleset_attr, scoped);
    }
    if (abi >= 6) {
        attr.scoped = CSB_SCOPE_SIGNAL;
        size = sizeof attr;
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (ruleset < 0) return errno;
    int status = 0;
    for (int i = 0; i < readable_count && status == 0; i++) {
        if ((status = add_path(ruleset, readable[i], read_rights, attr.handled_access_fs)) != 0) *failed_path = readable[i];
    }
    for (int i = 0; i < writable_count && status == 0; i++) {
        if ((status = add_path(ruleset, writable[i], write_rights, attr.handled_access_fs)) != 0) *failed_path = writable[i];
    }
    if (status == 0 && syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) status = errno;
    close(ruleset);
    return status;
}
