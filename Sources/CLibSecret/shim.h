// libsecret's, GIO's, GObject's and GLib's headers, for CLibSecretOnUse, which loads the library itself.
#include <libsecret/secret.h>
