/* The C GLib floor: what a resident notifier costs when it does nothing between refreshes.
 * A GLib main loop, one 30-minute timer (the refresh interval a host would arm), notify_init
 * (which connects to the session bus and so holds GDBus's worker thread, as the host does) and
 * one notification shown, as the idle host has shown one. Exits on SIGTERM/SIGINT through the
 * loop, so the measurement's end is an ordinary quit.
 * Build: cc -O2 floor.c $(pkg-config --cflags --libs libnotify) -o floor */
#include <glib.h>
#include <glib-unix.h>
#include <libnotify/notify.h>
#include <stdio.h>

static gboolean tick(gpointer data) { (void)data; return G_SOURCE_CONTINUE; }

static gboolean quit(gpointer loop) {
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

int main(void) {
    if (!notify_init("headlines-floor")) {
        fprintf(stderr, "floor: notify_init failed\n");
        return 1;
    }
    NotifyNotification *shown = notify_notification_new("The floor's one headline", "floor", NULL);
    if (!notify_notification_show(shown, NULL)) {
        fprintf(stderr, "floor: the notification was not shown\n");
        return 1;
    }
    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    g_timeout_add_seconds(30 * 60, tick, NULL);
    g_unix_signal_add(SIGTERM, quit, loop);
    g_unix_signal_add(SIGINT, quit, loop);
    printf("floor ready\n");
    fflush(stdout);
    g_main_loop_run(loop);
    g_main_loop_unref(loop);
    g_object_unref(shown);
    notify_uninit();
    return 0;
}
