import FoundationEssentials
import HeadlinesCore

/// A sync service's password, never written by headlines: looked for in the Secret Service
/// (where `headlines login` puts it), then got from `[source] password-command`, then read from
/// `[source] password-file`. The first that gives one wins; the password is never logged,
/// printed, put in an error or passed to a program.
public enum SyncPassword {
    /// Where a password came from, for `doctor`: never the password itself.
    public enum Source: Equatable, Sendable, CustomStringConvertible {
        case secretService
        /// The command's first word.
        case command(String)
        /// The path as the config has it.
        case file(String)

        public var description: String {
            switch self {
            case .secretService: return "the Secret Service"
            case let .command(program): return "password-command `\(program)`"
            case let .file(path): return "password-file \(path)"
            }
        }
    }

    public struct Found: Sendable {
        public var password: String
        public var source: Source
        /// The configured sources asked before and failing, as clauses (a password-command that
        /// failed before the password-file answered): working, but worth fixing.
        public var failedFirst: [String]
    }

    /// The account's password, or why there is none: what the reload child signs in with.
    public static func resolve(account: SyncAccount, settings: SyncAccountSettings,
                               environment: [String: String]) -> Result<String, SyncPasswordProblem> {
        find(account: account, settings: settings, environment: environment).map(\.password)
    }

    /// `resolve`, saying where the password came from.
    public static func find(account: SyncAccount, settings: SyncAccountSettings,
                            environment: [String: String]) -> Result<Found, SyncPasswordProblem> {
        let secretService: SyncPasswordProblem.SecretService
        switch SecretServiceItem.lookup(account) {
        case let .found(password): return .success(Found(password: password, source: .secretService, failedFirst: []))
        case .noItem: secretService = .noItem
        case let .unavailable(reason): secretService = .unavailable(reason)
        case let .failed(reason): secretService = .failed(reason)
        }
        let fromConfig = configured(settings, environment: environment)
        if let found = fromConfig.found { return .success(found) }
        return .failure(SyncPasswordProblem(secretService: secretService, configured: fromConfig.failures,
                                            nothingConfigured: settings.passwordCommand == nil && settings.passwordFile == nil))
    }

    /// The config's own sources, in order: password-command, then password-file; with a clause
    /// per source that failed (none when neither is set).
    static func configured(_ settings: SyncAccountSettings, environment: [String: String],
                           commandTimeout: Swift.Duration = PasswordCommand.timeout) -> (found: Found?, failures: [String]) {
        var failures: [String] = []
        if let argv = settings.passwordCommand {
            switch PasswordCommand.run(argv, environment: environment, timeout: commandTimeout) {
            case let .success(password): return (Found(password: password, source: .command(argv[0]), failedFirst: failures), [])
            case let .failure(failure): failures.append(failure.clause)
            }
        }
        if let path = settings.passwordFile {
            switch PasswordFile.read(path, environment: environment) {
            case let .success(password): return (Found(password: password, source: .file(path), failedFirst: failures), [])
            case let .failure(failure): failures.append(failure.clause)
            }
        }
        return (nil, failures)
    }

    /// Where `store` put a password, or why it could not.
    public enum Stored: Equatable, Sendable {
        /// In the Secret Service's default collection, with its label when it has one ("Login").
        case secretService(collection: String?)
        /// No Secret Service on the session bus: GLib's words.
        case noSecretService(String)
        /// The Secret Service did not take it: its words.
        case refused(String)
    }

    /// Why no Secret Service can be asked (GLib's words), nil when one answers: `headlines login`
    /// asks before anyone types a password it could not store.
    public static func secretServiceMissing(account: SyncAccount) -> String? {
        if case let .unavailable(reason) = SecretServiceItem.lookup(account) { return reason }
        return nil
    }

    /// `headlines login`: stores `password` for `account` in the Secret Service, where `resolve`
    /// looks first, replacing any former one.
    public static func store(account: SyncAccount, password: String) -> Stored {
        switch SecretServiceItem.store(password, for: account) {
        case let .stored(collection): return .secretService(collection: collection)
        case let .unavailable(reason): return .noSecretService(reason)
        case let .refused(reason): return .refused(reason)
        }
    }
}

/// Why a sync account has no password: what each source said, as one sentence for
/// `NewsError.missingCredential(detail:)`. It never holds the password, nor anything a
/// password-command printed.
public struct SyncPasswordProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public enum SecretService: Equatable, Sendable {
        case noItem
        /// GLib's words on why there is no Secret Service to ask.
        case unavailable(String)
        /// The Secret Service's words on why it did not answer.
        case failed(String)
    }

    public var secretService: SecretService
    /// A clause per configured source that failed, in the order they were tried.
    public var configured: [String]
    /// Neither password-command nor password-file is set.
    public var nothingConfigured: Bool

    public var description: String {
        let service = switch secretService {
        case .noItem: "none stored in the Secret Service"
        case .unavailable: "no Secret Service answers on the session bus"
        case let .failed(reason): "the Secret Service did not answer (\(NewsError.clause(reason)))"
        }
        if nothingConfigured { return service + ", and neither password-command nor password-file is set" }
        return ([service] + configured).joined(separator: "; ")
    }
}
