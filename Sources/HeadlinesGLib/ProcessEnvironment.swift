#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCore

/// The process environment as a dictionary, read straight from `environ`.
/// `ProcessInfo.processInfo.environment` gives the same, but its first use builds all of
/// FoundationEssentials' ProcessInfo (locks, caches), which none of these programs otherwise needs.
public enum ProcessEnvironment {
    /// `NAME=value` entries; the first of two entries with the same name wins, as getenv(3) does.
    public static func current() -> [String: String] {
        var out: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "="), out[String(text[..<equals])] == nil {
                out[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return out
    }

    /// Takes every API-key variable out of the process environment, once `current()` has read
    /// them: whatever the process starts without an environment of its own (GIO's launch of a
    /// browser, a library's helper) inherits none of them.
    public static func withholdKeys() {
        for variable in Config.Provider.keyVariables { unsetenv(variable) }
    }
}
