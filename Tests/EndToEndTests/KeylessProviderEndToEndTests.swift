import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// `provider = hackernews`, `reddit` and `lobsters` against a loopback server answering in each
/// API's shape (Fixtures/hackernews, reddit, lobsters).
final class KeylessProviderEndToEndTests: EndToEndTestCase {
    func fetch(_ provider: String, config: String = "") throws -> CLIRunner.Result {
        try cli.writeConfig("[source]\nprovider = \(provider)\nbase-url = \(server.baseURL.absoluteString)\n" + config)
        return try cli.run(["fetch"])
    }

    func testHackerNewsFrontPageIsOneRequestWithDiscussionLinks() throws {
        // Given Algolia answering the front page
        server.route("/api/v1/search", .json(FixturePaths.data("hackernews/front-page.json")))

        // When headlines fetches with nothing configured but the provider
        let run = try fetch("hackernews")

        // Then one request asked for the front page
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(server.requests.first?.queryItems, .pairs([("tags", "front_page"), ("hitsPerPage", "10")]))

        // And each story keeps its own date, link and discussion page; Ask HN links to its discussion
        let listed = try listJSON()
        XCTAssertEqual(listed.map(\.title), ["Writing a GPU driver in Rust, one year later", "SQLite's new query planner & you",
                                             "Show HN: A terminal RSS reader in 400 lines", "Ask HN: Who is hiring? (December 2026)"])
        XCTAssertEqual(listed.map(\.published_at), ["2026-11-29T21:12:40.000Z", "2026-11-29T19:45:03.000Z",
                                                    "2026-11-29T18:02:55.000Z", "2026-11-29T16:00:14.000Z"])
        XCTAssertEqual(listed[1].url, "https://sqlite.org/queryplanner-ng.html?from=hn&ref=front")
        XCTAssertEqual(listed[1].comments_url, "https://news.ycombinator.com/item?id=46099876")
        XCTAssertEqual(listed[3].url, "https://news.ycombinator.com/item?id=46100001")
        XCTAssertEqual(listed[3].comments_url, listed[3].url)
        XCTAssertEqual(listed[0].source, "asahilinux.org")
    }

    func testHackerNewsQuerySearchesStoriesByDate() throws {
        server.route("/api/v1/search_by_date", .json(FixturePaths.data("hackernews/front-page.json")))
        let run = try fetch("hackernews", config: "query = rust gpu\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(server.requests.first?.queryItems, .pairs([("query", "rust gpu"), ("tags", "story"), ("hitsPerPage", "10")]))
    }

    func testHackerNewsCapturedSearchAnswer() throws {
        // Given a search Algolia really answered: highlight markup in _highlightResult, "#" and "?" in links
        server.route("/api/v1/search_by_date", .json(FixturePaths.data("hackernews/captured-search.json")))

        // When headlines searches
        let run = try fetch("hackernews", config: "query = ssh\n")
        XCTAssertEqual(run.status, 0, run.stderr)

        // Then the plain titles and links are read, newest first, each with its discussion page
        let listed = try listJSON()
        XCTAssertEqual(listed.map(\.title), ["Why aren’t we using SSH for everything? (2015)", "Why aren’t we using SSH for everything? (2015)",
                                             "Why aren’t we using SSH for everything?", "Why aren’t we using SSH for everything?"])
        XCTAssertEqual(listed.map(\.published_at), ["2017-02-04T12:47:25.000Z", "2016-04-17T22:13:06.000Z",
                                                    "2015-01-03T13:28:02.000Z", "2015-01-02T21:05:46.000Z"])
        XCTAssertEqual(listed.map(\.url), ["https://medium.com/@shazow/ssh-how-does-it-even-9e43586e4ffc#.neyhpij1r",
                                           "https://medium.com/@shazow/ssh-how-does-it-even-9e43586e4ffc#.r9qzj6hhl",
                                           "https://medium.com/@shazow/ssh-how-does-it-even-9e43586e4ffc?hn=1",
                                           "https://medium.com/@shazow/ssh-how-does-it-even-9e43586e4ffc"])
        XCTAssertEqual(listed.map(\.comments_url), ["https://news.ycombinator.com/item?id=13566801", "https://news.ycombinator.com/item?id=11516582",
                                                    "https://news.ycombinator.com/item?id=8830693", "https://news.ycombinator.com/item?id=8828543"])
        XCTAssertEqual(listed[0].source, "medium.com")
    }

    func testHackerNewsCapturedAskHNWithAnEmptyURLLinksToItsDiscussion() throws {
        // Given a search_by_date answer Algolia really sent: an Ask HN post whose url is "" (not null or missing)
        server.route("/api/v1/search_by_date", .json(FixturePaths.data("hackernews/captured-search-by-date-ask-hn.json")))

        // When headlines searches
        let run = try fetch("hackernews", config: "query = apple\n")
        XCTAssertEqual(run.status, 0, run.stderr)

        // Then the post is a headline with its own date, linking to its discussion, credited to Hacker News
        let listed = try listJSON()
        XCTAssertEqual(listed.map(\.title), ["Ask HN: How can I get Swag from Startups?"])
        XCTAssertEqual(listed.map(\.published_at), ["2014-06-19T09:53:30.000Z"])
        XCTAssertEqual(listed.first?.url, "https://news.ycombinator.com/item?id=7915384")
        XCTAssertEqual(listed.first?.comments_url, "https://news.ycombinator.com/item?id=7915384")
        XCTAssertEqual(listed.first?.source, "Hacker News")
    }

    func testHackerNewsErrorNamesTheProviderAndTheWait() throws {
        server.route("/api/v1/search", .json(FixturePaths.data("hackernews/error-429.json"), status: 429))
        let run = try fetch("hackernews")
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("Hacker News is rate-limiting requests (Too many requests): wait"), run.stderr)
    }

