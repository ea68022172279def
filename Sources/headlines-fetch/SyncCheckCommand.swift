import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesHTTP
import HeadlinesSecrets
import HeadlinesSources

/// `headlines-fetch sync-check`, which `headlines doctor` runs for a sync service: finds the
/// password as a reload does (a password-command runs), signs in and reads the unread page once,
/// as `headlines fetch` would, and writes nothing. One sentence on stdout: where the password
/// came from and that the service took it, or why not (never the password).
enum SyncCheckCommand {
    static func run(_ context: AppContext) -> Int32 {
        guard let account = context.config.syncAccount else {
            Output.print("The config reads no sync service; nothing to check.")
            return 0
        }
        let found: SyncPassword.Found
        switch SyncPassword.find(account: account, settings: context.config.sync, environment: context.environment) {
        case let .success(password): found = password
        case let .failure(problem):
            let message = NewsError.missingCredential(detail: problem.description)
                .message(provider: account.displayName, kind: .syncService(login: account.provider.rawValue))
            Output.print(TerminalText.safe(message))
            return 1
        }
        // A source asked first that failed still needs fixing, though another gave the password.
        let fallback = found.failedFirst.map { "; " + NewsError.clause($0) + ", so it came from \(found.source)" }.joined()
        let provider: HeadlineProvider
        do { provider = try context.makeProvider(session: SyncSignIn.session(account: account, password: found.password)) } catch {
            Output.print(error.message)
            return 1
        }
        let now = Date()
        let result: Result<Int, NewsError> = blockingAwait {
            do { return .success(try await provider.fetch(now: now).count) } catch let error as NewsError {
                return .failure(error)
            } catch { return .failure(.unreachable(detail: "unexpected error")) }
        }
        switch result {
        case let .success(count):
            Output.print(TerminalText.safe("\(provider.displayName) answered and took the credential for \(account.label), the password from \(found.source): \(NumberText.counted(count, "unread headline")) on its first page\(fallback)."))
            return 0
        case let .failure(error):
            Output.print(TerminalText.safe("\(NewsError.clause(provider.failureMessage(error))); the password came from \(found.source)\(fallback)."))
            return 1
        }
    }
}
