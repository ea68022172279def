#include "CLibSecretOnUse.h"
#include <CLoadOnUse.h>
#include <pthread.h>

// The calls made here, typed from libsecret's and GIO's own headers.
#define CALLS(X) \
    X(secret_password_lookup_sync) X(secret_password_store_sync) X(secret_password_free) X(secret_service_get_sync) \
    X(secret_collection_for_alias_sync) X(secret_collection_get_label) X(g_object_unref) X(g_io_error_quark) \
    X(g_dbus_error_quark)
#define FIELD(name) __typeof__(name) *name;
static struct { CALLS(FIELD) } calls;
#undef FIELD
static gboolean loaded;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
#define NAME(name) #name,
#define SLOT(name) (void **)&calls.name,
    static const char *const names[] = { CALLS(NAME) };
    void **const slots[] = { CALLS(SLOT) };
#undef NAME
#undef SLOT
    loaded = headlines_load_on_use("libsecret-1.so.0", names, slots, sizeof names / sizeof *names, failure, sizeof failure);
}

gboolean headlines_secret_available(const char **why) {
    pthread_once(&once, load);
    if (!loaded && why != NULL) *why = failure;
    return loaded;
}

// The schema of a sync account's password. DONT_MATCH_NAME: an item stored by hand with
// `secret-tool store` under the same four attributes (it carries no xdg:schema) is found too.
static const SecretSchema *account_schema(void) {
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

gchar *headlines_secret_lookup(const char *provider, const char *base_url, const char *username, GError **error) {
    if (!headlines_secret_available(NULL)) return NULL;
    return calls.secret_password_lookup_sync(account_schema(), NULL, error,
                                             "application", "headlines", "provider", provider,
                                             "base-url", base_url, "username", username, NULL);
}

void headlines_secret_free(gchar *password) {
    if (password != NULL && headlines_secret_available(NULL)) calls.secret_password_free(password);
}

gboolean headlines_secret_store(const char *label, const char *password, const char *provider,
                                const char *base_url, const char *username, GError **error) {
    if (!headlines_secret_available(NULL)) return FALSE;
    return calls.secret_password_store_sync(account_schema(), SECRET_COLLECTION_DEFAULT, label, password, NULL, error,
                                            "application", "headlines", "provider", provider,
                                            "base-url", base_url, "username", username, NULL);
}

gchar *headlines_secret_default_collection_label(void) {
    if (!headlines_secret_available(NULL)) return NULL;
    SecretService *service = calls.secret_service_get_sync(SECRET_SERVICE_NONE, NULL, NULL);
    if (service == NULL) return NULL;
    SecretCollection *collection = calls.secret_collection_for_alias_sync(service, SECRET_COLLECTION_DEFAULT,
                                                                          SECRET_COLLECTION_NONE, NULL, NULL);
    calls.g_object_unref(service);
    if (collection == NULL) return NULL;
    gchar *label = calls.secret_collection_get_label(collection);
    calls.g_object_unref(collection);
    return label;
}

GQuark headlines_secret_io_error_quark(void) { return headlines_secret_available(NULL) ? calls.g_io_error_quark() : 0; }
GQuark headlines_secret_dbus_error_quark(void) { return headlines_secret_available(NULL) ? calls.g_dbus_error_quark() : 0; }
