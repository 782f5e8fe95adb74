import CParentDeath
import Foundation

/// Ties a process's life to its parent's: a supervisor killed with SIGKILL cannot stop
/// its children, so they ask the kernel for SIGTERM when it dies (Linux; elsewhere the
/// supervisor's own stop is all there is).
public enum ParentDeath {
    /// Call first thing in `main`. If the parent is already gone (we were re-parented
    /// before asking), exits at once.
    public static func terminateWithParent() {
        let parent = getppid()
        _ = trellis_terminate_with_parent()
        if getppid() != parent { exit(0) }
    }
}
