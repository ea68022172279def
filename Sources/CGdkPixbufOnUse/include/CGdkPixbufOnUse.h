// gdk-pixbuf, loaded the first time a reload stores an image (CLoadOnUse), not at every start of
// the reload child: most reloads store none. The calls HeadlinesImages makes, typed from
// gdk-pixbuf's own headers, so a change of signature fails to compile.
#pragma once
#include <gdk-pixbuf/gdk-pixbuf.h>

#define HEADLINES_GDK_PIXBUF_CALLS(X) \
    X(gdk_pixbuf_loader_new_with_type) X(gdk_pixbuf_loader_set_size) X(gdk_pixbuf_loader_write) \
    X(gdk_pixbuf_loader_close) X(gdk_pixbuf_loader_get_pixbuf) X(gdk_pixbuf_apply_embedded_orientation) \
    X(gdk_pixbuf_get_width) X(gdk_pixbuf_get_height) X(gdk_pixbuf_new_subpixbuf) X(gdk_pixbuf_scale_simple) \
    X(gdk_pixbuf_save_to_bufferv) X(g_object_unref) X(g_signal_connect_data)

#define HEADLINES_CALL_FIELD(name) __typeof__(name) *_Nonnull name;
typedef struct { HEADLINES_GDK_PIXBUF_CALLS(HEADLINES_CALL_FIELD) } HeadlinesGdkPixbuf;
#undef HEADLINES_CALL_FIELD

// The calls, or NULL when libgdk_pixbuf-2.0.so.0 could not be loaded (then *why says why, in
// the loader's words). Loaded once per process, whichever thread asks first.
const HeadlinesGdkPixbuf *_Nullable headlines_gdk_pixbuf(const char *_Nullable *_Nullable why);
