// Replacements that the shipped programs' link steps route two libc references to, with
// `-Xlinker --wrap=SYMBOL` in Package.swift (see link_wraps.c for why). Nothing calls these by
// name: a wrapped reference reaches them, every other caller keeps the libc function.
#ifndef CLINKWRAPS_H
#define CLINKWRAPS_H

char *__wrap_mktemp(char *template_path);
void *__wrap_dlopen(const char *file, int mode);

#endif
