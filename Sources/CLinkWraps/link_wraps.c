// Two libc references in the Swift toolchain's static archives make glibc's link-time warnings
// (its .gnu.warning.SYMBOL sections) print on every release link. Neither use is dangerous, and
// no linker flag silences one named warning (ld's -w silences every warning and error), so
// Package.swift routes exactly those references here with --wrap, per program:
//
// - mktemp, in headlines and headlines-host (--static-swift-stdlib links libFoundationEssentials.a):
//   Data.write(options: .atomic) names its temporary file with mktemp and then opens it with
//   O_CREAT | O_EXCL, retrying on EEXIST, which is what mkstemp does; glibc warns regardless
//   ("the use of `mktemp' is dangerous"). __wrap_mktemp keeps mktemp's contract (fill the six
//   trailing X with random letters and digits, return the template; on failure an empty string
//   and errno) so that caller's own exclusive open stays the guard.
// - dlopen, in the fully static headlines-bar: libswiftCore.a's LibPrespecialized calls it only
//   when SWIFT_DEBUG_ENABLE_LIB_PRESPECIALIZED and SWIFT_DEBUG_LIB_PRESPECIALIZED_PATH are set,
//   with RTLD_NOLOAD (find a library that is already loaded). A static program has no loaded
//   library to find, so glibc's static dlopen returns NULL there anyway; __wrap_dlopen says so
//   directly, and no reference of the link resolves to glibc's static dlopen, the symbol its
//   "requires at runtime the shared libraries from the glibc version used for linking" warning
//   is attached to.
//
// --wrap only redirects references from the objects and archives of that one link: shared
// libraries (GLib loading GIO modules through dlopen, say) keep the real functions.
#include "CLinkWraps.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>

char *__wrap_mktemp(char *template_path) {
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    size_t length = strlen(template_path);
    if (length < 6 || memcmp(template_path + length - 6, "XXXXXX", 6) != 0) {
        errno = EINVAL;
        template_path[0] = '\0';
        return template_path;
    }
    char *suffix = template_path + length - 6;
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned char random_bytes[6];
        if (getrandom(random_bytes, sizeof random_bytes, 0) != (ssize_t)sizeof random_bytes) {
            template_path[0] = '\0';
            return template_path;
        }
        for (int i = 0; i < 6; i++) suffix[i] = letters[random_bytes[i] % (sizeof letters - 1)];
        struct stat status;
        if (lstat(template_path, &status) != 0) {
            if (errno == ENOENT) return template_path;
            template_path[0] = '\0';
            return template_path;
        }
    }
    errno = EEXIST;
    template_path[0] = '\0';
    return template_path;
}

void *__wrap_dlopen(const char *file, int mode) {
    (void)file;
    (void)mode;
    return NULL;
}
