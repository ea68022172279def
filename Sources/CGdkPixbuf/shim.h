// gdk-pixbuf's headers (with GObject's and GLib's), for CGdkPixbufOnUse, which loads the library itself.
#include <gdk-pixbuf/gdk-pixbuf.h>
