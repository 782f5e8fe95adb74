#ifndef TRELLIS_PARENT_DEATH_H
#define TRELLIS_PARENT_DEATH_H

/// Asks the kernel to send SIGTERM to this process when its parent dies (Linux's
/// prctl(PR_SET_PDEATHSIG), which Swift cannot call: prctl is variadic).
/// Returns 0 on success, -1 where unsupported or on error.
int trellis_terminate_with_parent(void);

#endif
