import BarFormats
import CBarSys
import Glibc

/// A continuous bar copy (`waybar`, `i3blocks --persist`): prints the host's ready-made line for
/// its variant whenever the bytes change, and nothing otherwise. One poll(2) with no timeout over
/// inotify, stdout and, for clicks, stdin: zero wake-ups while nothing changes.
struct Follower {
    let folder: RuntimeFolder
    let variant: BarVariant
    let readsClicks: Bool
    private var out = StdoutWriter()
    private var host: HostWatch
    /// Global options for `headlines start` and the commands clicks run.
    private let options: [String]
    private var watches = RuntimeWatches()
    private var folderState = RuntimeFolder.Check.missing
    private var clicks = ClickParser()
    private var stdinOpen: Bool
    private var clickChildren: [pid_t] = []
    /// The last output sent (without its framing), and whether the stream header went out.
    private var lastShown: [UInt8]?
    private var headerSent = false
    /// Scroll steps not yet handed to a `headlines next`/`prev` (negative: back).
    private var pendingSteps = 0
    /// The `headlines next N` or `prev N` running now, 0 when none.
    private var stepChild: pid_t = 0
    /// A host was just started for a widget whose folder is not there yet: look once more in a
    /// moment (the host makes it right after it owns its bus name; no event says it owns it).
    private var recheckSoon = false
    /// `json --changed-from`: the name of the document the widget host has; this copy prints one
    /// that differs and exits once it is written.
    private let changedFrom: UInt64?
    private var printedChange = false

    init(folder: RuntimeFolder, variant: BarVariant, readsClicks: Bool, options: [String] = [], changedFrom: UInt64? = nil) {
        self.options = options
        self.changedFrom = changedFrom
        host = HostWatch(options: options)
        self.folder = folder
        self.variant = variant
        self.readsClicks = readsClicks
        self.stdinOpen = readsClicks
    }

    mutating func run() -> Never {
        signal(SIGPIPE, SIG_IGN)
        let parent = getppid()
        _ = cbs_set_parent_death_signal(SIGTERM)
        // The parent may have died before prctl took effect.
        if getppid() != parent || getppid() == 1 { exit(0) }
        if readsClicks { _ = cbs_set_nonblock(0) }
        // A child (`headlines start`, a click's command) exiting interrupts poll, so it is reaped
        // at once, not at the next change.
        signal(SIGCHLD) { _ in }
        // A widget's folder is the host's to make: a widget no host serves gets none.
        folderState = watches.rewatch(folder, variant: variant, create: !folder.isWidget)
        if folderState == .ok || folder.isWidget { host.startIfNone(folder) }
        show()
        var fds = [pollfd](repeating: pollfd(), count: 3)
        while true {
            fds[0] = pollfd(fd: watches.fd, events: Int16(POLLIN), revents: 0)
            fds[1] = pollfd(fd: 1, events: out.hasPending ? Int16(POLLOUT) : 0, revents: 0)
            fds[2] = pollfd(fd: readsClicks && stdinOpen ? 0 : -1, events: Int16(POLLIN), revents: 0) // -1 is skipped
            let r = poll(&fds, 3, recheckSoon ? 1000 : -1)
            if r == 0 {
                recheckSoon = false
                folderState = watches.rewatch(folder, variant: variant, create: false)
                show()
                continue
            }
            if r < 0 {
                if errno == EINTR { if reapChildren() { show() }; continue }
                exit(1)
            }
            // The bar went away: nobody reads our lines any more.
            if fds[1].revents & Int16(POLLERR | POLLHUP) != 0 { exit(0) }
            if fds[1].revents & Int16(POLLOUT) != 0, out.flush() == .gone { exit(0) }
            if printedChange && !out.hasPending { exit(0) }
            var reshow = false
            if fds[0].revents != 0 {
                let flags = watches.drain(folder, variant: variant)
                if flags & Int32(CBS_LAYOUT_CHANGED) != 0 {
                    folderState = watches.rewatch(folder, variant: variant, create: false)
                }
                if flags & Int32(CBS_LOCK_CHANGED | CBS_LAYOUT_CHANGED) != 0, folderState == .ok {
                    reshow = host.lockChanged(folder) || reshow
                }
                if flags & Int32(CBS_VARIANT_CHANGED | CBS_LAYOUT_CHANGED) != 0 { reshow = true }
            }
            if fds[2].revents != 0 { readClicks() }
            if reapChildren() { reshow = true }
            if reshow { show() }
        }
    }

