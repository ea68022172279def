extension FeedProvider {
    /// Feeds that parse but hold no item with a title and an http(s) link.
    public var noHeadlinesSetting: String { "[source] feeds" }
}
