/// Why bytes could not be read as an XML document, worded for the person who configured the feed
/// ("malformed XML at line 3: ..."). HeadlinesCore turns it into its `FeedError`.
public struct FeedXMLError: Error, Equatable, Sendable {
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    /// The document declares its own entities: refused before any of them is expanded (see
    /// `XMLDocumentReader`).
    public static let declaresEntities = FeedXMLError("the feed declares its own entities (<!ENTITY>), which is refused")
}
