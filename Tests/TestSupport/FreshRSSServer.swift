import Foundation
import XCTest

/// A private FreshRSS (Tests/Servers/freshrss) on 127.0.0.1, for the sync providers and the host
/// to be tested against the real Google Reader and Fever APIs: copied to a temporary folder,
/// installed there with a SQLite database, one user subscribed to feeds that a
/// `LoopbackHTTPServer` serves, those feeds fetched by FreshRSS itself, then served by PHP's
/// built-in web server. What the APIs should answer is read straight from FreshRSS's database
/// with the `sqlite3` program, so a test compares with the server's own truth.
///
/// Start one per test class where the tests can share it (`FreshRSSTestCase`): each start costs
/// a few PHP runs. Needs PHP 8.2 and sqlite3 (`scripts/install-deps.sh --test`); without PHP the
/// initialiser throws `XCTSkip`.
public final class FreshRSSServer: @unchecked Sendable {
    public static let user = "alice"
    /// The web login's password; the APIs take `apiPassword` only.
    public static let password = "alice-web-password"
    /// What GReader's ClientLogin takes as `Passwd`, and what Fever's key is the MD5 of (with the user).
    public static let apiPassword = "alice-api-password"

    /// The loopback server FreshRSS fetches the feeds from; change a route, then `refreshFeeds()`.
    public let feedServer = LoopbackHTTPServer()
    /// The web server's port, chosen at the first start and kept by `restart()`.
    public private(set) var port = 0
    /// The temporary copy FreshRSS runs from (removed by `shutDown()`).
    public let folder: URL
    private var web: BackgroundProcess?
    private static let php = ["/usr/bin/php", "/usr/local/bin/php"].first { FileManager.default.isExecutableFile(atPath: $0) }
    private static let sqlite3 = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Installs FreshRSS, subscribes its user to `feeds` (served by `feedServer`), fetches them and
    /// starts the web server.
    public init(feeds: [Feed]) throws {
        guard Self.php != nil, Self.sqlite3 != nil else {
            throw XCTSkip("FreshRSS needs php and sqlite3, which `scripts/install-deps.sh --test` installs.")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("headlines-freshrss-\(UUID().uuidString)")
        try feedServer.start()
        feeds.forEach(serve)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            try install(feeds: feeds)
            try start(onNewPort: true)
        } catch {
            shutDown()
            throw error
        }
    }

    deinit { shutDown() }

    // MARK: - Addresses

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// `[source] base-url` for `provider = greader`.
    public var greaderURL: URL { baseURL.appendingPathComponent("api/greader.php") }
    /// `[source] base-url` for `provider = fever`.
    public var feverURL: URL { baseURL.appendingPathComponent("api/fever.php") }
    /// The user's database, as FreshRSS keeps it.
    public var database: URL { folder.appendingPathComponent("fr/data/users/\(Self.user)/db.sqlite") }

    /// The Google Reader API's id for a FreshRSS entry id: the long form, in 16 hex digits.
    public static func greaderID(_ id: Int64) -> String {
        "tag:google.com,2005:reader/item/" + String(format: "%016llx", UInt64(bitPattern: id))
    }

    // MARK: - The database

    /// One entry as FreshRSS stores it, its title with FreshRSS's HTML escaping undone.
    public struct Entry: Equatable, Sendable, CustomStringConvertible {
        public var id: Int64
        public var title: String
        public var isRead: Bool
        /// The article's date as FreshRSS took it from the feed.
        public var published: Date
        public var description: String { "\(id) \(title)\(isRead ? " (read)" : "")" }
    }

    /// Every entry, highest id (the latest FreshRSS took in) first.
    public func entries() throws -> [Entry] {
        struct Row: Decodable { var id: Int64; var title: String; var is_read: Int; var date: Int64 }
        let json = try query("SELECT id, title, is_read, date FROM entry ORDER BY id DESC")
        let rows = json.isEmpty ? [] : try JSONDecoder().decode([Row].self, from: Data(json.utf8))
        return rows.map { Entry(id: $0.id, title: Self.unescaped($0.title), isRead: $0.is_read != 0,
                                published: Date(timeIntervalSince1970: TimeInterval($0.date))) }
    }

    /// The unread entries, highest id first: what both APIs list as unread.
    public func unreadEntries() throws -> [Entry] { try entries().filter { !$0.isRead } }

    public func isRead(_ id: Int64) throws -> Bool {
        guard let entry = try entries().first(where: { $0.id == id }) else { throw Failure("no entry \(id) in FreshRSS's database") }
        return entry.isRead
    }

    /// Marks entries read (or unread) in the database, as reading them in FreshRSS's pages would.
    public func setRead(_ ids: [Int64], _ read: Bool = true) throws {
        guard !ids.isEmpty else { return }
        _ = try query("UPDATE entry SET is_read = \(read ? 1 : 0) WHERE id IN (\(ids.map(String.init).joined(separator: ",")))")
    }

    /// Changes the user's API password: every Google Reader token signed in with the old one
    /// is refused from then on.
    public func setAPIPassword(_ password: String) throws {
        try php(["cli/update-user.php", "--user=\(Self.user)", "--api-password=\(password)"])
    }

