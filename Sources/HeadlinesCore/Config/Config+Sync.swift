import FoundationEssentials

/// A sync service's account: the user's own feed reader (FreshRSS, Miniflux, Nextcloud News,
/// Inoreader ...) read as one stream of unread headlines. The password is never in the file:
/// it comes, in this order, from the Secret Service (`headlines login PROVIDER` stores it), a
/// `password-command`, or a `password-file` only its owner can read.
public struct SyncAccountSettings: Sendable, Equatable {
    /// `[source] username`: the account's name (Miniflux's API token needs none).
    public var username: String = ""
    /// `[source] password-command`: the argv of a program whose standard output is the password,
    /// run without a shell.
    public var passwordCommand: [String]?
    /// `[source] password-file`: a file, mode 0600 or stricter, holding only the password.
    public var passwordFile: String?

    public init() {}

    mutating func apply(key: String, value: String) -> Bool {
        switch key {
        case "username":
            guard !value.isEmpty, value.count <= 200, value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else { return false }
            username = value
        case "password-command":
            guard ShellWords.problem(in: value) == nil, let argv = ShellWords.split(value), !argv.isEmpty else { return false }
            passwordCommand = argv
        case "password-file":
            guard !value.isEmpty else { return false }
            passwordFile = value
        default: return false
        }
        return true
    }
}

extension Config.Provider {
    /// A user's reader account rather than a public source: one stream of unread headlines,
    /// read state both ways, a password instead of a key.
    public var isSyncService: Bool {
        switch self {
        case .greader, .fever, .miniflux, .nextcloud: return true
        default: return false
        }
    }

    /// What `base-url` points at, for the sentences that ask for it.
    public var syncBaseURLExample: String? {
        switch self {
        case .greader: return "https://freshrss.example.net/api/greader.php"
        case .fever: return "https://freshrss.example.net/api/fever.php"
        case .miniflux: return "https://miniflux.example.net"
        case .nextcloud: return "https://cloud.example.net/index.php/apps/news/api/v1-3"
        default: return nil
        }
    }
}

extension Config {
    /// The sentence for a sync service configured so that it cannot work, nil when it can.
    func syncProblem(group: String) -> String? {
        guard provider.isSyncService else {
            if sync != SyncAccountSettings() {
                return "[\(group)] username, password-command and password-file are for the sync services (provider = greader, fever, miniflux or nextcloud); remove them."
            }
            return nil
        }
        guard let base = baseURL else {
            return "[\(group)] provider = \(provider.rawValue) needs base-url, the API's address, such as \(provider.syncBaseURLExample ?? "")."
        }
        if base.scheme?.lowercased() == "http" && !SyncAccount.isLoopback(base) {
            return "[\(group)] base-url = \(base.absoluteString) is plain http, which would send your password unencrypted; use https (plain http is accepted for 127.0.0.1, ::1 and localhost only)."
        }
        if provider != .miniflux && sync.username.isEmpty {
            return "[\(group)] provider = \(provider.rawValue) needs username, your account's name."
        }
        return nil
    }

    /// The account the configured sync service reads, nil for every other provider.
    public var syncAccount: SyncAccount? {
        guard provider.isSyncService, let baseURL else { return nil }
        return SyncAccount(provider: provider, baseURL: baseURL, username: sync.username)
    }
}

/// Which account a sync service reads: what its credential is stored under in the Secret
/// Service, and what a queued read mark belongs to.
public struct SyncAccount: Sendable, Equatable, Hashable, Codable {
    public var provider: Config.Provider
    public var baseURL: URL
    public var username: String

    public init(provider: Config.Provider, baseURL: URL, username: String) {
        self.provider = provider
        self.baseURL = baseURL
        self.username = username
    }

    /// `Miniflux at rss.example.net`: the provider's name in the sentences about it.
    public var displayName: String { "\(provider.displayName) at \(baseURL.host ?? baseURL.absoluteString)" }

    /// `miniflux alice@https://rss.example.net`: in sentences and in the Secret Service's label.
    public var label: String { "\(provider.rawValue) \(username.isEmpty ? "" : username + "@")\(baseURL.absoluteString)" }

    /// 127.0.0.0/8, ::1 and localhost: the only hosts a password may reach over plain http.
    public static func isLoopback(_ url: URL) -> Bool {
        guard var host = url.host?.lowercased() else { return false }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

extension Config.Provider: Codable {}
