import Foundation
import HeadlinesCore
import HeadlinesSources
import TestSupport
import XCTest

/// `provider = greader` against a real FreshRSS's Google Reader API, through libcurl: what it
/// lists is what FreshRSS's database holds as unread, what it marks read is read there.
final class GReaderFreshRSSTests: SyncFreshRSSTestCase {
    private func provider(pageSize: Int = 100, session: SyncSession) -> GReaderProvider {
        GReaderProvider(account: account(.greader), pageSize: pageSize, transport: transport, session: session)
    }

    private func signedOut(password: String = FreshRSSServer.apiPassword) -> SyncSession { SyncSession(token: nil, password: password) }

    func testListsExactlyFreshRSSsUnreadItemsNewestFirst() async throws {
        let headlines = try await provider(session: signedOut()).fetch(now: Date())
        XCTAssertEqual(lines(headlines), try expectedUnread(pageSize: 100, id: FreshRSSServer.greaderID))
        XCTAssertGreaterThan(headlines.count, 50)
        // The source is the feed as FreshRSS names it; the link is the article's.
        let quoted = try XCTUnwrap(headlines.first { $0.title == "L'été \"chaud\" à Paris" })
        XCTAssertEqual(quoted.source, "L’Été “Quoted”")
        XCTAssertEqual(quoted.url.absoluteString, "https://quoted.example/1")
        XCTAssertEqual(quoted.summary, "Il fait chaud.")
    }

    func testAPageSizeTakesTheNewestUnreadItems() async throws {
        let headlines = try await provider(pageSize: 7, session: signedOut()).fetch(now: Date())
        XCTAssertEqual(lines(headlines), try expectedUnread(pageSize: 7, id: FreshRSSServer.greaderID))
    }

    func testOneRequestWithATokenTwoWithASignIn() async throws {
        let session = signedOut()
        _ = try await provider(session: session).fetch(now: Date())
        XCTAssertEqual(tally.take(), 2, "ClientLogin, then the stream")
        let token = try XCTUnwrap(session.renewedToken)

        // The next reload starts with the token the host kept, and no password.
        let headlines = try await provider(session: SyncSession(token: token, password: nil)).fetch(now: Date())
        XCTAssertEqual(tally.take(), 1, "the stream alone")
        XCTAssertEqual(lines(headlines), try expectedUnread(pageSize: 100, id: FreshRSSServer.greaderID))
    }

    func testARefusedTokenSignsInOnceAndTheStreamIsAskedAgain() async throws {
        let session = SyncSession(token: "\(FreshRSSServer.user)/0000000000000000000000000000000000000000", password: FreshRSSServer.apiPassword)
        let headlines = try await provider(session: session).fetch(now: Date())
        XCTAssertEqual(tally.take(), 3, "the stream refused, ClientLogin, the stream")
        XCTAssertEqual(session.signIns, 1)
        XCTAssertNotNil(session.renewedToken)
        XCTAssertEqual(lines(headlines), try expectedUnread(pageSize: 100, id: FreshRSSServer.greaderID))
    }

    func testAWrongPasswordIsOneRefusedSignInAndOneSentence() async throws {
        let password = "wrong-Pa55word-7f3e"
        let provider = provider(session: signedOut(password: password))
        let error = await newsError { try await provider.fetch(now: Date()) }
        XCTAssertEqual(error, .invalidKey(code: nil, message: nil))
        XCTAssertEqual(tally.take(), 1, "one ClientLogin, nothing after it")
        let sentence = provider.failureMessage(try XCTUnwrap(error))
        XCTAssertTrue(sentence.hasPrefix("Google Reader API at 127.0.0.1 refused the sign-in"), sentence)
        XCTAssertTrue(sentence.contains("`headlines login greader`"), sentence)
        XCTAssertFalse(sentence.contains(password), sentence)
    }

    func testAnExpiredTokenAndAWrongPasswordSignInOnceAtMost() async throws {
        let session = SyncSession(token: "\(FreshRSSServer.user)/expired", password: "wrong-password")
        let provider = provider(session: session)
        let error = await newsError { try await provider.fetch(now: Date()) }
        XCTAssertEqual(error, .invalidKey(code: nil, message: nil))
        XCTAssertEqual(tally.take(), 2, "the stream refused, one ClientLogin refused")
        XCTAssertEqual(session.signIns, 1)
        XCTAssertNil(session.token)
        // The same process (the same reload) never signs in again.
        _ = await newsError { try await provider.fetch(now: Date()) }
        XCTAssertEqual(session.signIns, 1)
        XCTAssertEqual(tally.take(), 0, "no request without a token or a sign-in left")
    }

    func testMarkingReadReachesFreshRSSsDatabase() async throws {
        let entries = Array(try freshRSS.unreadEntries().prefix(2))
        XCTAssertEqual(entries.count, 2)
        addTeardownBlock { [freshRSS] in try freshRSS?.setRead(entries.map(\.id), false) }
        let ids = entries.map { FreshRSSServer.greaderID($0.id) }
        let session = signedOut()

        let taken = try await provider(session: session).markRead(ids + [ids[0]], now: Date())
        XCTAssertEqual(taken, ids)
        XCTAssertEqual(tally.take(), 3, "ClientLogin, the edit token, one edit-tag for both")
        for entry in entries { XCTAssertTrue(try freshRSS.isRead(entry.id), "\(entry) is still unread in FreshRSS") }
    }

    func testManyMarksGoInBatchesAndAllReachFreshRSS() async throws {
        let entries = try freshRSS.unreadEntries()
        addTeardownBlock { [freshRSS] in try freshRSS?.setRead(entries.map(\.id), false) }
        // Beside the real items, ids FreshRSS does not know: it takes them as it takes the others.
        let ids = entries.map { FreshRSSServer.greaderID($0.id) } + (1...150).map { FreshRSSServer.greaderID(Int64($0)) }

        let taken = try await provider(session: signedOut()).markRead(ids, now: Date())
        XCTAssertEqual(taken, ids)
        XCTAssertEqual(tally.take(), 2 + (ids.count + 99) / 100, "ClientLogin, the edit token, then edit-tag 100 ids at a time")
        XCTAssertEqual(try freshRSS.unreadEntries(), [])
    }

    func testAMarkWhileFreshRSSIsDownFailsAndReachesItAfterItReturns() async throws {
        let entry = try XCTUnwrap(try freshRSS.unreadEntries().first)
        addTeardownBlock { [freshRSS] in try freshRSS?.setRead([entry.id], false) }
        freshRSS.stop()
        let error = await newsError { try await self.provider(session: self.signedOut()).markRead([FreshRSSServer.greaderID(entry.id)], now: Date()) }
        guard case .unreachable? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertFalse(try freshRSS.isRead(entry.id))

        try freshRSS.restart()
        // The next reload, a process of its own, sends the mark again.
        let taken = try await provider(session: signedOut()).markRead([FreshRSSServer.greaderID(entry.id)], now: Date())
        XCTAssertEqual(taken, [FreshRSSServer.greaderID(entry.id)])
        XCTAssertTrue(try freshRSS.isRead(entry.id))
    }

    func testAnItemFreshRSSFetchesLaterIsListedAtTheNextFetch() async throws {
        var feed = SyncFixtures.feeds[0]
        feed.items.insert(.init(guid: "late-1", title: "A late story", link: "https://news.example/late", published: Date().addingTimeInterval(-60)),
                          at: 0)
        freshRSS.serve(feed)
        try freshRSS.refreshFeeds()
        let headlines = try await provider(session: signedOut()).fetch(now: Date())
        XCTAssertEqual(headlines.first?.title, "A late story")
        XCTAssertEqual(lines(headlines), try expectedUnread(pageSize: 100, id: FreshRSSServer.greaderID))
    }

    func testAnItemReadInFreshRSSIsGoneAtTheNextFetch() async throws {
        let session = signedOut()
        let before = try await provider(session: session).fetch(now: Date())
        let first = try XCTUnwrap(try freshRSS.unreadEntries().first)
        XCTAssertTrue(before.contains { $0.id == FreshRSSServer.greaderID(first.id) })

        try markReadInFreshRSS([first.id])
        let after = try await provider(session: session).fetch(now: Date())
        XCTAssertFalse(after.contains { $0.id == FreshRSSServer.greaderID(first.id) }, "\(first) is still listed")
        XCTAssertEqual(lines(after), try expectedUnread(pageSize: 100, id: FreshRSSServer.greaderID))
    }
}
