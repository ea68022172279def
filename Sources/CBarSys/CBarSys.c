#define _GNU_SOURCE
#include "CBarSys.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int cbs_inotify_init(void) { return inotify_init1(IN_NONBLOCK | IN_CLOEXEC); }

int cbs_watch_runtime_dir(int fd, const char *path) {
    // IN_MODIFY: a host writes its PID into host.lock and keeps the file open (for the flock), so
    // no close-after-write comes.
    return inotify_add_watch(fd, path, IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_MODIFY |
                             IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_DONT_FOLLOW | IN_ONLYDIR);
}

int cbs_watch_bar_dir(int fd, const char *path) {
    return inotify_add_watch(fd, path, IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_CREATE | IN_ATTRIB |
                             IN_DELETE_SELF | IN_MOVE_SELF | IN_DONT_FOLLOW | IN_ONLYDIR);
}

int cbs_watch_parent_dir(int fd, const char *path) {
    return inotify_add_watch(fd, path, IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR);
}

static int named(const struct inotify_event *e, const char *name) {
    return e->len > 0 && strcmp(e->name, name) == 0;
}

int cbs_inotify_drain(int fd, int parent_wd, int dir_wd, int bar_wd, const char *folder, const char *variant) {
    // Aligned as inotify(7) asks; large enough for many events per read.
    char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
    int flags = 0;
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) return flags;
            return -1;
        }
        if (n == 0) return flags;
        for (char *p = buf; p < buf + n;) {
            const struct inotify_event *e = (const struct inotify_event *)p;
            p += sizeof *e + e->len;
            if (e->mask & IN_Q_OVERFLOW) { flags |= CBS_VARIANT_CHANGED | CBS_LAYOUT_CHANGED | CBS_LOCK_CHANGED; continue; }
            if (e->wd == parent_wd) {
                if (named(e, folder)) flags |= CBS_LAYOUT_CHANGED;
            } else if (e->wd == dir_wd) {
                if (e->len == 0) flags |= CBS_LAYOUT_CHANGED;            // the folder itself: gone, moved, chmod
                else if (named(e, "bar")) flags |= CBS_LAYOUT_CHANGED;
                else if (named(e, "host.lock")) flags |= CBS_LOCK_CHANGED;
            } else if (e->wd == bar_wd) {
                if (e->len == 0) flags |= CBS_LAYOUT_CHANGED;
                else if (named(e, variant)) flags |= CBS_VARIANT_CHANGED;
            }
            if (e->mask & IN_IGNORED) flags |= CBS_LAYOUT_CHANGED;      // a watch went away with its folder
        }
    }
}

int cbs_open_nofollow(const char *path) { return open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK); }

int cbs_open_private(const char *path) {
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != getuid()) { close(fd); return -1; }
    return fd;
}

int cbs_mkdir_private(const char *path) { return mkdir(path, 0700); }

int cbs_set_nonblock(int fd) {
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0) return -1;
    return fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int cbs_try_shared_lock(int fd) { return flock(fd, LOCK_SH | LOCK_NB); }

int cbs_unlock(int fd) { return flock(fd, LOCK_UN); }

int cbs_set_parent_death_signal(int sig) { return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0UL, 0UL, 0UL); }

pid_t cbs_spawn(const char *path, char *const argv[], char *const envp[]) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    sigset_t none, defaults;
    pid_t pid = -1;
    int err;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
    // stdout is the bar's pipe: a child writing there would corrupt its lines and keep it open.
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);   // we ignore it; an ignored disposition survives exec
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    err = posix_spawn(&pid, path, &actions, &attr, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (err != 0) { errno = err; return -1; }
    return pid;
}

pid_t cbs_reap(pid_t pid, int *exited_ok) {
    int status = 0;
    pid_t r;
    do { r = waitpid(pid, &status, WNOHANG); } while (r < 0 && errno == EINTR);
    if (r > 0 && exited_ok) *exited_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return r;
}

int64_t cbs_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
