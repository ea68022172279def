// The reload child's own sandbox: no_new_privs, Landlock, a seccomp filter. Each call acts on the
// calling thread and the threads it starts later, so the child calls them while it has one thread.
#ifndef CSANDBOX_H
#define CSANDBOX_H

/// prctl(PR_SET_NO_NEW_PRIVS): 0, or the errno.
int csb_no_new_privs(void);

/// The Landlock ABI the kernel offers (1 or more), or minus the errno: -ENOSYS for a kernel built
/// without it, -EOPNOTSUPP for one where it is turned off at boot.
int csb_landlock_abi(void);

/// Restricts the file system to `readable` (read files, list folders) and `writable` (read, create,
/// replace and remove files and folders below), nothing else: no execution anywhere, no TCP
/// listening (ABI 4) and no signals to processes outside the sandbox (ABI 6). A path that does not
/// exist is left out; on error `failed_path` points at the entry that failed (or is NULL).
/// Returns 0, or the errno.
int csb_landlock_restrict(int abi, const char *const *readable, int readable_count,
                          const char *const *writable, int writable_count, const char **failed_path);

/// Loads the seccomp filter. Returns 0, or the errno (libseccomp's negative codes made positive).
int csb_seccomp_restrict(void);

#endif
