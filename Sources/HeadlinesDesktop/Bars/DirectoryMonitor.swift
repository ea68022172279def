import CGLibNotify
import FoundationEssentials

/// GFileMonitor on a folder: calls back on the loop when a file in it is created, changed, or
/// renamed into place (atomic writes arrive as a rename). Owns the monitor; released on deinit.
final class DirectoryMonitor {
    private var monitor: UnsafeMutablePointer<GFileMonitor>?
    private let onChange: (String) -> Void

    /// Calls `onChange(name)` with the base name of the file that changed.
    init?(path: String, onChange: @escaping (String) -> Void) {
        self.onChange = onChange
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let file = g_file_new_for_path(path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        guard let m = g_file_monitor_directory(file, G_FILE_MONITOR_WATCH_MOVES, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        monitor = m
        let callback: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, OpaquePointer?,
                                      GFileMonitorEvent, UnsafeMutableRawPointer?) -> Void = { _, file, other, event, data in
            let me = Unmanaged<DirectoryMonitor>.fromOpaque(data!).takeUnretainedValue()
            // A rename into place names the new file in `other`.
            let target = event == G_FILE_MONITOR_EVENT_RENAMED || event == G_FILE_MONITOR_EVENT_MOVED_IN ? (other ?? file) : file
            guard let target, let name = g_file_get_basename(target) else { return }
            let base = String(cString: name)
            g_free(name)
            me.onChange(base)
        }
        g_signal_connect_data(UnsafeMutableRawPointer(m), "changed", unsafeBitCast(callback, to: GCallback.self),
                              Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(0))
    }

    deinit {
        if let monitor {
            g_file_monitor_cancel(monitor)
            g_object_unref(UnsafeMutableRawPointer(monitor))
        }
    }
}