    func testRedditSendsADescriptiveUserAgentAndUnescapesImages() throws {
        // Given two subreddits answering a hot listing
        server.route("/r/linux+programming/hot.json", .json(FixturePaths.data("reddit/hot.json")))

        // When headlines fetches them
        let run = try fetch("reddit", config: "subreddits = linux;programming\n")

        // Then the request names this program in its User-Agent
        XCTAssertEqual(run.status, 0, run.stderr)
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.path, "/r/linux+programming/hot.json")
        XCTAssertEqual(request.header("user-agent"), "linux:headlines:\(HeadlinesVersion.string) (desktop headline notifier)")

        // And posts have epoch dates, unescaped links and images, discussion links; the sticky is left out
        let listed = try listJSON()
        XCTAssertEqual(listed.map(\.title), ["Kernel 6.18 released with the new scheduler & bcachefs fixes",
                                             "What I learned benchmarking five memory allocators",
                                             "Why our CI takes 40 minutes (and how we got it to 6)"])
        XCTAssertEqual(listed.map(\.published_at), ["2026-11-29T20:50:00.000Z", "2026-11-29T19:50:00.000Z", "2026-11-29T18:50:00.000Z"])
        XCTAssertEqual(listed[0].image, "https://external-preview.redd.it/k3rnel618.png?auto=webp&s=4f1c2a9e0b7d")
        XCTAssertEqual(listed[2].image, "https://external-preview.redd.it/ci-six.jpg?width=640&crop=smart&auto=webp&s=9d8e7f")
        XCTAssertEqual(listed[2].url, "https://engineering.example.com/blog/ci-40-to-6?utm_source=reddit&utm_medium=social")
        XCTAssertEqual(listed[0].comments_url, "https://www.reddit.com/r/linux/comments/1h3zq9a/kernel_618_released/")
        XCTAssertEqual(listed[0].source, "r/linux")
    }

    func testRedditCapturedFrontPage() throws {
        // Given Reddit's front page as it really answered (no subreddit_name_prefixed, thumbnail placeholders)
        server.route("/hot.json", .json(FixturePaths.data("reddit/captured-front-page.json")))

        // When headlines fetches it
        let run = try fetch("reddit")
        XCTAssertEqual(run.status, 0, run.stderr)

        // Then the stickied post is left out, the rest is newest first with its own date and discussion;
        // a link posted to r/nintendo, r/gaming and r/videos is one headline, the one Reddit lists first
        let listed = try listJSON()
        XCTAssertEqual(listed.map(\.title), ["Playing Hanzo with a Nerf bow! (...and lots of wiring)",
                                             "TIFU by giving my girlfriends cat a chance to kill us.",
                                             "Red Dead Redemption 2 Official Trailer",
                                             "First Look at Nintendo Switch",
                                             "Not sure what he thought was going to happen"])
        XCTAssertEqual(listed.map(\.published_at), ["2016-10-20T15:28:39.000Z", "2016-10-20T15:02:59.000Z",
                                                    "2016-10-20T15:00:28.000Z", "2016-10-20T14:00:09.000Z",
                                                    "2016-10-20T13:54:06.000Z"])
        XCTAssertEqual(listed.map(\.source), ["r/Overwatch", "r/tifu", "r/gaming", "r/nintendo", "r/WTF"])
        XCTAssertEqual(listed[3].comments_url, "https://www.reddit.com/r/nintendo/comments/58gz2k/first_look_at_nintendo_switch/")
        XCTAssertEqual(listed[0].url, "https://gfycat.com/KeenScaredAbyssiniancat")
        XCTAssertEqual(listed[0].comments_url, "https://www.reddit.com/r/Overwatch/comments/58hgf9/playing_hanzo_with_a_nerf_bow_and_lots_of_wiring/")
        XCTAssertEqual(listed[0].image, "https://i.redditmedia.com/X0VPMdHLHCtjuEXexuxOhshYZS1kz-y-fzEpf27Sj9I.gif?fm=jpg&s=90d778df239f134c85dc01223b1c009d")
        XCTAssertEqual(listed[2].image, "https://i.redditmedia.com/NqzdSSZeFXvXjodUxH34n_uRY1d-417Z4x_kFrOFN9U.jpg?s=ef60d6421d7874b2596ec688ee5beae5")

        // And the self post links to its own discussion; "self" and "nsfw" thumbnails are not images
        XCTAssertEqual(listed[1].url, listed[1].comments_url)
        XCTAssertNil(listed[1].image)
        XCTAssertNil(listed[4].image)
    }

    func testRedditFrontPageByDefaultAndTopOfTheDay() throws {
        server.route("/top.json", .json(FixturePaths.data("reddit/hot.json")))
        let run = try fetch("reddit", config: "sort = top\nuser-agent = linux:my-bar:1.0 (by /u/someone)\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(server.requests.first?.queryItems, .pairs([("limit", "12"), ("t", "day")]))
        XCTAssertEqual(server.requests.first?.header("user-agent"), "linux:my-bar:1.0 (by /u/someone)")
    }

    func testRedditPrivateSubredditAdvisesTheSubredditsSetting() throws {
        server.route("/r/secret/hot.json", .json(FixturePaths.data("reddit/error-403-private.json"), status: 403))
        let run = try fetch("reddit", config: "subreddits = secret\n")
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("Reddit refused the listing (private: Forbidden): check [source] subreddits"), run.stderr)
    }

    func testRedditCapturedQuarantinedRefusalAdvisesTheSubredditsSetting() throws {
        // Given the 403 Reddit really sent for a quarantined subreddit's listing: JSON with no "reason"
        server.route("/r/ferguson/hot.json", .json(FixturePaths.data("reddit/captured-error-403-quarantined.json"), status: 403))

        // When headlines fetches it
        let run = try fetch("reddit", config: "subreddits = ferguson\n")

        // Then the advice is about the subreddit, not the block page's User-Agent advice
        XCTAssertNotEqual(run.status, 0)
        XCTAssertEqual(run.stderr, "headlines: Reddit refused the listing (Forbidden): check [source] subreddits"
            + " (a private, quarantined or banned subreddit cannot be read).\n")
    }

    func testRedditsBlockPageSuggestsAUserAgent() throws {
        server.route("/hot.json", .respond(status: 403, headers: ["Content-Type": "text/html"],
                                           body: Data("<!doctype html><html><body>whoa there, pardner!</body></html>".utf8)))
        let run = try fetch("reddit")
        XCTAssertEqual(run.stderr, "headlines: Reddit blocked the request (HTTP 403): set [source] user-agent to one naming you, or try again later.\n")
    }

    func testRedditRateLimitSuggestsAUserAgent() throws {
        server.route("/hot.json", .json(FixturePaths.data("reddit/error-429.json"), status: 429))
        let run = try fetch("reddit")
        XCTAssertTrue(run.stderr.contains("Reddit is rate-limiting requests (Too Many Requests): wait or lower [refresh] daily-budget, or set [source] user-agent"), run.stderr)
    }

    func testRedditCapturedRateLimitSuggestsAUserAgent() throws {
        // Given the 429 Reddit really sent with no Retry-After (JSON, as its Content-Type said)
        server.route("/hot.json", .respond(status: 429, headers: ["Content-Type": "application/json; charset=UTF-8"],
                                           body: FixturePaths.data("reddit/captured-error-429.json")))

        // When headlines fetches the front page
        let run = try fetch("reddit")

        // Then the advice names the wait, the budget and the User-Agent
        XCTAssertNotEqual(run.status, 0)
        XCTAssertEqual(run.stderr, "headlines: Reddit is rate-limiting requests (Too Many Requests): wait or lower [refresh] daily-budget,"
            + " or set [source] user-agent to one naming you.\n")
    }

    func testRedditCapturedBotPageWithRetryAfterSaysWhenToTryAgain() throws {
        // Given Reddit's real "whoa there, pardner!" 429 page, HTML, with its Retry-After of 4 seconds
        server.route("/hot.json", .respond(status: 429, headers: ["Content-Type": "text/html; charset=UTF-8", "Retry-After": "4"],
                                           body: FixturePaths.data("reddit/captured-error-429-bot-page.html")))

        // When headlines fetches the front page
        let run = try fetch("reddit")

        // Then it is a rate limit with a time to wait until, the User-Agent advice, and none of the page's markup
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.hasPrefix("headlines: Reddit is rate-limiting requests: wait until "), run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix(" or lower [refresh] daily-budget, or set [source] user-agent to one naming you.\n"), run.stderr)
        XCTAssertFalse(run.stderr.contains("<"), run.stderr)
        XCTAssertFalse(run.stderr.contains("pardner"), run.stderr)
    }

    func testLobstersHottestWithDiscussionLinks() throws {
        server.route("/hottest.json", .json(FixturePaths.data("lobsters/hottest.json")))
        let run = try fetch("lobsters")
        XCTAssertEqual(run.status, 0, run.stderr)
        let listed = try listJSON()
        XCTAssertEqual(listed.map(\.title), ["Zig's new async, explained", "What are you doing this weekend?",
                                             "A tour of the OpenBSD pledge(2) internals"])
        XCTAssertEqual(listed.map(\.published_at), ["2026-11-29T20:03:11.000Z", "2026-11-29T17:20:45.000Z", "2026-11-29T15:05:00.000Z"])
        XCTAssertEqual(listed[0].comments_url, "https://lobste.rs/s/xk3p9q/zig_s_new_async_explained")
        XCTAssertEqual(listed[1].url, "https://lobste.rs/s/a7b2cd/what_are_you_doing_this_weekend", "a text post links to its discussion")
    }

    func testLobstersCapturedHottest() throws {
        // Given hottest.json as Lobsters really answered (submitter_user a name, -05:00 dates, \u0026 escapes)
        server.route("/hottest.json", .json(FixturePaths.data("lobsters/captured-hottest.json")))

        // When headlines fetches it
        let run = try fetch("lobsters")
        XCTAssertEqual(run.status, 0, run.stderr)

        // Then every story is read, newest first, with its date in UTC and its discussion page
        let listed = try listJSON()
        XCTAssertEqual(listed.map(\.title), ["Zig, Rust, and other languages", "µON - a compact and simple binary object notation",
                                             "Haiku Activity & Contract Report, February 2024",
                                             "What’s the most interesting automation you have created?",
                                             "Дія (Ukrainian government app) source code released under EUPL"])
        XCTAssertEqual(listed.map(\.published_at), ["2024-03-15T21:06:08.000Z", "2024-03-15T19:01:49.000Z", "2024-03-15T15:30:23.000Z",
                                                    "2024-03-15T04:44:47.000Z", "2024-03-14T21:47:24.000Z"])
        XCTAssertEqual(listed.map(\.source), ["notes.eatonphil.com", "github.com", "www.haiku-os.org", "Lobsters", "github.com"])
        XCTAssertEqual(listed[0].url, "https://notes.eatonphil.com/2024-03-15-zig-rust-and-other-languages.html")
        XCTAssertEqual(listed[0].comments_url, "https://lobste.rs/s/lfg3lj/zig_rust_other_languages")
        XCTAssertEqual(listed[3].url, "https://lobste.rs/s/kpi2xx/what_s_most_interesting_automation_you", "a text post (url \"\") links to its discussion")
        XCTAssertEqual(listed[3].comments_url, listed[3].url)
    }

    func testLobstersNewest() throws {
        server.route("/newest.json", .json(FixturePaths.data("lobsters/hottest.json")))
        let run = try fetch("lobsters", config: "sort = newest\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(server.requests.first?.path, "/newest.json")
    }

    /// A stand-in default browser (GIO reads mimeapps.list and the desktop file) that records each URL.
    func fakeBrowser() throws -> URL {
        let log = cli.root.appendingPathComponent("opened.txt")
        let script = cli.root.appendingPathComponent("fake-browser")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(log.path)'\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let apps = cli.root.appendingPathComponent("home/.local/share/applications")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        try Data("[Desktop Entry]\nType=Application\nName=Fake\nExec=\(script.path) %u\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\nNoDisplay=true\n".utf8)
            .write(to: apps.appendingPathComponent("fake-browser.desktop"))
        try FileManager.default.createDirectory(at: cli.configHome, withIntermediateDirectories: true)
        try Data("[Default Applications]\nx-scheme-handler/http=fake-browser.desktop\nx-scheme-handler/https=fake-browser.desktop\n".utf8)
            .write(to: cli.configHome.appendingPathComponent("mimeapps.list"))
        return log
    }

    func opened(_ log: URL, count: Int) -> [String] {
        let deadline = Date().addingTimeInterval(10)
        var lines: [String] = []
        repeat {
            lines = (FileManager.default.contents(atPath: log.path).map { String(decoding: $0, as: UTF8.self) } ?? "")
                .split(separator: "\n").map(String.init)
            if lines.count >= count { break }
            usleep(50_000)
        } while Date() < deadline
        return lines
    }

    func testOpenCommentsOpensTheDiscussionPage() throws {
        // Given Hacker News headlines in the cache and a default browser
        server.route("/api/v1/search", .json(FixturePaths.data("hackernews/front-page.json")))
        XCTAssertEqual(try fetch("hackernews").status, 0)
        let log = try fakeBrowser()
        let env = ["XDG_DATA_DIRS": "/usr/share"]

        // When the first headline's comments are opened, then its link
        let comments = try cli.run(["open", "--comments", "1"], environment: env)
        XCTAssertEqual(comments.status, 0, comments.stderr)
        XCTAssertEqual(opened(log, count: 1), ["https://news.ycombinator.com/item?id=46101234"])
        XCTAssertEqual(try cli.run(["open", "1"], environment: env).status, 0)

        // Then the browser got the discussion, then the story
        XCTAssertEqual(opened(log, count: 2), ["https://news.ycombinator.com/item?id=46101234", "https://asahilinux.org/2026/11/gpu-driver-rust/"])
    }

    func testOpenCommentsOfAHeadlineWithoutADiscussionSaysSo() throws {
        server.route("/feed.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"],
                                           body: Data("<rss version=\"2.0\"><channel><title>T</title><item><title>A story</title><link>https://example.com/a</link></item></channel></rss>".utf8)))
        try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(server.baseURL.absoluteString)/feed.rss\n")
        XCTAssertEqual(try cli.run(["fetch"]).status, 0)
        let run = try cli.run(["open", "--comments", "1"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "headlines: this headline has no discussion page; Hacker News, Reddit and Lobsters headlines have one.\n")
    }
}
