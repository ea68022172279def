import FoundationEssentials
import HeadlinesCore
import Synchronization

/// A sync service read as a source: one request per reload for the account's unread
/// headlines (newest first, cut to the page size), and read marks sent back. Every headline it
/// returns has the service's item id as its `id`, which is what `markRead` takes.
public protocol SyncServiceProvider: HeadlineProvider {
    /// The account, its sign-in, the page size and the transport: what every provider is made of.
    var connection: SyncConnection { get }
    init(connection: SyncConnection)
    /// Marks these items read on the service, in as few requests as the API allows. Throws
    /// `NewsError` (through `fetchHeadlines`' rules: a transport error is `.unreachable`).
    /// Returns the ids the service took; an id it does not know counts as taken (it cannot be
    /// unread there).
    func markRead(_ ids: [String], now: Date) async throws -> [String]
}

/// What a sync provider is made of, the same for all four.
public struct SyncConnection: Sendable {
    public let account: SyncAccount
    /// The sign-in the provider uses and renews.
    public let session: SyncSession
    let pageSize: Int
    let transport: HTTPTransport
}

extension SyncServiceProvider {
    public init(account: SyncAccount, pageSize: Int, transport: HTTPTransport, session: SyncSession) {
        self.init(connection: SyncConnection(account: account, session: session, pageSize: pageSize, transport: transport))
    }

    public var account: SyncAccount { connection.account }
    public var session: SyncSession { connection.session }
    var pageSize: Int { connection.pageSize }
    var transport: HTTPTransport { connection.transport }
    public var sourceKind: NewsError.SourceKind { .syncService(login: account.provider.rawValue) }
    public var displayName: String { account.displayName }
    /// Everything read is an account's usual state: the bars then show nothing, not the old list.
    public var emptyListIsAnAnswer: Bool { true }
}

/// How a sync provider signs in, without ever writing a secret down:
/// - `token`: what the last sign-in gave (GReader's `Auth`), kept by the host in memory only and
///   handed to each reload child on its standard input;
/// - `password`: resolved in the child before its sandbox, and only when there is no token
///   (Secret Service, then password-command, then password-file);
/// - `renewedToken`: a new sign-in's token, for the report, so the host keeps it for the next
///   child. Neither is ever logged, printed or stored in a file.
public final class SyncSession: Sendable {
    private struct State: Sendable {
        var token: String?
        var password: String?
        var renewedToken: String?
        var signIns = 0
        var tokenDropped = false
    }
    private let state: Mutex<State>
    /// Why no password could be had, for `NewsError.missingCredential`; nil when one was read or
    /// none was looked for.
    public let passwordProblem: String?

    public init(token: String?, password: String?, passwordProblem: String? = nil) {
        state = Mutex(State(token: token, password: password))
        self.passwordProblem = passwordProblem
    }

    public var token: String? { state.withLock { $0.token } }
    public var password: String? { state.withLock { $0.password } }
    /// The token of a sign-in made in this process, nil when none was made.
    public var renewedToken: String? { state.withLock { $0.renewedToken } }
    /// Sign-ins tried in this process: at most one per reload.
    public var signIns: Int { state.withLock { $0.signIns } }

    /// Records a sign-in attempt; false when one was already made (never two per reload).
    public func beginSignIn() -> Bool {
        state.withLock { s in
            guard s.signIns == 0 else { return false }
            s.signIns += 1
            return true
        }
    }

    public func signedIn(token: String) {
        state.withLock { $0.token = token; $0.renewedToken = token }
    }

    /// The token was refused (expired): the next request signs in again, if the password is here.
    public func dropToken() { state.withLock { $0.token = nil; $0.renewedToken = nil; $0.tokenDropped = true } }

    /// What the report hands the host: a new sign-in's token, "" when the host's token was
    /// refused and nothing replaced it (forget it), nil when the host's token still holds.
    public var handBack: String? {
        state.withLock { s in s.renewedToken ?? (s.tokenDropped ? "" : nil) }
    }

    /// True when the token this process was given was refused: the host forgets it.
    public var tokenDropped: Bool { state.withLock { $0.tokenDropped } }
}
