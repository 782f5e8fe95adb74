#include "parent_death.h"
#if defined(__linux__)
#include <signal.h>
#include <sys/prctl.h>
int trellis_terminate_with_parent(void) { return prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0); }
#else
int trellis_terminate_with_parent(void) { return -1; }
#endif
