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
        public var digests: [SourceDigest]
        public var at: Date
        /// How many headlines the digests count.
        public var more: Int { digests.reduce(0) { $0 + $1.count } }
    }

    public let log: CallLog
    private let recorded = Mutex<[Post]>([])
    private let recordedHeld = Mutex<[HeldHeadlines]>([])

    public init(log: CallLog = CallLog()) { self.log = log }

    public var posts: [Post] { recorded.withLock { $0 } }
    /// The summaries of held headlines, in posting order.
    public var heldPosts: [HeldHeadlines] { recordedHeld.withLock { $0 } }

    public func post(_ headlines: [Headline], digests: [SourceDigest], now: Date) {
        let ids = headlines.map(\.id)
        let post = Post(ids: ids, digests: digests, at: now)
        recorded.withLock { $0.append(post) }
        log.append(.posted(ids: ids, more: post.more))
    }

    public func postHeld(_ held: HeldHeadlines, now: Date) {
        recordedHeld.withLock { $0.append(held) }
    }
}
