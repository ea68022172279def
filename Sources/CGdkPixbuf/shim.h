// gdk-pixbuf alone (with the GObject and GLib it is built on): what HeadlinesImages needs.
#include <gdk-pixbuf/gdk-pixbuf.h>
