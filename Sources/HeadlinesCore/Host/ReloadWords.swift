/// What a reload that answered says about itself, for the host's log, `headlines refresh` and the
/// published timeline's last result: "ok" only when every feed answered.
public enum ReloadWords {
    /// "ok: 12 headlines", or "12 headlines, but 1 feed failed: The feed ... answered HTTP 404 ..."
    /// (`partialFailures`: one sentence per feed that failed beside the others).
    public static func succeeded(headlines: Int, partialFailures: [String]) -> String {
        let count = NumberText.counted(headlines, "headline")
        return partialFailures.isEmpty ? "ok: " + count : count + failedFeeds(partialFailures)
    }

    /// ", but 1 feed failed: ..." ("" when every feed answered).
    public static func failedFeeds(_ partialFailures: [String]) -> String {
        guard !partialFailures.isEmpty else { return "" }
        let feeds = partialFailures.count == 1 ? "1 feed" : "\(partialFailures.count) feeds"
        return ", but \(feeds) failed: " + partialFailures.map(NewsError.clause).joined(separator: "; ")
    }
}
