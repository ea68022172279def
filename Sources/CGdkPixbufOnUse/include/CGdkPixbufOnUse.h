// gdk-pixbuf, loaded the first time a reload stores an image (dlopen of its Debian soname), not
// at every start of the reload child: most reloads store none. The calls HeadlinesImages makes,
// typed from gdk-pixbuf's own headers, so a change of signature fails to compile.
#pragma once
#include <gdk-pixbuf/gdk-pixbuf.h>

#define HEADLINES_CALL(name) __typeof__(name) *_Nonnull name
typedef struct {
    HEADLINES_CALL(gdk_pixbuf_loader_new_with_type);
    HEADLINES_CALL(gdk_pixbuf_loader_set_size);
    HEADLINES_CALL(gdk_pixbuf_loader_write);
    HEADLINES_CALL(gdk_pixbuf_loader_close);
    HEADLINES_CALL(gdk_pixbuf_loader_get_pixbuf);
    HEADLINES_CALL(gdk_pixbuf_apply_embedded_orientation);
    HEADLINES_CALL(gdk_pixbuf_get_width);
    HEADLINES_CALL(gdk_pixbuf_get_height);
    HEADLINES_CALL(gdk_pixbuf_new_subpixbuf);
    HEADLINES_CALL(gdk_pixbuf_scale_simple);
    HEADLINES_CALL(gdk_pixbuf_save_to_bufferv);
    HEADLINES_CALL(g_object_unref);
    HEADLINES_CALL(g_signal_connect_data);
} HeadlinesGdkPixbuf;
#undef HEADLINES_CALL

// The calls, or NULL when libgdk_pixbuf-2.0.so.0 could not be loaded (then *why says why, in
// the loader's words). Loaded once per process, whichever thread asks first.
const HeadlinesGdkPixbuf *_Nullable headlines_gdk_pixbuf(const char *_Nullable *_Nullable why);
