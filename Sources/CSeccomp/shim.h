// libseccomp for CSandbox, the one target that includes it.
#include <seccomp.h>
