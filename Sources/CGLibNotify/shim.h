// One header for everything the desktop module needs from C.
#include <libnotify/notify.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>
