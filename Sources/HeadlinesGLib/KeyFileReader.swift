import CGLib
import HeadlinesCore
import FoundationEssentials

/// Reads the config file with GLib's GKeyFile (the format every GNOME-era tool uses, comments and
/// all) into raw strings per group; `Config.parse` validates them. Runs on any thread.
public enum KeyFileReader {
    /// nil when the file does not exist.
    public static func read(path: String) throws(ConfigError) -> [String: [String: String]]? {
        // Our own bounded read, not g_key_file_load_from_file: that one blocks in open(2) on a
        // FIFO and reads a device without end. Regular files up to 1 MiB only.
        let bytes: Data
        do {
            guard let data = try PosixFileSystem().read(path, limit: ReadLimits.configFile) else { return nil }
            bytes = data
        } catch let error as NotARegularFile {
            throw ConfigError("\(path) is \(error.kind), not a regular file; point --config at a config file.")
        } catch is StateFileTooLarge {
            throw ConfigError("\(path) is larger than \(ReadLimits.configFile >> 20) MiB, too large for a config file; point --config at the right file.")
        } catch {
            throw ConfigError("Cannot read the config file (\(error)); check its permissions or pass another with --config.")
        }
        let keyFile = g_key_file_new()
        defer { g_key_file_free(keyFile) }
        var error: UnsafeMutablePointer<GError>?
        // NUL-terminated as well as counted: an empty file still has a valid pointer.
        let text = bytes.map { CChar(bitPattern: $0) } + [0]
        let loaded = g_key_file_load_from_data(keyFile, text, gsize(bytes.count), G_KEY_FILE_NONE, &error)
        guard loaded != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw ConfigError("\(path): \(message); fix the file or pass another with --config.")
        }
        var groups: [String: [String: String]] = [:]
        var groupCount: gsize = 0
        guard let groupNames = g_key_file_get_groups(keyFile, &groupCount) else { return [:] }
        defer { g_strfreev(groupNames) }
        for gi in 0..<Int(groupCount) {
            guard let groupPtr = groupNames[gi] else { continue }
            let group = String(cString: groupPtr)
            var keyCount: gsize = 0
            var values: [String: String] = [:]
            if let keys = g_key_file_get_keys(keyFile, groupPtr, &keyCount, nil) {
                // defer: the throw below must not leak the key list (found by the fuzzer).
                defer { g_strfreev(keys) }
                for ki in 0..<Int(keyCount) {
                    guard let keyPtr = keys[ki] else { continue }
                    var valueError: UnsafeMutablePointer<GError>?
                    // get_string unescapes \s, \n ... the way the key file format defines.
                    if let value = g_key_file_get_string(keyFile, groupPtr, keyPtr, &valueError) {
                        values[String(cString: keyPtr)] = String(cString: value)
                        g_free(value)
                    } else {
                        g_clear_error(&valueError)
                        throw ConfigError("\(path): [\(group)] \(String(cString: keyPtr)) is not a valid string; check its escapes.")
                    }
                }
            }
            groups[group] = values
        }
        return groups
    }
}
