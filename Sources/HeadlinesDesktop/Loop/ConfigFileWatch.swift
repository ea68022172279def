import FoundationEssentials
import HeadlinesCore

/// Watches the config file so that a running host applies an edit at once, as SIGHUP does
/// (`[notify] keywords` and `mute-words` apply "at once, like mute"). Editors save by a rename
/// into place or write in place, in several events: the folder is watched (a rename replaces the
/// file's inode) and the events of one save are coalesced into one call, `settle` seconds after
/// the last. Lives on the loop (GLibActor); the monitor goes with it.
@GLibActor
public final class ConfigFileWatch {
    private var monitor: DirectoryMonitor?
    private var generation = 0
    private let settle: Double
    private let onChange: () -> Void

    /// `onChange` runs on the loop. Nothing is watched when the file's folder does not exist
    /// (a mistyped `--config`: DirectoryMonitor would make the folder); SIGHUP still works.
    public init(path: String, settle: Double = 0.2, onChange: @escaping () -> Void) {
        self.settle = settle
        self.onChange = onChange
        let name = PathText.lastComponent(of: path)
        let folder = PathText.directory(of: path)
        guard FileManager.default.fileExists(atPath: folder) else { return }
        monitor = DirectoryMonitor(path: folder) { [weak self] changed in
            guard changed == name else { return }
            Task { @GLibActor [weak self] in self?.changed() }
        }
    }

    /// Each event starts a new wait; only the wait of the last event calls back (a generation
    /// count, not g_source_remove: a timer that already fired must not be removed again).
    private func changed() {
        generation &+= 1
        let mine = generation
        MainLoop.after(settle) {
            Task { @GLibActor [weak self] in
                guard let self, self.generation == mine else { return }
                self.onChange()
            }
        }
    }
}
