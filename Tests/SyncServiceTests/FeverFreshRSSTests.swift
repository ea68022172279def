import Foundation
import HeadlinesCore
import HeadlinesGLib
import HeadlinesSources
import TestSupport
import XCTest

/// `provider = fever` against a real FreshRSS's Fever API, through libcurl, with the key
/// `SyncCredentials.feverKey` computes: what it lists is what FreshRSS's database holds as
/// unread, what it marks read is read there.
final class FeverFreshRSSTests: SyncFreshRSSTestCase {
    private func provider(pageSize: Int = 100, key: String? = SyncCredentials.feverKey(username: FreshRSSServer.user,
                                                                                      password: FreshRSSServer.apiPassword)) -> FeverProvider {
        FeverProvider(account: account(.fever), pageSize: pageSize, transport: transport, session: SyncSession(token: key, password: nil))
    }

    private static func id(_ id: Int64) -> String { String(id) }

    func testListsExactlyFreshRSSsUnreadItemsNewestFirst() async throws {
        let headlines = try await provider().fetch(now: Date())
        XCTAssertEqual(lines(headlines), try expectedUnread(pageSize: 100, id: Self.id))
        XCTAssertGreaterThan(headlines.count, 50)
        let quoted = try XCTUnwrap(headlines.first { $0.title == "L'été \"chaud\" à Paris" })
        XCTAssertEqual(quoted.url.absoluteString, "https://quoted.example/1")
        XCTAssertEqual(quoted.source, "quoted.example", "Fever's items name their feed by number only")
        XCTAssertEqual(quoted.summary, "Il fait chaud.")
    }

    func testTheNewestUnreadItemsTakeOneRequest() async throws {
        let headlines = try await provider(pageSize: 7).fetch(now: Date())
        XCTAssertEqual(lines(headlines), try expectedUnread(pageSize: 7, id: Self.id))
        XCTAssertEqual(tally.take(), 1, "unread_item_ids and the newest items in one answer")
    }

    func testUnreadItemsOlderThanTheNewestFiftyCostOneMoreRequest() async throws {
        // Every item but the five oldest read: the unread ones are all outside the newest 50.
        let entries = try freshRSS.entries()
        XCTAssertGreaterThan(entries.count, 55)
        try markReadInFreshRSS(entries.dropLast(5).map(\.id))

        let headlines = try await provider(pageSize: 3).fetch(now: Date())
        XCTAssertEqual(lines(headlines), try expectedUnread(pageSize: 3, id: Self.id))
        XCTAssertEqual(headlines.count, 3)
        XCTAssertEqual(tally.take(), 2, "the first answer's 50 items hold none of them: with_ids for the three")
    }

    func testAWrongPasswordIsOneRefusedRequestAndOneSentence() async throws {
        let password = "wrong-Pa55word-7f3e"
        let provider = provider(key: SyncCredentials.feverKey(username: FreshRSSServer.user, password: password))
        let error = await newsError { try await provider.fetch(now: Date()) }
        XCTAssertEqual(error, .invalidKey(code: nil, message: nil))
        XCTAssertEqual(tally.take(), 1)
        let sentence = provider.failureMessage(try XCTUnwrap(error))
        XCTAssertTrue(sentence.hasPrefix("Fever API at 127.0.0.1 refused the sign-in"), sentence)
        XCTAssertTrue(sentence.contains("`headlines login fever`"), sentence)
        XCTAssertFalse(sentence.contains(password), sentence)
    }

    func testNoKeyIsAMissingCredentialWithoutARequest() async throws {
        let provider = provider(key: nil)
        let error = await newsError { try await provider.fetch(now: Date()) }
        guard case .missingCredential? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertTrue(provider.failureMessage(error!).contains("`headlines login fever`"), provider.failureMessage(error!))
        XCTAssertEqual(tally.take(), 0)
    }

    func testMarkingReadReachesFreshRSSsDatabase() async throws {
        let entries = Array(try freshRSS.unreadEntries().prefix(2))
        XCTAssertEqual(entries.count, 2)
        addTeardownBlock { [freshRSS] in try freshRSS?.setRead(entries.map(\.id), false) }
        let ids = entries.map { Self.id($0.id) }

        let taken = try await provider().markRead(ids + [ids[1], "not-a-fever-id"], now: Date())
        XCTAssertEqual(taken, ids + ["not-a-fever-id"])
        XCTAssertEqual(tally.take(), 2, "one mark=item request per item; none for an id Fever cannot have")
        for entry in entries { XCTAssertTrue(try freshRSS.isRead(entry.id), "\(entry) is still unread in FreshRSS") }
    }

    func testAnItemReadInFreshRSSIsGoneAtTheNextFetch() async throws {
        let before = try await provider().fetch(now: Date())
        let first = try XCTUnwrap(try freshRSS.unreadEntries().first)
        XCTAssertTrue(before.contains { $0.id == Self.id(first.id) })

        try markReadInFreshRSS([first.id])
        let after = try await provider().fetch(now: Date())
        XCTAssertFalse(after.contains { $0.id == Self.id(first.id) }, "\(first) is still listed")
        XCTAssertEqual(lines(after), try expectedUnread(pageSize: 100, id: Self.id))
    }
}
