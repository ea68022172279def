// libsecret (with the GIO, GObject and GLib it is built on): what HeadlinesSecrets needs. The
// password calls take their attributes as C varargs, which Swift cannot call, so they are made
// here, each with the four attributes of a sync account.
#include <libsecret/secret.h>

// The schema of a sync account's password. DONT_MATCH_NAME: an item stored by hand with
// `secret-tool store` under the same four attributes (it carries no xdg:schema) is found too.
static inline const SecretSchema *headlines_account_schema(void) {
    static const SecretSchema schema = {
        "org.headlines.Headlines.Account", SECRET_SCHEMA_DONT_MATCH_NAME,
        {
            { "application", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "provider", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "base-url", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "username", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        }
    };
    return &schema;
}

// The account's password, NULL when no item has it (error unset) or the Secret Service could not
// be asked (error set). Free it with secret_password_free, which wipes it.
static inline gchar *headlines_secret_lookup(const char *provider, const char *base_url, const char *username,
                                             GError **error) {
    return secret_password_lookup_sync(headlines_account_schema(), NULL, error,
                                       "application", "headlines", "provider", provider,
                                       "base-url", base_url, "username", username, NULL);
}

// Stores (or replaces) the account's password in the default collection.
static inline gboolean headlines_secret_store(const char *label, const char *password, const char *provider,
                                              const char *base_url, const char *username, GError **error) {
    return secret_password_store_sync(headlines_account_schema(), SECRET_COLLECTION_DEFAULT, label, password, NULL, error,
                                      "application", "headlines", "provider", provider,
                                      "base-url", base_url, "username", username, NULL);
}

// The label of the collection the default alias names ("Login" in GNOME Keyring), NULL when the
// service does not say. g_free it.
static inline gchar *headlines_secret_default_collection_label(void) {
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_NONE, NULL, NULL);
    if (service == NULL) return NULL;
    SecretCollection *collection = secret_collection_for_alias_sync(service, SECRET_COLLECTION_DEFAULT,
                                                                    SECRET_COLLECTION_NONE, NULL, NULL);
    g_object_unref(service);
    if (collection == NULL) return NULL;
    gchar *label = secret_collection_get_label(collection);
    g_object_unref(collection);
    return label;
}
