import Foundation
import HeadlinesCore
import HeadlinesHTTP
import HeadlinesSources
import TestSupport
import XCTest

/// What the FreshRSS of these tests reads: three numbered feeds of 20 items (60 in all, more than
/// the 50 items one Fever `items` answer holds) and one whose titles FreshRSS escapes in its
/// database (quotes, an apostrophe, accents). Dated from an hour ago back, one hour apart.
enum SyncFixtures {
    static let feeds: [FreshRSSServer.Feed] = {
        let newest = Date().addingTimeInterval(-3600)
        let quoted = FreshRSSServer.Feed(path: "/quoted.xml", title: "L’Été “Quoted”", items: [
            .init(guid: "quoted-1", title: "L'été \"chaud\" à Paris", link: "https://quoted.example/1",
                  published: newest.addingTimeInterval(-1800), summary: "<p>Il fait <em>chaud</em>.</p>"),
            .init(guid: "quoted-2", title: "Zürich’s “new” café", link: "https://quoted.example/2",
                  published: newest.addingTimeInterval(-5400)),
        ])
        return FreshRSSServer.Feed.numbered(3, itemsEach: 20, newest: newest) + [quoted]
    }()
}

/// A test case against the class's FreshRSS, with the providers built on the real libcurl
/// transport; `tally` counts every request they send (all carry the credential).
class SyncFreshRSSTestCase: FreshRSSTestCase {
    override class var feeds: [FreshRSSServer.Feed] { SyncFixtures.feeds }

    let tally = RequestTally()
    var transport: CurlTransport { CurlTransport(limits: TransportLimits(timeout: 20), tally: tally) }

    func account(_ provider: Config.Provider) -> SyncAccount {
        SyncAccount(provider: provider, baseURL: provider == .fever ? freshRSS.feverURL : freshRSS.greaderURL, username: FreshRSSServer.user)
    }

    /// What a provider must list: FreshRSS's unread entries, the `pageSize` it took in last (both
    /// APIs page from the highest id), newest published first, as "ID TITLE" lines.
    func expectedUnread(pageSize: Int, id: (Int64) -> String) throws -> [String] {
        try freshRSS.unreadEntries().prefix(pageSize).sorted { $0.published > $1.published }.map { "\(id($0.id)) \($0.title)" }
    }

    func lines(_ headlines: [Headline]) -> [String] { headlines.map { "\($0.id) \($0.title)" } }

    /// Marks entries read in FreshRSS for the rest of the test, unread again after it: the
    /// class's tests share the server.
    func markReadInFreshRSS(_ ids: [Int64]) throws {
        try freshRSS.setRead(ids)
        addTeardownBlock { [freshRSS] in try freshRSS?.setRead(ids, false) }
    }
}

/// The `NewsError` a provider call threw, or nil (and a failure) when it returned.
func newsError<T>(_ body: () async throws -> T, file: StaticString = #filePath, line: UInt = #line) async -> NewsError? {
    do {
        let value = try await body()
        XCTFail("expected a NewsError, got \(value)", file: file, line: line)
    } catch let error as NewsError {
        return error
    } catch {
        XCTFail("expected a NewsError, got \(error)", file: file, line: line)
    }
    return nil
}

/// The `NewsError` a provider's fetch threw, or nil (and a failure) when it returned.
func fetchError(_ provider: any HeadlineProvider, now: Date, file: StaticString = #filePath, line: UInt = #line) async -> NewsError? {
    await newsError({ try await provider.fetch(now: now) }, file: file, line: line)
}
