// The few Linux calls headlines-bar needs that Swift's Glibc module does not export cleanly
// (inotify, posix_spawn's closefrom, variadic open/fcntl/prctl), so the static bar
// binary can be written in plain Swift on the stdlib and Glibc alone.
#ifndef CBARSYS_H
#define CBARSYS_H

#include <stdint.h>
#include <sys/types.h>

/// What one drain of the inotify queue saw (bit flags).
enum {
    CBS_VARIANT_CHANGED = 1,   // the watched bar file was renamed into place or closed after writing
    CBS_LAYOUT_CHANGED = 2,    // bar/ or the runtime folder appeared, went, moved or changed mode
    CBS_LOCK_CHANGED = 4,      // host.lock was written, created or removed
};

/// inotify_init1(IN_NONBLOCK | IN_CLOEXEC).
int cbs_inotify_init(void);
/// Watches the runtime folder for bar/ and host.lock coming and going, and for itself going.
int cbs_watch_runtime_dir(int fd, const char *path);
/// Watches bar/ for files renamed into place or written, and for itself going.
int cbs_watch_bar_dir(int fd, const char *path);
/// Watches $XDG_RUNTIME_DIR for the runtime folder going and (re)appearing. Needed even while
/// the folder exists: after `rm -rf` under a live host, the host's open host.lock pins the removed
/// folder's dentry, so the folder's own IN_DELETE_SELF does not come until the host exits.
int cbs_watch_parent_dir(int fd, const char *path);
/// Reads every pending event and sums them up as CBS_* flags; -1 on a read error.
/// `variant` is the bar file's base name; `folder` the runtime folder's base name.
int cbs_inotify_drain(int fd, int parent_wd, int dir_wd, int bar_wd, const char *folder, const char *variant);


/// open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK).
int cbs_open_nofollow(const char *path);
/// open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600): -1 unless it is a regular file of ours.
int cbs_open_private(const char *path);
/// mkdir(path, 0700) (the umask may only take bits away).
int cbs_mkdir_private(const char *path);
/// Adds O_NONBLOCK to an open descriptor.
int cbs_set_nonblock(int fd);
/// flock(fd, LOCK_SH | LOCK_NB): 0 when nobody holds it exclusively, -1 otherwise (errno).
int cbs_try_shared_lock(int fd);
/// flock(fd, LOCK_UN).
int cbs_unlock(int fd);
/// prctl(PR_SET_PDEATHSIG, sig).
int cbs_set_parent_death_signal(int sig);

/// posix_spawn of `path` with `argv`/`envp`: stdin and stdout on /dev/null, stderr inherited,
/// every other descriptor closed, SIGPIPE back to default and no signal blocked. Returns the
/// child's PID, or -1 with errno set.
pid_t cbs_spawn(const char *path, char *const argv[], char *const envp[]);

/// waitpid(pid, &status, WNOHANG); `exited_ok` is 1 for a normal exit with status 0.
pid_t cbs_reap(pid_t pid, int *exited_ok);

/// Monotonic milliseconds (CLOCK_MONOTONIC).
int64_t cbs_now_ms(void);

#endif
