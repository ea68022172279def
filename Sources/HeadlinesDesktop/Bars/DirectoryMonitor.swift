import CGLibNotify
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// inotify on a folder, read on the GLib loop: calls back with the base name of each file that one
/// of the chosen `Events` names. Only those events wake the process. A folder whose files are
/// written atomically needs `.renamedIn` alone, and then each write is one event, where
/// GFileMonitor listens for every create, write, close and move (five events or more per atomic
/// write) and relays each through GLib's worker thread. Owns the descriptor; closed on deinit.
final class DirectoryMonitor {
    struct Events: OptionSet {
        let rawValue: UInt32
        /// A file renamed into the folder: how an atomic write arrives.
        static let renamedIn = Events(rawValue: UInt32(IN_MOVED_TO))
        /// A file written in place and closed.
        static let written = Events(rawValue: UInt32(IN_CLOSE_WRITE))
        static let created = Events(rawValue: UInt32(IN_CREATE))
        /// A file deleted, or renamed out of the folder.
        static let removed = Events(rawValue: UInt32(IN_DELETE | IN_MOVED_FROM))
        static let all: Events = [.renamedIn, .written, .created, .removed]
    }

    private let descriptor: Int32
    private var source: UInt32 = 0
    private let onChange: (String) -> Void

    /// Calls `onChange(name)` on the loop with the base name of each file an event in `events`
    /// names. Makes the folder when it is missing; nil when it cannot be watched.
    init?(path: String, events: Events = .all, onChange: @escaping (String) -> Void) {
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, path, events.rawValue | UInt32(IN_ONLYDIR)) >= 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
        self.onChange = onChange
        source = g_unix_fd_add_full(G_PRIORITY_DEFAULT, fd, G_IO_IN, { fd, _, data in
            // A strong reference for the whole callback: `onChange` may drop the last other one.
            let me = Unmanaged<DirectoryMonitor>.fromOpaque(data!).takeUnretainedValue()
            withExtendedLifetime(me) { me.drain(fd) }
            return 1
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// Reads every queued event (many fit one read), then calls back for each name in order.
    private func drain(_ fd: Int32) {
        var names: [String] = []
        let size = 16 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer, size)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            while offset + 16 <= n {
                let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let name = buffer + offset + 16
                if length > 0 {
                    names.append(String(cString: name.assumingMemoryBound(to: CChar.self)))
                }
                offset += 16 + length
            }
        }
        for name in names { onChange(name) }
    }

    deinit {
        if source != 0 { g_source_remove(source) }
        close(descriptor)
    }
}