    /// Has `feedServer` serve `feed` at its path, as it is now (then `refreshFeeds()`).
    public func serve(_ feed: Feed) {
        feedServer.route(feed.path, .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: feed.rss))
    }

    /// Has FreshRSS fetch every feed again now (its own schedule would wait an hour), so that a
    /// route changed on `feedServer` reaches the database.
    public func refreshFeeds() throws {
        let cache = folder.appendingPathComponent("fr/data/cache")
        for name in try FileManager.default.contentsOfDirectory(atPath: cache.path) where name.hasSuffix(".spc") {
            try FileManager.default.removeItem(at: cache.appendingPathComponent(name))
        }
        _ = try query("UPDATE feed SET lastUpdate = 0")
        try php(["cli/actualize-user.php", "--user=\(Self.user)"])
    }

    // MARK: - Stopping

    /// Every request the web server answered, as `METHOD /path?query` in the order they came,
    /// across restarts (from `php -S`'s own log lines).
    public var requests: [String] { earlierRequests + Self.requests(in: web) }
    private var earlierRequests: [String] = []

    private static func requests(in server: BackgroundProcess?) -> [String] {
        (server?.lines ?? []).compactMap { line in
            guard let mark = line.text.range(of: "]: ") else { return nil }
            return String(line.text[mark.upperBound...])
        }
    }

    /// Stops the web server (connections are then refused); the data stays for `restart()`.
    public func stop() {
        earlierRequests += Self.requests(in: web)
        web?.kill()
        web = nil
    }

    /// Starts the web server again on the same port, with the same data.
    public func restart() throws {
        stop()
        try start(onNewPort: false)
    }

    /// Starts the web server unless it is running.
    public func ensureRunning() throws {
        if web?.isRunning != true { try restart() }
    }

    /// Stops everything and removes the temporary copy.
    public func shutDown() {
        stop()
        feedServer.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: - Plumbing

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    private var installation: URL { folder.appendingPathComponent("fr") }

    private func install(feeds: [Feed]) throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers/freshrss")
        // cp, not FileManager's copy, which keeps each file's owner and so fails when the checkout
        // belongs to another user; then writable, as a checkout's files may be read-only and
        // FreshRSS writes its data beside its code.
        try run(URL(fileURLWithPath: "/bin/cp"), ["-R", source.path, installation.path])
        try run(URL(fileURLWithPath: "/bin/chmod"), ["-R", "u+w", installation.path])
        // The APIs never use the base URL; the port is not chosen yet.
        try php(["cli/do-install.php", "--default-user=\(Self.user)", "--auth-type=form", "--api-enabled", "--db-type=sqlite",
                 "--base-url=http://127.0.0.1/"])
        try php(["cli/create-user.php", "--user=\(Self.user)", "--password=\(Self.password)", "--api-password=\(Self.apiPassword)"])
        // FreshRSS subscribes a new user to its own releases on github.com, and tests stay off the
        // internet. Its --no-default-feeds option fails at this version (a PHP type error), so the
        // subscription is removed before anything is fetched.
        _ = try query("DELETE FROM feed")
        let outlines = feeds.map { "<outline text=\"\(Feed.escaped($0.title))\" type=\"rss\" xmlUrl=\"\(feedServer.baseURL.absoluteString)\($0.path)\"/>" }
        let opml = folder.appendingPathComponent("feeds.opml")
        try Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\"><head><title>tests</title></head><body>\n"
                  + outlines.joined(separator: "\n") + "\n</body></opml>\n").utf8).write(to: opml)
        try php(["cli/import-for-user.php", "--user=\(Self.user)", "--filename=\(opml.path)"])
        try php(["cli/actualize-user.php", "--user=\(Self.user)"])
    }

    /// Starts PHP's web server: on a free port, another one if something took it meanwhile, or
    /// on the same port as before.
    private func start(onNewPort: Bool) throws {
        var failures: [String] = []
        for _ in 0..<(onNewPort ? 3 : 1) {
            if onNewPort { port = try LoopbackHTTPServer.closedPort() }
            // OPcache off: it keeps a compiled config.php for up to 2 s, so a password the tests
            // change with FreshRSS's own CLI would still be accepted by the next request.
            let server = try BackgroundProcess(executable: URL(fileURLWithPath: Self.php!),
                                               arguments: ["-d", "opcache.enable=0", "-S", "127.0.0.1:\(port)", "-t", "p"],
                                               environment: Self.environment, currentDirectory: installation)
            // PHP says so on stderr once it listens, or why it cannot and exits.
            if server.waitForLine(containing: "started", timeout: 30) != nil {
                web = server
                return
            }
            server.kill()
            failures.append("php -S 127.0.0.1:\(port) did not start:\n\(server.transcript)")
        }
        throw Failure(failures.joined(separator: "\n"))
    }

    /// The environment of every PHP run: nothing of the test's (a proxy variable would send
    /// FreshRSS's feed fetches elsewhere).
    private static let environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"]

    private func php(_ arguments: [String]) throws {
        try run(URL(fileURLWithPath: Self.php!), arguments)
    }

    private func query(_ sql: String) throws -> String {
        try run(URL(fileURLWithPath: Self.sqlite3!), ["-cmd", ".timeout 10000", "-json", database.path, sql])
    }

    /// Runs a program to its end in the installation folder; its standard output, or a failure
    /// with everything it printed.
    @discardableResult
    private func run(_ program: URL, _ arguments: [String]) throws -> String {
        let process = try BackgroundProcess(executable: program, arguments: arguments, environment: Self.environment,
                                            currentDirectory: FileManager.default.fileExists(atPath: installation.path) ? installation : folder)
        guard let exit = process.waitForExit(timeout: 60) else {
            process.kill()
            throw Failure("\(program.lastPathComponent) \(arguments.joined(separator: " ")) did not finish within 60 s")
        }
        guard exit.status == 0, !exit.signalled else {
            throw Failure("\(program.lastPathComponent) \(arguments.joined(separator: " ")) failed (\(exit.status)):\n\(process.transcript)")
        }
        return process.lines.filter { $0.stream == .stdout }.map(\.text).joined(separator: "\n")
    }

    /// FreshRSS keeps titles HTML-escaped (htmlspecialchars); the APIs send them unescaped.
    static func unescaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#039;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
