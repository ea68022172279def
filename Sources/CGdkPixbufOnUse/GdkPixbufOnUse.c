#include "CGdkPixbufOnUse.h"
#include <CLoadOnUse.h>
#include <pthread.h>

static HeadlinesGdkPixbuf calls;
static const HeadlinesGdkPixbuf *loaded;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
#define NAME(name) #name,
#define SLOT(name) (void **)&calls.name,
    static const char *const names[] = { HEADLINES_GDK_PIXBUF_CALLS(NAME) };
    void **const slots[] = { HEADLINES_GDK_PIXBUF_CALLS(SLOT) };
#undef NAME
#undef SLOT
    if (headlines_load_on_use("libgdk_pixbuf-2.0.so.0", names, slots, sizeof names / sizeof *names, failure, sizeof failure))
        loaded = &calls;
}

const HeadlinesGdkPixbuf *headlines_gdk_pixbuf(const char **why) {
    pthread_once(&once, load);
    if (loaded == NULL && why != NULL) *why = failure;
    return loaded;
}
