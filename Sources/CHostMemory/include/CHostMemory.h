// The resident host's one memory call that Swift's Glibc module cannot make (userfaultfd has no
// libc wrapper and its ioctls are macros). See fault_around.c.
#ifndef CHOSTMEMORY_H
#define CHOSTMEMORY_H

/// Asks the kernel to map only the pages of the program and its libraries that this process
/// touches, without fault-around. Returns how many mappings now fault page by page, or -errno
/// when the kernel cannot do it (older than 6.7, userfaultfd blocked by seccomp): then nothing
/// changes and the process runs as before.
int chm_map_only_touched_pages(void);

#endif
