import FoundationEssentials
import HeadlinesCore
import HeadlinesGLib
import HeadlinesHTTP
import HeadlinesSources
#if canImport(Glibc)
import Glibc
#endif

/// How a fetch of a sync service gets its credential, in the child before its sandbox (a
/// password-command is a program, the Secret Service a bus call): the host's token when it
/// handed one over, else the password (Secret Service, password-command, password-file), turned
/// into what each API signs in with.
public enum SyncSignIn {
    /// The session for `account`; `token` is what the host kept from the last sign-in.
    public static func session(account: SyncAccount, settings: SyncAccountSettings, environment: [String: String], token: String?) -> SyncSession {
        if let token, !token.isEmpty { return SyncSession(token: token, password: nil) }
        switch SyncPassword.resolve(account: account, settings: settings, environment: environment) {
        case let .failure(problem):
            return SyncSession(token: nil, password: nil, passwordProblem: problem.description)
        case let .success(password):
            return session(account: account, password: password)
        }
    }

    /// The session for `account` signing in with `password`, already found.
    public static func session(account: SyncAccount, password: String) -> SyncSession {
        let session = SyncSession(token: nil, password: password)
        switch account.provider {
        // Google Reader signs in with the password for a token of its own.
        case .greader: break
        // Fever's key is derived from the password; Miniflux and Nextcloud take it as it is.
        case .fever: session.signedIn(token: SyncCredentials.feverKey(username: account.username, password: password))
        default: session.signedIn(token: password)
        }
        return session
    }

    /// The token the host wrote on our standard input for `account`: one line, `LABEL<TAB>TOKEN`
    /// (`handBack`'s form), so a token is never sent to another account after the config changed.
    /// An empty line or /dev/null: none. Bounded as a password is.
    public static func tokenFromHost(for account: SyncAccount) -> String? {
        guard let line = try? TerminalPassword.firstLine().get() else { return nil }
        let prefix = account.label + "\t"
        guard line.hasPrefix(prefix) else { return nil }
        let token = String(line.dropFirst(prefix.count))
        return token.isEmpty ? nil : token
    }

    /// What the report hands the host to keep: `LABEL<TAB>TOKEN` after a new sign-in, "" to
    /// forget the one it had, nil to keep it.
    public static func handBack(_ session: SyncSession?, account: SyncAccount?) -> String? {
        guard let session, let account, let token = session.handBack else { return nil }
        return token.isEmpty ? "" : account.label + "\t" + token
    }

    /// The read marks queued for this account, sent before anything is fetched, so a mark made
    /// offline reaches the service at the next reload. Held under the send lock for the whole
    /// exchange, so two children never send the same mark; the queue itself is changed under its
    /// own lock only for a moment, so the host that queues never waits on the network.
    public static func sendQueuedMarks(_ provider: any SyncServiceProvider, store: ReadMarksStore, now: Date,
                                warn: (String) -> Void) -> Int {
        let sent: Int? = try? FileLock.withExclusive(store.file.path + ".send") {
            let marks = store.load(now: now, warn: warn)
            guard marks.account == provider.account.label, !marks.pending.isEmpty else { return 0 }
            let pending = marks.pending
            let outcome: Result<[String], NewsError> = blockingAwait {
                do { return .success(try await provider.markRead(pending, now: now)) } catch let error as NewsError {
                    return .failure(error)
                } catch { return .failure(.unreachable(detail: "unexpected error")) }
            }
            let taken: [String]
            switch outcome {
            case let .success(ids): taken = ids
            case let .failure(error):
                warn("\(pending.count) read mark(s) stay queued for the next reload: \(provider.failureMessage(error))")
                return 0
            }
            try store.update(now: now, warn: warn) { $0.sent(taken) }
            return taken.count
        }
        return sent ?? 0
    }
}
