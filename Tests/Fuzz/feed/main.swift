import Foundation
@testable import HeadlinesCore
@testable import HeadlinesSources

// libFuzzer target: RSS / Atom / JSON Feed bodies through `FeedParser.parse`, then each item into
// a headline the way `FeedProvider` does. A thrown FeedError is a clean outcome.
private let feedBase = URL(string: "https://feeds.example.com/news/rss.xml")

@_cdecl("LLVMFuzzerTestOneInput")
public func headlinesFuzzFeed(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = fuzzData(bytes, count)
    // Odd lengths also run without a base URL (relative links then stay unresolved).
    let base = count % 2 == 0 ? feedBase : nil
    do {
        let document = try FeedParser.parse(data, baseURL: base)
        let source = document.title.map(TextCleaning.plainTitle).flatMap { $0.isEmpty ? nil : $0 } ?? "feed"
        let headlines = document.items.compactMap { FeedProvider.headline($0, source: source, now: fuzzNow) }
        fuzzConsume(FeedProvider.merge(headlines))
    } catch {
        _ = error.reason.utf8.count
    }
    return 0
}
