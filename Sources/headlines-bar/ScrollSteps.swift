import BarFormats
import CBarSys
import Glibc

/// `headlines-bar next [N]` and `prev [N]`: what a bar's scroll bindings run. A bar starts one
/// process per scroll event, so a fast scroll starts hundreds; each adds its steps to
/// `scroll-steps` in the runtime folder and exits at once, and the one that holds
/// `scroll-sender.lock` hands every step gathered so far to a single `headlines next N` (or
/// `prev N`), again until none is left. The host hears one Next per run of the CLI, not one per
/// click, and the bar ends where the clicks asked.
enum ScrollSteps {
    static func run(step: Int, folder: RuntimeFolder, options: [String]) -> Never {
        let direct = options + [step > 0 ? "next" : "prev", String(step.magnitude)]
        // No folder of ours yet (no host has run): this step alone, which starts the host.
        guard folder.check(create: false) == .ok else { runCLI(direct); exit(0) }
        let counter = cbs_open_private(folder.path + "/scroll-steps")
        let sender = cbs_open_private(folder.path + "/scroll-sender.lock")
        guard counter >= 0, sender >= 0 else { runCLI(direct); exit(0) }
        _ = update(counter) { StepCount.adding($0, step) }
        // The sender checks for steps again after letting go, so a step added just before it let
        // go, by a process that found the lock still held, is never left behind.
        while flock(sender, LOCK_EX | LOCK_NB) == 0 {
            while true {
                var steps = 0
                _ = update(counter) { steps = $0; return 0 }
                if steps == 0 { break }
                runCLI(options + [steps > 0 ? "next" : "prev", String(steps.magnitude)])
            }
            flock(sender, LOCK_UN)
            if update(counter, { $0 }) == 0 { break }
        }
        exit(0)
    }

    /// Reads the count (a decimal, 0 when empty or unreadable), writes `change(count)`, under the
    /// counter's lock; returns what it wrote.
    private static func update(_ fd: Int32, _ change: (Int) -> Int) -> Int {
        flock(fd, LOCK_EX)
        defer { flock(fd, LOCK_UN) }
        var buffer = [UInt8](repeating: 0, count: 24)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        let text = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
        let now = StepCount.clamped(Int(text) ?? 0)
        let next = change(now)
        guard next != now || n <= 0 else { return next }
        let bytes = Array(String(next).utf8)
        _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        _ = ftruncate(fd, off_t(bytes.count))
        return next
    }

    /// `headlines` with `arguments`, waited for.
    private static func runCLI(_ arguments: [String]) {
        let pid = Sys.runCLI(arguments)
        guard pid > 0 else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}
