#define _GNU_SOURCE
#include "CSandbox.h"

#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stddef.h>
#include <sys/socket.h>

// A deny-list, not an allow-list: the child loads what the system's configuration names (NSS
// modules, gconv converters, OpenSSL providers, image loaders), whose system calls no test here
// can enumerate, and a call missing from an allow-list would break a reload on somebody's desktop.
// What is denied is what a parser taken over would use to reach beyond the child: other processes,
// the system's own state, kernel surfaces a parser never needs, new namespaces and new programs.
// Each fails with EPERM, so a library that merely probes for one carries on.
static const char *const denied[] = {
    "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp", "process_madvise",
    "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen", "fsconfig",
    "fsmount", "fspick", "mount_setattr",
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load", "reboot",
    "swapon", "swapoff", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "acct",
    "quotactl", "quotactl_fd", "sethostname", "setdomainname", "syslog", "ioperm", "iopl", "vhangup",
    "lookup_dcookie", "nfsservctl", "uselib", "personality",
    "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "keyctl", "add_key", "request_key", "open_by_handle_at", "name_to_handle_at", "fanotify_init",
    "unshare", "setns", "execve", "execveat",
};

// The namespaces clone(2) could make.
static const unsigned long namespace_flags[] = {
    CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET,
};

// The families the child needs: the resolver's local sockets (nscd, systemd-resolved), IPv4 and
// IPv6, and netlink, which getaddrinfo asks for the machine's addresses.
static int family_allowed(int family) {
    return family == AF_UNIX || family == AF_INET || family == AF_INET6 || family == AF_NETLINK;
}

static int add_rules(scmp_filter_ctx ctx) {
    int rc;
    for (size_t i = 0; i < sizeof denied / sizeof denied[0]; i++) {
        int call = seccomp_syscall_resolve_name(denied[i]);
        if (call == __NR_SCMP_ERROR) continue;    // not a system call of this architecture
        if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), call, 0)) != 0) return rc;
    }
    for (size_t i = 0; i < sizeof namespace_flags / sizeof namespace_flags[0]; i++) {
        unsigned long flag = namespace_flags[i];
        if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                                   SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag))) != 0) return rc;
    }
    // clone3 passes its flags in memory, out of a filter's sight. ENOSYS makes glibc's
    // pthread_create fall back to clone(2), whose flags the rules above see.
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0)) != 0) return rc;
    for (int family = 0; family < AF_MAX; family++) {
        if (family_allowed(family)) continue;
        if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
                                   SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)family))) != 0) return rc;
    }
    return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
                            SCMP_A0(SCMP_CMP_GE, (scmp_datum_t)AF_MAX));
}

int csb_seccomp_restrict(void) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (ctx == NULL) return ENOMEM;
    // Another architecture's system call numbers (x32, i386 through int 0x80) would slip past
    // every rule above: they end the process instead.
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    // Every thread, should the process have more than one by now.
    if (rc == 0) rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
    if (rc == 0) rc = add_rules(ctx);
    if (rc == 0) rc = seccomp_load(ctx);
    seccomp_release(ctx);
    return rc < 0 ? -rc : rc;
}
