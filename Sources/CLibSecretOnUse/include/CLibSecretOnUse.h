// libsecret, loaded the first time a sync service's password is looked up or stored (dlopen of
// its Debian soname), not at every start of the reload child: a reload signs in only when the
// host holds no token, and most sources have no password at all. The password calls take their
// attributes as C varargs, which Swift cannot call, so they are made here, each with the four
// attributes of a sync account.
#pragma once
#include <libsecret/secret.h>

// Whether libsecret-1.so.0 loads; when not, *why says why, in the loader's words. Loaded once per
// process. The calls below need it loaded.
gboolean headlines_secret_available(const char *_Nullable *_Nullable why);

// The account's password, NULL when no item has it (error unset) or the Secret Service could not
// be asked (error set). Free it with headlines_secret_free, which wipes it.
gchar *_Nullable headlines_secret_lookup(const char *_Nonnull provider, const char *_Nonnull base_url, const char *_Nonnull username,
                                         GError *_Nullable *_Nullable error);
void headlines_secret_free(gchar *_Nullable password);

// Stores (or replaces) the account's password in the default collection.
gboolean headlines_secret_store(const char *_Nonnull label, const char *_Nonnull password, const char *_Nonnull provider,
                                const char *_Nonnull base_url, const char *_Nonnull username, GError *_Nullable *_Nullable error);

// The label of the collection the default alias names ("Login" in GNOME Keyring), NULL when the
// service does not say. g_free it.
gchar *_Nullable headlines_secret_default_collection_label(void);

// GIO's error domains, for telling a missing service from a refusal.
GQuark headlines_secret_io_error_quark(void);
GQuark headlines_secret_dbus_error_quark(void);
