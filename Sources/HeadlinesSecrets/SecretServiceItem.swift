import CLibSecretOnUse
import HeadlinesCore

/// A sync account's password in the Secret Service (GNOME Keyring, KeePassXC, KWallet ...),
/// through libsecret, under the schema `org.headlines.Headlines.Account`: the attributes
/// `application = headlines`, `provider`, `base-url` and `username`. libsecret reaches the
/// service on this process's session bus.
enum SecretServiceItem {
    enum Lookup: Equatable {
        case found(String)
        /// The service answered and has no such item.
        case noItem
        /// No service to ask (no session bus, nothing owns org.freedesktop.secrets): not an
        /// error, the next source is tried. GLib's words.
        case unavailable(String)
        /// The service is there and did not answer (an unlock prompt dismissed, a service
        /// error): the next source is tried too. Its words.
        case failed(String)
    }

    static func lookup(_ account: SyncAccount) -> Lookup {
        if let missing = libraryMissing { return .unavailable(missing) }
        var error: UnsafeMutablePointer<GError>?
        let attributes = Attributes(account)
        guard let secret = headlines_secret_lookup(attributes.provider, attributes.baseURL, attributes.username, &error) else {
            guard let failure = error else { return .noItem }
            let missing = isMissingService(failure)
            let words = message(of: &error)
            return missing ? .unavailable(words) : .failed(words)
        }
        // libsecret wipes its copy; the String is the one the caller signs in with.
        defer { headlines_secret_free(secret) }
        return .found(String(cString: secret))
    }

    enum Stored: Equatable {
        /// The label of the collection it went to ("Login"), when the service says.
        case stored(collection: String?)
        case unavailable(String)
        /// The service is there and did not store it (a locked collection whose prompt was
        /// dismissed, a service that refuses): its words.
        case refused(String)
    }

    /// Stores `password` for `account`, labelled "headlines: " and the account, replacing the
    /// item a former `headlines login` left.
    static func store(_ password: String, for account: SyncAccount) -> Stored {
        if let missing = libraryMissing { return .unavailable(missing) }
        var error: UnsafeMutablePointer<GError>?
        let attributes = Attributes(account)
        let label = "headlines: " + account.label
        guard headlines_secret_store(label, password, attributes.provider, attributes.baseURL, attributes.username, &error) != 0 else {
            let missing = error.map(isMissingService) ?? false
            let words = message(of: &error)
            return missing ? .unavailable(words) : .refused(words)
        }
        let collection = headlines_secret_default_collection_label()
        defer { g_free(collection) }
        return .stored(collection: collection.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// libsecret itself not installed (it is loaded on first use): no Secret Service to ask, as
    /// when nothing on the bus offers one.
    private static var libraryMissing: String? {
        var why: UnsafePointer<CChar>?
        guard headlines_secret_available(&why) == 0 else { return nil }
        return "\(why.map { String(cString: $0) } ?? "libsecret-1.so.0 did not load"); install libsecret-1-0"
    }

    private struct Attributes {
        var provider: String, baseURL: String, username: String
        init(_ account: SyncAccount) {
            (provider, baseURL, username) = (account.provider.rawValue, account.baseURL.absoluteString, account.username)
        }
    }

    /// No session bus, or nobody on it owning the Secret Service's name (and nothing to start one).
    private static func isMissingService(_ error: UnsafeMutablePointer<GError>) -> Bool {
        let domain = error.pointee.domain, code = error.pointee.code
        // A prompt dismissed is the person's answer, not a missing service.
        if domain == headlines_secret_io_error_quark() { return code != Int32(G_IO_ERROR_CANCELLED.rawValue) }
        guard domain == headlines_secret_dbus_error_quark() else { return false }
        let missing: [GDBusError] = [G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER, G_DBUS_ERROR_NO_SERVER,
                                     G_DBUS_ERROR_DISCONNECTED, G_DBUS_ERROR_FILE_NOT_FOUND, G_DBUS_ERROR_SPAWN_EXEC_FAILED,
                                     G_DBUS_ERROR_SPAWN_FAILED, G_DBUS_ERROR_SPAWN_CHILD_EXITED, G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND,
                                     G_DBUS_ERROR_NO_REPLY, G_DBUS_ERROR_TIMEOUT, G_DBUS_ERROR_TIMED_OUT]
        return missing.contains { Int32($0.rawValue) == code }
    }

    private static func message(of error: inout UnsafeMutablePointer<GError>?) -> String {
        defer { g_clear_error(&error) }
        return error.map { String(cString: $0.pointee.message) } ?? "no reason given"
    }
}
