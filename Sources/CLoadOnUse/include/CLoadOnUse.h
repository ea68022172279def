// The one way a library is loaded on first use rather than linked: dlopen of its Debian soname,
// then each named symbol into its slot. For CGdkPixbufOnUse and CLibSecretOnUse.
#pragma once
#include <stddef.h>

// Loads `soname` (RTLD_NOW | RTLD_LOCAL: its symbols stay out of the process's namespace) and
// fills slots[i] with names[i]. 1 when every symbol was found; else 0, and `why` holds the
// loader's words. Call it once (pthread_once): a failed load is not retried.
int headlines_load_on_use(const char *soname, const char *const names[], void **const slots[], size_t count,
                          char *why, size_t why_size);
