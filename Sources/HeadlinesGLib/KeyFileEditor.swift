import CGLib
import HeadlinesCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Changes one key of a config file, keeping its comments, blank lines, spacing and the order of
/// its groups and keys: only the key's own line changes (or one line is added), written in
/// GKeyFile's escapes and checked by reading the result back with GKeyFile. The file is replaced
/// atomically; a link or anything but a regular file is refused, as the edit would replace a
/// link with a file.
public enum KeyFileEditor {
    /// `text` with `[group] key = value`: the key's last line in the group rewritten, else a line
    /// added after the group's last key, else the group added at the end.
    public static func setting(_ value: String, group: String, key: String, in text: Data, file: String) throws(ConfigError) -> Data {
        _ = try load(text, file: file)
        let escaped = try escape(value, file: file)
        var lines = String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var inGroup = false, groupStart: Int?, lastKey: Int?, keyLine: Int?
        for (i, line) in lines.enumerated() {
            let t = line.trimmed()
            if t.hasPrefix("[") && t.hasSuffix("]") {
                inGroup = t == "[\(group)]"
                if inGroup { groupStart = i; lastKey = nil; keyLine = nil }
                continue
            }
            guard inGroup, !t.hasPrefix("#"), let eq = t.firstIndex(of: "=") else { continue }
            lastKey = i
            if t[..<eq].trimmed() == key { keyLine = i }
        }
        if let keyLine, let eq = lines[keyLine].firstIndex(of: "=") {
            let spaced = lines[keyLine][lines[keyLine].index(after: eq)...].first == " "
            lines[keyLine] = String(lines[keyLine][...eq]) + (spaced ? " " : "") + escaped
        } else if let at = lastKey ?? groupStart {
            lines.insert("\(key) = \(escaped)", at: at + 1)
        } else {
            if let last = lines.last, !last.trimmed().isEmpty { lines.append("") }
            lines += ["[\(group)]", "\(key) = \(escaped)"]
        }
        let edited = Data((lines.joined(separator: "\n") + "\n").utf8)
        guard try read(group: group, key: key, from: try load(edited, file: file)) == value else {
            throw ConfigError("\(file): the edited file would not read back as written; add the line by hand: [\(group)] \(key) = \(escaped)")
        }
        return edited
    }

    /// The value as the key file format writes it (`\\s` for a leading space, `\\n` ...), by GKeyFile itself.
    static func escape(_ value: String, file: String) throws(ConfigError) -> String {
        let keyFile = g_key_file_new()
        defer { g_key_file_free(keyFile) }
        g_key_file_set_string(keyFile, "g", "k", value)
        guard let raw = g_key_file_get_value(keyFile, "g", "k", nil) else { throw ConfigError("\(file): GLib could not write the value.") }
        defer { g_free(raw) }
        return String(cString: raw)
    }

    private final class KeyFile {
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { g_key_file_free(pointer) }
    }

    private static func load(_ text: Data, file: String) throws(ConfigError) -> KeyFile {
        let keyFile = KeyFile(g_key_file_new())
        var error: UnsafeMutablePointer<GError>?
        let bytes = text.map { CChar(bitPattern: $0) } + [0]
        guard g_key_file_load_from_data(keyFile.pointer, bytes, gsize(text.count), G_KEY_FILE_NONE, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw ConfigError("\(file): \(message); fix the file before adding to it.")
        }
        return keyFile
    }

    private static func read(group: String, key: String, from keyFile: KeyFile) throws(ConfigError) -> String? {
        guard let value = g_key_file_get_string(keyFile.pointer, group, key, nil) else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    /// Sets `[group] key` in the file at `path` (created when missing), atomically, to what
    /// `value` returns; nil leaves the file as it is. `value` runs under the file's lock, so it
    /// reads the file as it is now: another `add` or the user's editor may have saved it since the
    /// command started. Returns whether the file was written.
    @discardableResult
    public static func set(group: String, key: String, path: String, _ value: () throws(ConfigError) -> String?) throws(ConfigError) -> Bool {
        // A lock file beside the file, not the file itself: the file is replaced by a rename, and
        // a lock on it would go with the old one.
        let folder = PathText.directory(of: path)
        let lock = (folder.isEmpty ? "." : folder) + "/." + PathText.lastComponent(of: path) + ".lock"
        var failure: ConfigError?
        var written = false
        do {
            try FileLock.withExclusive(lock) {
                do throws(ConfigError) {
                    guard let value = try value() else { return }
                    try set(value, group: group, key: key, path: path)
                    written = true
                } catch { failure = error }
            }
        } catch {
            throw ConfigError("Cannot lock \(lock) (\(error)); check the folder's permissions. The file is unchanged.")
        }
        if let failure { throw failure }
        return written
    }

    /// Sets `[group] key = value` in the file at `path` (created when missing), atomically.
    static func set(_ value: String, group: String, key: String, path: String) throws(ConfigError) {
        var info = stat()
        let exists = lstat(path, &info) == 0
        if exists && (info.st_mode & S_IFMT) != S_IFREG {
            let kind = (info.st_mode & S_IFMT) == S_IFLNK ? "a symbolic link" : "not a regular file"
            throw ConfigError("\(path) is \(kind); edit the file it points to by hand, or pass that file with --config.")
        }
        let text: Data
        do { text = try PosixFileSystem().read(path, limit: ReadLimits.configFile) ?? Data() } catch {
            throw ConfigError("Cannot read \(path) (\(error)); check its permissions.")
        }
        let edited = try setting(value, group: group, key: key, in: text, file: path)
        do {
            try PosixFileSystem().writeAtomically(edited, to: path, mode: exists ? UInt32(info.st_mode & 0o777) : 0o644)
        } catch {
            throw ConfigError("Cannot write \(path) (\(error)); check the folder's permissions. The file is unchanged.")
        }
    }
}
