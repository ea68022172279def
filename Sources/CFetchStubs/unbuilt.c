// headlines-fetch links libcurl, OpenSSL and libxml2 from Debian's static archives (issue 14:
// starting the reload child then maps one program and libc, not some fifty libraries). Debian's
// libcurl.a is built with every protocol, and three of them need libraries Debian ships no static
// archive of: LDAP (libldap, libsasl2, GnuTLS), RTMP (librtmp, GnuTLS) and GSS-API/Kerberos
// (libgssapi_krb5). libxml2.a can convert encodings through ICU, whose data archive is 30 MB.
//
// None of them can run in headlines-fetch: its transport allows http and https only
// (CURLOPT_PROTOCOLS_STR and CURLOPT_REDIR_PROTOCOLS_STR), never asks for Negotiate or
// SOCKS5 GSS-API authentication (CURLOPT_HTTPAUTH is basic only, CURLOPT_SOCKS5_AUTH basic), and
// hands libxml2 UTF-8 only (FeedCharset converts every other charset with iconv first).
//
// So this file defines those entry points instead. The LDAP, RTMP and GSS-API ones end the
// process with a message naming the function (status 70, EX_SOFTWARE): reaching one is a bug in
// the options above, and the host reports the child's exit. ICU's converter opener says the
// encoding is unsupported, which libxml2 treats as an unknown encoding (iconv already had it).
#include <stddef.h>
#include <unistd.h>
#include <unicode/uvernum.h>

static void unbuilt(const char *name, size_t length) {
    static const char prefix[] = "headlines-fetch: internal error: called ";
    static const char suffix[] = ", which this program does not link (it fetches http and https only)\n";
    (void)!write(2, prefix, sizeof prefix - 1);
    (void)!write(2, name, length);
    (void)!write(2, suffix, sizeof suffix - 1);
    _exit(70);
}

// Two levels, so that a name built by ICU's renaming macro is expanded before it is quoted.
#define UNBUILT(fn) UNBUILT_EXPANDED(fn)
#define UNBUILT_EXPANDED(fn) void fn(void); void fn(void) { unbuilt(#fn, sizeof #fn - 1); }

// librtmp (rtmp:// and friends)
UNBUILT(RTMP_Alloc) UNBUILT(RTMP_Close) UNBUILT(RTMP_Connect1) UNBUILT(RTMP_ConnectStream)
UNBUILT(RTMP_Free) UNBUILT(RTMP_Init) UNBUILT(RTMP_Read) UNBUILT(RTMP_SetBufferMS)
UNBUILT(RTMP_SetupURL) UNBUILT(RTMP_Write)
// OpenLDAP (ldap://, ldaps://)
UNBUILT(ber_bvfree) UNBUILT(ber_free) UNBUILT(ber_memfree) UNBUILT(ber_sockbuf_add_io)
UNBUILT(ldap_abandon_ext) UNBUILT(ldap_err2string) UNBUILT(ldap_free_urldesc) UNBUILT(ldap_get_attribute_ber)
UNBUILT(ldap_get_dn_ber) UNBUILT(ldap_get_option) UNBUILT(ldap_init_fd) UNBUILT(ldap_memfree)
UNBUILT(ldap_msgfree) UNBUILT(ldap_msgtype) UNBUILT(ldap_parse_result) UNBUILT(ldap_parse_sasl_bind_result)
UNBUILT(ldap_pvt_url_scheme2proto) UNBUILT(ldap_result) UNBUILT(ldap_sasl_bind) UNBUILT(ldap_search_ext)
UNBUILT(ldap_set_option) UNBUILT(ldap_start_tls) UNBUILT(ldap_unbind_ext) UNBUILT(ldap_url_parse)
// GSS-API (Negotiate/Kerberos authentication, SOCKS5 GSS-API)
UNBUILT(gss_delete_sec_context) UNBUILT(gss_display_name) UNBUILT(gss_display_status) UNBUILT(gss_import_name)
UNBUILT(gss_init_sec_context) UNBUILT(gss_inquire_context) UNBUILT(gss_release_buffer) UNBUILT(gss_release_name)
UNBUILT(gss_unwrap) UNBUILT(gss_wrap)
// A name-type OID libcurl passes to gss_import_name, which is above.
void *GSS_C_NT_HOSTBASED_SERVICE = NULL;

// ICU's converters, as libxml2's encoding.c uses them (names carry ICU's version suffix).
typedef int UErrorCodeStub;
enum { U_UNSUPPORTED_ERROR_STUB = 16 };   // U_UNSUPPORTED_ERROR in unicode/utypes.h
void *U_ICU_ENTRY_POINT_RENAME(ucnv_open)(const char *name, UErrorCodeStub *error);
void *U_ICU_ENTRY_POINT_RENAME(ucnv_open)(const char *name, UErrorCodeStub *error) {
    (void)name;
    if (error) *error = U_UNSUPPORTED_ERROR_STUB;
    return NULL;
}
// Only ever called on a converter ucnv_open returned, which it never does; close(NULL) is a no-op.
void U_ICU_ENTRY_POINT_RENAME(ucnv_close)(void *converter);
void U_ICU_ENTRY_POINT_RENAME(ucnv_close)(void *converter) { (void)converter; }
UNBUILT(U_ICU_ENTRY_POINT_RENAME(ucnv_convertEx))
UNBUILT(U_ICU_ENTRY_POINT_RENAME(ucnv_setFromUCallBack))
UNBUILT(U_ICU_ENTRY_POINT_RENAME(ucnv_setToUCallBack))
UNBUILT(U_ICU_ENTRY_POINT_RENAME(UCNV_FROM_U_CALLBACK_STOP))
UNBUILT(U_ICU_ENTRY_POINT_RENAME(UCNV_TO_U_CALLBACK_STOP))
