import CGLib

/// Credentials a sync service derives from the password, computed where GLib is at hand:
/// FoundationEssentials has no digest.
public enum SyncCredentials {
    /// Fever's `api_key`: the lower-case hex MD5 of `username:password`, as every Fever server
    /// (FreshRSS, Miniflux, Tiny Tiny RSS's plugin) computes it. MD5 because the API says so; the
    /// key is as good as the password to anyone who reads it, so it is kept like one.
    public static func feverKey(username: String, password: String) -> String {
        let text = username + ":" + password
        // The length in bytes, not -1: a NUL byte inside stays part of what is hashed.
        let checksum = text.withCString { g_compute_checksum_for_string(G_CHECKSUM_MD5, $0, text.utf8.count) }
        defer { g_free(checksum) }
        return checksum.map { String(cString: $0) } ?? ""
    }
}
