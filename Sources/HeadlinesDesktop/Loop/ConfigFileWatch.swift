import FoundationEssentials
import HeadlinesCore

/// Watches the config file so that a running host applies an edit at once, as SIGHUP does
/// (`[notify] keywords` and `mute-words` apply "at once, like mute"). Editors save by a rename
/// into place or write in place, in several events: the folder is watched (a rename replaces the
/// file's inode) and the events of one save are coalesced into one look, `settle` seconds after
/// the last. Only new bytes are a change: a file that is gone keeps the current configuration
/// (said once), and one that comes back as it was changes nothing and costs no reload. Lives on
/// the loop (GLibActor); the monitor goes with it.
@GLibActor
public final class ConfigFileWatch {
    private var monitor: DirectoryMonitor?
    private var generation = 0
    private let path: String
    private let settle: Double
    private let onGone: () -> Void
    private let onChange: () -> Void
    /// The file's bytes when last applied (at start, or at the last change passed on).
    private var applied: FileLook
    private var goneReported = false

    /// What a look at the file found.
    enum FileLook: Equatable {
        case bytes(Data)
        case missing
        /// Not readable as a config (a FIFO, too large, no permission): the re-read says why.
        case unreadable
    }

    /// What one settled burst of events means for the host.
    enum Verdict: Equatable {
        /// New bytes (or a file that cannot be read): re-read the config.
        case changed
        /// The same bytes as applied: nothing to do.
        case unchanged
        /// No file: keep the current configuration.
        case gone
    }

    /// `onChange` and `onGone` run on the loop; `onGone` once each time the file goes away.
    /// Nothing is watched when the file's folder does not exist (a mistyped `--config`:
    /// DirectoryMonitor would make the folder); SIGHUP still works.
    public init(path: String, settle: Double = 0.2, onGone: @escaping () -> Void = {}, onChange: @escaping () -> Void) {
        self.path = path
        self.settle = settle
        self.onGone = onGone
        self.onChange = onChange
        applied = Self.look(at: path)
        let name = PathText.lastComponent(of: path)
        let folder = PathText.directory(of: path)
        guard FileManager.default.fileExists(atPath: folder) else { return }
        monitor = DirectoryMonitor(path: folder) { [weak self] changed in
            guard changed == name else { return }
            Task { @GLibActor [weak self] in self?.changed() }
        }
    }

    /// The file now, through the one bounded reader (never blocking on a FIFO).
    nonisolated static func look(at path: String) -> FileLook {
        do {
            guard let data = try PosixFileSystem().read(path, limit: ReadLimits.configFile) else { return .missing }
            return .bytes(data)
        } catch {
            return .unreadable
        }
    }

    nonisolated static func verdict(applied: FileLook, now: FileLook) -> Verdict {
        switch now {
        case .missing: return .gone
        case .unreadable: return .changed
        case .bytes: return now == applied ? .unchanged : .changed
        }
    }

    /// Each event starts a new wait; only the wait of the last event looks (a generation
    /// count, not g_source_remove: a timer that already fired must not be removed again).
    private func changed() {
        generation &+= 1
        let mine = generation
        MainLoop.after(settle) {
            Task { @GLibActor [weak self] in
                guard let self, self.generation == mine else { return }
                self.settled()
            }
        }
    }

    private func settled() {
        let now = Self.look(at: path)
        switch Self.verdict(applied: applied, now: now) {
        case .gone:
            if !goneReported { onGone() }
            goneReported = true
        case .unchanged:
            goneReported = false
        case .changed:
            goneReported = false
            applied = now
            onChange()
        }
    }
}
