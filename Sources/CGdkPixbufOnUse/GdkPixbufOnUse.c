#include "CGdkPixbufOnUse.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static HeadlinesGdkPixbuf calls;
static const HeadlinesGdkPixbuf *loaded;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    // RTLD_LOCAL: its symbols stay out of the process's namespace; GObject and GIO come with it.
    void *library = dlopen("libgdk_pixbuf-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) { snprintf(failure, sizeof failure, "%s", dlerror()); return; }
#define FIND(name) \
    if ((*(void **)&calls.name = dlsym(library, #name)) == NULL) { snprintf(failure, sizeof failure, "%s", dlerror()); return; }
    FIND(gdk_pixbuf_loader_new_with_type) FIND(gdk_pixbuf_loader_set_size) FIND(gdk_pixbuf_loader_write)
    FIND(gdk_pixbuf_loader_close) FIND(gdk_pixbuf_loader_get_pixbuf) FIND(gdk_pixbuf_apply_embedded_orientation)
    FIND(gdk_pixbuf_get_width) FIND(gdk_pixbuf_get_height) FIND(gdk_pixbuf_new_subpixbuf) FIND(gdk_pixbuf_scale_simple)
    FIND(gdk_pixbuf_save_to_bufferv) FIND(g_object_unref) FIND(g_signal_connect_data)
#undef FIND
    loaded = &calls;
}

const HeadlinesGdkPixbuf *headlines_gdk_pixbuf(const char **why) {
    pthread_once(&once, load);
    if (loaded == NULL && why != NULL) *why = failure;
    return loaded;
}
