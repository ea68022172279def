import FoundationEssentials
import HeadlinesCore

// PLACEHOLDER: replaced by the real provider.
public struct NextcloudNewsProvider: SyncServiceProvider {
    public let account: SyncAccount
    public let session: SyncSession
    let pageSize: Int
    let transport: HTTPTransport
    public init(account: SyncAccount, pageSize: Int, transport: HTTPTransport, session: SyncSession) {
        self.account = account
        self.pageSize = pageSize
        self.transport = transport
        self.session = session
    }
    public var keyVariable: String? { nil }
    public func fetch(now: Date) async throws -> [Headline] { throw NewsError.unreachable(detail: "not built yet") }
    public func markRead(_ ids: [String], now: Date) async throws -> [String] { throw NewsError.unreachable(detail: "not built yet") }
}
