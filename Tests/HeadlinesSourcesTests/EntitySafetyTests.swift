import Foundation
import TestSupport
import XCTest
import HeadlinesCore
import HeadlinesSources

/// Entities and external resources: a document that declares entities is refused before any is
/// expanded, and nothing is ever read from disk or the network, whatever the document points at.
final class EntitySafetyTests: XCTestCase {
    private var server: LoopbackHTTPServer!

    override func setUpWithError() throws {
        server = LoopbackHTTPServer()
        try server.start()
    }

    override func tearDown() { server.stop() }

    private func parse(_ xml: String) -> Result<FeedDocument, FeedError> {
        Result { () throws(FeedError) in try FeedParser.parse(Data(xml.utf8), baseURL: nil) }
    }

    func testBillionLaughsIsRefusedQuicklyAndSmall() {
        // Given the billion-laughs document (10^9 "lol" if expanded)
        var lol = "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY lol0 \"lol\">"
        for n in 1...9 { lol += "<!ENTITY lol\(n) \"" + String(repeating: "&lol\(n - 1);", count: 10) + "\">" }
        lol += "]><rss><channel><title>&lol9;</title></channel></rss>"

        // When it is parsed
        let started = Date()
        let result = parse(lol)

        // Then it is refused without expanding anything (expanding it would take minutes and
        // gigabytes; the bound is loose so that a loaded machine never fails it)
        XCTAssertEqual(result, .failure(FeedError(reason: "the feed declares its own entities (<!ENTITY>), which is refused")))
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    func testQuadraticBlowupIsRefusedQuickly() {
        // Given one 50 000-character entity referenced 50 000 times (2.5 GB if expanded)
        let xml = "<!DOCTYPE rss [<!ENTITY a \"" + String(repeating: "a", count: 50_000) + "\">]><rss><channel><title>"
            + String(repeating: "&a;", count: 50_000) + "</title></channel></rss>"

        // When it is parsed
        let started = Date()
        let result = parse(xml)

        // Then it is refused without expanding it (the bound is loose: a loaded machine must not
        // fail it, and 2.5 GB of expansion would take far longer)
        XCTAssertEqual(result, .failure(FeedError(reason: "the feed declares its own entities (<!ENTITY>), which is refused")))
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    func testAnExternalEntityOnDiskIsNeverRead() {
        // Given an entity pointing at /etc/passwd
        let xml = "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
            + "<rss><channel><title>&x;</title><item><title>&x;</title></item></channel></rss>"

        // When it is parsed
        let result = parse(xml)

        // Then the document is refused and nothing of the file comes out
        XCTAssertEqual(result, .failure(FeedError(reason: "the feed declares its own entities (<!ENTITY>), which is refused")))
    }

    func testNothingIsFetchedFromTheNetwork() throws {
        // Given documents that point at a loopback server every way XML can: an external DTD, an
        // external parameter entity, an external general entity, XInclude and a stylesheet
        let base = server.baseURL.absoluteString
        let documents = [
            "<?xml version=\"1.0\"?><!DOCTYPE rss SYSTEM \"\(base)/rss.dtd\"><rss><channel><title>DTD</title></channel></rss>",
            "<!DOCTYPE rss PUBLIC \"-//Netscape//DTD RSS 0.91//EN\" \"\(base)/rss-0.91.dtd\"><rss><channel><title>Public &eacute;</title></channel></rss>",
            "<!DOCTYPE rss [<!ENTITY % p SYSTEM \"\(base)/p.ent\"> %p;]><rss><channel><title>PE</title></channel></rss>",
            "<!DOCTYPE rss [<!ENTITY e SYSTEM \"\(base)/e.ent\">]><rss><channel><title>&e;</title></channel></rss>",
            "<rss xmlns:xi=\"http://www.w3.org/2001/XInclude\"><channel><title>XI</title><xi:include href=\"\(base)/x.xml\"/></channel></rss>",
            "<?xml-stylesheet type=\"text/xsl\" href=\"\(base)/s.xsl\"?><rss><channel><title>XSL</title></channel></rss>",
        ]

        // When each is parsed
        let results = documents.map(parse)

        // Then the server saw no request at all; those without entity declarations still read
        XCTAssertEqual(server.requests.count, 0)
        XCTAssertEqual(results.map { try? $0.get().title }, ["DTD", "Public é", nil, nil, "XI", "XSL"])
    }
}