    /// Sends what the bar should show now, if it differs from what was sent last.
    private mutating func show() {
        guard !printedChange else { return }
        var line: [UInt8]?
        switch folderState {
        case .notPrivate: line = variant.errorLine(BarVariant.notPrivate)
        case .missing where host.startFailed: line = variant.errorLine(BarVariant.notRunning)
        case .missing where folder.isWidget && RuntimeFolder.fromEnvironment().lockHolder() != nil:
            // The process lock is held but no folder of this widget: the config has no such widget
            // (a host that is still starting makes it in a moment, and the parent watch sees it).
            line = variant.errorLine(BarVariant.noSuchWidget(folder.widget ?? "", served: RuntimeFolder.fromEnvironment().servedWidgets()))
        case .missing: line = nil
        case .ok:
            if host.stopped {
                line = variant.errorLine(BarVariant.hostStopped)
            } else if host.startFailed && folder.lockHolder() == nil {
                line = variant.errorLine(BarVariant.notRunning)
            } else {
                switch Sys.readOwnedFile(folder.barDir + "/" + variant.fileName, limit: variant.maxFileBytes) {
                case .bytes(let bytes): line = bytes.isEmpty ? nil : bytes
                case .absent, .tooLarge: line = nil
                case .refused: line = variant.errorLine(BarVariant.notPrivate)
                }
            }
        }
        guard let line, line != lastShown else { return }
        lastShown = line
        if let changedFrom {
            // The widget host already has this document: wait for the next.
            guard let output = ChangedOutput.framed(line, known: changedFrom) else { return }
            printedChange = true
            if out.send(output) == .gone || !out.hasPending { exit(0) }
            return
        }
        // i3bar's header and the opening of its endless array, then a separator before each set.
        let framing = headerSent ? variant.streamSeparator : variant.streamHeader
        headerSent = true
        if out.send(framing + line) == .gone { exit(0) }
    }

    /// i3bar buttons: 1 open, 2 refresh, 3 menu, 4 previous, 5 next, each by the full CLI,
    /// started and not waited for (reaped on a later turn); scroll steps are coalesced.
    private mutating func readClicks() {
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n == 0 { stdinOpen = false; return }
            if n < 0 {
                if errno != EAGAIN && errno != EWOULDBLOCK { stdinOpen = false }
                return
            }
            for click in clicks.append(buffer[0..<n]) { act(on: click) }
        }
    }

    private mutating func act(on click: ClickParser.Click) {
        // A burst of scroll clicks becomes one `headlines next N` (or `prev N`) at a time, each
        // carrying every step that arrived while the one before ran.
        if click.button == 4 || click.button == 5 {
            pendingSteps = StepCount.adding(pendingSteps, click.button == 5 ? 1 : -1)
            return runPendingSteps()
        }
        let commands = [1: ["open"], 2: ["refresh"], 3: ["menu"]]
        guard var command = commands[click.button] else { return }
        // i3bar sends back the block's instance: the key of the headline it showed.
        if click.button == 1, variant == .format(.i3bar), let key = click.instance { command += ["--id", key] }
        let pid = Sys.runCLI(options + command)
        if pid > 0 { clickChildren.append(pid) }
    }

    private mutating func runPendingSteps() {
        guard stepChild == 0, pendingSteps != 0 else { return }
        let command = pendingSteps > 0 ? "next" : "prev"
        stepChild = Sys.runCLI(options + [command, String(abs(pendingSteps))])
        if stepChild > 0 { pendingSteps = 0 } else { stepChild = 0 }
    }

    /// Reaps what has exited; true when what the bar shows changed (a failed `headlines start`).
    private mutating func reapChildren() -> Bool {
        let started = host.reap()
        let startFailed = started == false
        if started == true, folderState == .missing, folder.isWidget { recheckSoon = true }
        if stepChild > 0, cbs_reap(stepChild, nil) > 0 {
            stepChild = 0
            runPendingSteps()
        }
        clickChildren.removeAll { cbs_reap($0, nil) > 0 }
        return startFailed
    }
}
