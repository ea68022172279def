import FoundationEssentials

/// Finds the API key: the provider's environment variable first, then `[source] api-key-file`.
/// The key itself is never logged; only where it came from.
public enum APIKeySource {
    public struct Resolved: Sendable {
        public var key: String?
        public var warnings: [String]
    }

    public static func resolve(for provider: Config.Provider, config: Config,
                               environment: [String: String]) throws(ConfigError) -> Resolved {
        guard let variable = config.keyVariable(of: provider) else { return Resolved(key: nil, warnings: []) }
        if let key = environment[variable]?.trimmed(), !key.isEmpty {
            return Resolved(key: key, warnings: [])
        }
        guard var path = config.apiKeyFile else { return Resolved(key: nil, warnings: []) }
        if path.hasPrefix("~/") { path = (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + path.dropFirst(1) }
        let data: Data?
        // Bounded and regular files only: /dev/zero or a FIFO named here must fail at once.
        do { data = try PosixFileSystem().read(path, limit: ReadLimits.apiKeyFile) } catch let error as NotARegularFile {
            throw ConfigError("api-key-file \(path) is \(error.kind), not a regular file; put the key in a plain file.")
        } catch is StateFileTooLarge {
            throw ConfigError("api-key-file \(path) is longer than \(ReadLimits.apiKeyFile) bytes, too long for a key; put only the key in it.")
        } catch {
            throw ConfigError("Cannot read api-key-file \(path) (\(error)); check its path and permissions.")
        }
        guard let data, let text = String(data: data, encoding: .utf8) else {
            throw ConfigError("api-key-file \(path) does not exist or is not text; create it with only the key in it.")
        }
        let key = text.trimmed()
        guard !key.isEmpty else { throw ConfigError("api-key-file \(path) is empty; put the key in it.") }
        var warnings: [String] = []
        if Platform.isReadableByOthers(path) {
            warnings.append("api-key-file \(path) is readable by other users; run chmod 600 \(path).")
        }
        return Resolved(key: key, warnings: warnings)
    }
}
