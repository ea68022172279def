import FoundationEssentials
import HeadlinesCore

/// Why a body could not be read as a feed, worded for the person who configured it
/// ("not a feed: the document's root is <html>", "malformed XML at line 3: ...").
public struct FeedError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(reason: String) { self.reason = reason }
    init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
