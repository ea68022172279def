import Foundation
import TestSupport
import XCTest

/// `headlines fetch` and `list` against a loopback APITube.
final class APITubeEndToEndTests: EndToEndTestCase {
    func testFetchSendsTheDocumentedRequestAndListsTheFixture() throws {
        // Given an APITube that answers with the ten-headline fixture
        server.route(Self.apitubePath, .json(apitubeFixture))

        // When headlines fetches from it
        let fetch = try fetchAPITube()

        // Then exactly one documented request went out, the key only in a header
        XCTAssertEqual(fetch.status, 0, "fetch failed: \(fetch.stderr)")
        XCTAssertEqual(fetch.stderr, "")
        let requests = server.requests
        XCTAssertEqual(requests.count, 1, "requests: \(requests)")
        let request = try XCTUnwrap(requests.first)
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.path, Self.apitubePath)
        XCTAssertEqual(request.queryItems, .pairs([
            ("language.code", "en"), ("sort.by", "published_at"), ("sort.order", "desc"),
            ("per_page", "10"), ("fl", "id,title,href,published_at,source.domain,image"),
        ]))
        XCTAssertEqual(request.header("x-api-key"), Self.apitubeKey)
        XCTAssertTrue(request.header("user-agent")?.hasPrefix("headlines/") ?? false,
                      "user-agent: \(request.header("user-agent") ?? "none")")
        XCTAssertFalse(request.target.contains(Self.apitubeKey), "the key is in the URL: \(request.target)")
        XCTAssertFalse(request.target.contains("SECRET"))
        assertNoKeyLeaks(fetch)

        // And it printed the ten titles, newest first
        let articles = try APITubeFixtureArticle.all(apitubeFixture)
        XCTAssertEqual(articles.count, 10)
        for (i, article) in articles.enumerated() {
            XCTAssertTrue(fetch.stdoutLines.contains { $0.hasSuffix("\(i + 1). \(article.title)") },
                          "stdout lacks '\(i + 1). \(article.title)':\n\(fetch.stdout)")
        }

        // And list --json gives back each link and date exactly, milliseconds included
        let listed = try listJSON()
        XCTAssertEqual(listed.map(\.url), articles.map(\.href))
        XCTAssertEqual(listed.map(\.published_at), articles.map(\.publishedAtWithMilliseconds))
        XCTAssertEqual(listed.map(\.id), articles.map { String($0.id) })
        XCTAssertEqual(listed.map(\.title), articles.map(\.title))
        XCTAssertTrue(listed.map(\.published_at).contains("2026-11-29T21:58:10.512Z"))
        XCTAssertEqual(listed.map(\.image), articles.map { $0.image.isEmpty ? nil : $0.image })
        XCTAssertEqual(server.requests.count, 1, "list must not touch the network")
    }

    func testCountryFromTheConfigFileNarrowsTheRequest() throws {
        // Given a config file that asks for US sources
        server.route(Self.apitubePath, .json(apitubeFixture))
        try cli.writeConfig("[source]\ncountry = us\n")

        // When headlines fetches
        let fetch = try fetchAPITube()

        // Then the request carries source.country.code=us in its documented place
        XCTAssertEqual(fetch.status, 0, "fetch failed: \(fetch.stderr)")
        XCTAssertEqual(try XCTUnwrap(server.requests.first).queryItems, .pairs([
            ("language.code", "en"), ("source.country.code", "us"), ("sort.by", "published_at"),
            ("sort.order", "desc"), ("per_page", "10"), ("fl", "id,title,href,published_at,source.domain,image"),
        ]))
        assertNoKeyLeaks(fetch)
    }

    func testConfigPassedWithConfigOptionIsUsed() throws {
        // Given a config file outside the XDG folder, passed with --config
        server.route(Self.apitubePath, .json(apitubeFixture))
        let file = try cli.writeConfig("[source]\nlanguage = de\npage-size = 5\n",
                                       at: cli.root.appendingPathComponent("elsewhere.conf"))

        // When headlines fetches with it
        let fetch = try fetchAPITube(["--config", file.path])

        // Then its settings reach the request
        XCTAssertEqual(fetch.status, 0, "fetch failed: \(fetch.stderr)")
        let items = server.requests.first?.queryItems ?? []
        XCTAssertTrue(items.contains(.init("language.code", "de")), "\(items)")
        XCTAssertTrue(items.contains(.init("per_page", "5")), "\(items)")
    }

    func testGzippedAnswerIsDecoded() throws {
        // Given an APITube that compresses for clients asking for gzip
        server.route(Self.apitubePath, .json(apitubeFixture), gzip: true)

        // When headlines fetches
        let fetch = try fetchAPITube()

        // Then it asked for gzip, got fewer bytes, and still lists all ten
        XCTAssertEqual(fetch.status, 0, "fetch failed: \(fetch.stderr)")
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertTrue(request.header("accept-encoding")?.contains("gzip") ?? false)
        XCTAssertLessThan(request.bytesSent, apitubeFixture.count)
        XCTAssertEqual(try listJSON().count, 10)
    }

    func testMissingKeyIsOneSentenceAndNoRequest() throws {
        // Given no key anywhere
        server.route(Self.apitubePath, .json(apitubeFixture))

        // When headlines fetches
        let fetch = try cli.run(["fetch", "--provider", "apitube", "--base-url", server.baseURL.absoluteString])

        // Then it says which variable to set and never calls the API
        XCTAssertNotEqual(fetch.status, 0)
        XCTAssertEqual(fetch.stderrLines.count, 1, "stderr: \(fetch.stderr)")
        XCTAssertTrue(fetch.stderr.contains("APITUBE_API_KEY"), fetch.stderr)
        XCTAssertEqual(server.requests.count, 0)
    }
}
