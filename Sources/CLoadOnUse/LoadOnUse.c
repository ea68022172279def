#include "CLoadOnUse.h"
#include <dlfcn.h>
#include <stdio.h>

int headlines_load_on_use(const char *soname, const char *const names[], void **const slots[], size_t count,
                          char *why, size_t why_size) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(why, why_size, "%s", dlerror());
        return 0;
    }
    for (size_t i = 0; i < count; i++) {
        if ((*slots[i] = dlsym(library, names[i])) == NULL) {
            snprintf(why, why_size, "%s", dlerror());
            return 0;
        }
    }
    return 1;
}
