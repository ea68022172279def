/* The reload child's meter, for make bench's CPU and day figures: installed as `headlines-reload`
 * beside a copy of headlines-host, it runs the real child (REAL_FETCH) with the same arguments,
 * descriptors and environment, waits for it with wait4 and appends the child's own rusage to
 * METER_LOG as one line: user_us system_us voluntary_switches involuntary_switches maxrss_kb
 * exit_status. Nothing else can read a reaped child's context switches, and the host reaps it.
 * The meter's own fork and wait are not in the line (wait4 reports the child alone).
 * Build: gcc -O2 -DREAL_FETCH='"/path/headlines-reload"' -DMETER_LOG='"/path/log"' meter.c */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child;

static void pass_on(int sig) { if (child > 0) kill(child, sig); }

int main(int argc, char **argv) {
    (void)argc;
    signal(SIGTERM, pass_on);
    signal(SIGINT, pass_on);
    signal(SIGHUP, pass_on);
    child = fork();
    if (child < 0) return 127;
    if (child == 0) {
        signal(SIGTERM, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        argv[0] = REAL_FETCH;
        execv(REAL_FETCH, argv);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    while (wait4(child, &status, 0, &ru) < 0)
        if (errno != EINTR) return 127;
    FILE *log = fopen(METER_LOG, "a");
    if (log) {
        fprintf(log, "%ld %ld %ld %ld %ld %d\n",
                (long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
                (long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec,
                ru.ru_nvcsw, ru.ru_nivcsw, ru.ru_maxrss, status);
        fclose(log);
    }
    if (WIFSIGNALED(status)) {
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
    }
    return WEXITSTATUS(status);
}
