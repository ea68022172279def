// libcurl for HeadlinesHTTP, the one module that imports it.
#include <curl/curl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic macros/functions,
// which Swift cannot call: one typed wrapper per argument type used.
static inline CURLcode headlines_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode headlines_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode headlines_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode headlines_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode headlines_curl_setopt_write(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) { return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f); }
static inline CURLcode headlines_curl_setopt_header(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) { return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, f); }
static inline CURLcode headlines_curl_setopt_opensocket(CURL *h, curl_opensocket_callback f) { return curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, f); }
static inline CURLcode headlines_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode headlines_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode headlines_curl_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLMcode headlines_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLcode headlines_curl_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
// CURL_GLOBAL_DEFAULT is a macro expression, which Swift does not import.
static inline CURLcode headlines_curl_global_init_default(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }
