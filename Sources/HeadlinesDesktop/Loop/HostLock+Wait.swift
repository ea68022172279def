import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

extension HostLock {
    /// Blocks a background thread in `flock` until the current host dies (the kernel releases its
    /// lock), then calls `acquired` on the loop. Costs no wake-ups while waiting.
    public func waitUntilAcquired(_ acquired: @escaping @Sendable @GLibActor () -> Void) {
        let path = self.path
        BackgroundThread.start(name: "headlines-lock-wait") { [self] in
            while !Task.isCancelled {
                // Checked like every open of the lock: a link or a foreign file is never locked
                // (tryAcquire has logged why); it is retried, so removing it lets us take over.
                guard let f = try? RuntimeFolder.openPrivate(path, flags: O_RDWR | O_CREAT) else { sleep(5); continue }
                if flock(f, LOCK_EX) == 0 {
                    // Got it: hand over to tryAcquire, which re-opens and re-locks non-blocking.
                    close(f)
                    Task { @GLibActor in
                        if self.tryAcquire() { acquired() } else { self.waitUntilAcquired(acquired) }
                    }
                    return
                }
                close(f)
                sleep(1)
            }
        }
    }
}
