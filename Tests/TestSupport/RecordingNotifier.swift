import Foundation
import HeadlinesCore
import HeadlinesSources
import Synchronization

/// A `Notifier` that records each post (ids in posting order, and the summary count) instead of
/// talking to a notification server. Shares a `CallLog` with a `RecordingFileSystem` when a test
/// needs to know what was saved before what was shown.
public final class RecordingNotifier: Notifier, Sendable {
    public struct Post: Equatable, Sendable {
        public var ids: [String]
        public var more: Int
        public var at: Date
    }

    public let log: CallLog
    private let recorded = Mutex<[Post]>([])

    public init(log: CallLog = CallLog()) { self.log = log }

    public var posts: [Post] { recorded.withLock { $0 } }

    public func post(_ headlines: [Headline], more: Int, now: Date) {
        let ids = headlines.map(\.id)
        recorded.withLock { $0.append(Post(ids: ids, more: more, at: now)) }
        log.append(.posted(ids: ids, more: more))
    }
}
