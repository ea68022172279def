import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesHTTP
import HeadlinesSources

/// `headlines-fetch sync-check`, which `headlines doctor` runs for a sync service: signs in and
/// reads the unread page once, as `headlines fetch` would, and writes nothing. One sentence on
/// stdout: that the service answered and took the credential, or why not (never the credential).
enum SyncCheckCommand {
    static func run(_ context: AppContext) -> Int32 {
        guard let account = context.config.syncAccount else {
            Output.print("The config reads no sync service; nothing to check.")
            return 0
        }
        let provider: HeadlineProvider
        do { provider = try context.makeProvider() } catch {
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
            Output.print("\(provider.displayName) answered and took the credential for \(TerminalText.safe(account.label)): \(NumberText.counted(count, "unread headline")) on its first page.")
            return 0
        case let .failure(error):
            Output.print(TerminalText.safe(provider.failureMessage(error)))
            return 1
        }
    }
}
