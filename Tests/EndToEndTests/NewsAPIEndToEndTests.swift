import Foundation
import HeadlinesCore
import HeadlinesSources
import TestSupport
import XCTest

/// `headlines fetch --provider newsapi` against a loopback NewsAPI.
final class NewsAPIEndToEndTests: EndToEndTestCase {
    /// The shared fixture when it exists, else a small valid body.
    var body: Data {
        FixturePaths.optionalData("newsapi/top-headlines.json") ?? Data("""
        {"status":"ok","totalResults":3,"articles":[
          {"source":{"id":"bbc-news","name":"BBC News"},"author":null,"title":"Tide of plastic reaches the Arctic",
           "description":"Scientists count record debris.","url":"https://www.bbc.co.uk/news/science-1",
           "urlToImage":"https://ichef.bbci.co.uk/p.jpg","publishedAt":"2026-11-29T22:00:00Z","content":null},
          {"source":{"id":null,"name":"The Verge"},"author":"A. Writer","title":"New phone folds in three",
           "description":null,"url":"https://www.theverge.com/phones/fold3","urlToImage":null,
           "publishedAt":"2026-11-29T21:30:15.250Z","content":null},
          {"source":{"id":null,"name":"[Removed]"},"author":null,"title":"[Removed]","description":"[Removed]",
           "url":"https://removed.com","urlToImage":null,"publishedAt":"2026-11-29T21:00:00Z","content":"[Removed]"},
          {"source":{"id":"reuters","name":"Reuters"},"author":null,"title":"Markets close higher",
           "description":"","url":"https://www.reuters.com/markets/close","urlToImage":null,
           "publishedAt":"2026-11-29T20:45:00Z","content":null}
        ]}
        """.utf8)
    }

    /// The articles a reader should see: NewsAPI's `[Removed]` placeholders dropped, and the
    /// " - Outlet" suffix that repeats the article's own source taken off the title.
    func expectedArticles() throws -> [(title: String, url: String, publishedAt: String)] {
        struct Source: Decodable { var name: String? }
        struct Article: Decodable { var source: Source?; var title: String?; var url: String?; var publishedAt: String? }
        struct Envelope: Decodable { var articles: [Article] }
        return try JSONDecoder().decode(Envelope.self, from: body).articles.compactMap { a in
            guard var title = a.title, title != "[Removed]", let url = a.url, url.hasPrefix("http"),
                  let date = a.publishedAt else { return nil }
            if let name = a.source?.name, title.hasSuffix(" - " + name) { title.removeLast(name.count + 3) }
            return (title, url, date)
        }
    }

    func testFetchSendsTheDocumentedRequestAndListsTheArticles() throws {
        // Given a NewsAPI answering with a top-headlines body
        server.route(Self.newsapiPath, .json(body))

        // When headlines fetches from it with the NewsAPI key
        let fetch = try cli.run(["fetch", "--provider", "newsapi", "--base-url", server.baseURL.absoluteString],
                                environment: ["NEWSAPI_API_KEY": Self.newsapiKey, "APITUBE_API_KEY": Self.apitubeKey])

        // Then one request went out, with the key in the header only
        XCTAssertEqual(fetch.status, 0, "fetch failed: \(fetch.stderr)")
        XCTAssertEqual(fetch.stderr, "")
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.path, Self.newsapiPath)
        XCTAssertEqual(request.queryItems, .pairs([("country", "us"), ("pageSize", "10")]))
        XCTAssertEqual(request.header("x-api-key"), Self.newsapiKey)
        XCTAssertTrue(request.header("user-agent")?.hasPrefix("headlines/") ?? false)
        XCTAssertFalse(request.target.contains("SECRET"), "a key is in the URL: \(request.target)")
        assertNoKeyLeaks(fetch)

        // And the articles (placeholders dropped) come back through list --json, newest first
        let expected = try expectedArticles().sorted {
            (ISO8601.parse($0.publishedAt) ?? .distantPast) > (ISO8601.parse($1.publishedAt) ?? .distantPast)
        }
        let listed = try listJSON()
        XCTAssertEqual(listed.map(\.url), expected.map(\.url))
        XCTAssertEqual(listed.map(\.title), expected.map(\.title))
        XCTAssertEqual(listed.map(\.id), expected.map(\.url), "NewsAPI has no ids: the URL is the id")
        XCTAssertFalse(listed.contains { $0.title == "[Removed]" })
        for item in listed {
            XCTAssertTrue(fetch.stdout.contains(item.title), "stdout lacks \(item.title)")
        }
    }

    func testRejectedKeyIsOneSentenceNamingNewsAPI() throws {
        // Given a NewsAPI that rejects the key
        server.route(Self.newsapiPath, .json(Data("""
        {"status":"error","code":"apiKeyInvalid","message":"Your API key is invalid or incorrect."}
        """.utf8), status: 401))

        // When headlines fetches
        let fetch = try cli.run(["fetch", "--provider", "newsapi", "--base-url", server.baseURL.absoluteString],
                                environment: ["NEWSAPI_API_KEY": Self.newsapiKey])

        // Then one sentence names NewsAPI, the code and the variable to check
        XCTAssertEqual(fetch.status, 1)
        XCTAssertEqual(fetch.stderrLines.count, 1, "stderr: \(fetch.stderr)")
        XCTAssertTrue(fetch.stderr.contains("NewsAPI"), fetch.stderr)
        XCTAssertTrue(fetch.stderr.contains("apiKeyInvalid"), fetch.stderr)
        XCTAssertTrue(fetch.stderr.contains("NEWSAPI_API_KEY"), fetch.stderr)
        XCTAssertEqual(fetch.stdout, "")
        assertNoKeyLeaks(fetch)
    }
}
