// One header for everything the desktop module needs from C.
#include <libnotify/notify.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>

// prctl is variadic, which Swift cannot call: the one use, as a plain function.
static inline int headlines_set_parent_death_signal(int sig) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0UL, 0UL, 0UL);
}
