import Foundation
import TestSupport
import XCTest

/// A real FreshRSS on loopback, read through its Google Reader and Fever APIs by the real
/// `headlines`, host and reload child: the unread list, one request per reload, read marks both
/// ways (an open reaches FreshRSS's database, an item read there leaves the list), a mark made
/// while FreshRSS is down applied once it is back, a wrong password, and the password nowhere.
final class SyncServiceHostTests: HostTestCase {
    private var freshRSS: FreshRSSServer!
    private let newest = Date().addingTimeInterval(-3600)

    override func setUpWithError() throws {
        try super.setUpWithError()
        freshRSS = try FreshRSSServer(feeds: FreshRSSServer.Feed.numbered(2, itemsEach: 4, newest: newest))
    }

    override func tearDown() {
        freshRSS?.shutDown()
        freshRSS = nil
        super.tearDown()
    }

    /// The config: `provider` on the class's FreshRSS, its API password in a 0600 file.
    private func writeSyncConfig(_ provider: String, password: String = FreshRSSServer.apiPassword,
                                 interval: String = "1h") throws {
        let file = cli.root.appendingPathComponent("freshrss-password")
        try password.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let base = provider == "fever" ? freshRSS.feverURL : freshRSS.greaderURL
        try cli.writeConfig("""
            [source]
            provider=\(provider)
            base-url=\(base.absoluteString)
            username=\(FreshRSSServer.user)
            password-file=\(file.path)
            timeout=10s
            [refresh]
            interval=\(interval)
            daily-budget=200
            [notify]
            enabled=false

            """, at: configFile)
    }

    /// FreshRSS's unread titles, newest first: what every list must show.
    private func unreadTitles() throws -> [String] {
        try freshRSS.unreadEntries().sorted { ($0.published, $0.id) > ($1.published, $1.id) }.map(\.title)
    }

    /// The titles `headlines list --json` shows.
    private func listedTitles() throws -> [String] {
        let list = try run(["list", "--json"])
        let items = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
        return items.compactMap { $0["title"] as? String }
    }

    /// `headlines run`, once it owns the bus name: a `refresh` sooner would have the bus start
    /// a second host, and this one would step aside.
    private func startHostOnTheBus() throws -> BackgroundProcess {
        let host = try startHost()
        XCTAssertNotNil(waitUntil(timeout: 20) { self.bus.hostIsOnTheBus }, "the host never took its bus name")
        return host
    }

    /// One more reload, asked on the bus (queued behind one still finishing, where `refresh`
    /// would wait for that one instead), and its end seen in the host's log.
    private func reloadAndWait(_ host: BackgroundProcess) throws {
        let ended = { host.lines(containing: "reload ok").count + host.lines(containing: "reload failed").count }
        let before = ended()
        try reloadOverBus()
        guard waitUntil(timeout: 30, { ended() > before }) != nil else {
            XCTFail("no reload ended within 30 s:\n\(host.transcript)")
            throw Stop()
        }
        XCTAssertTrue(host.lines.last { $0.text.contains("reload ok") || $0.text.contains("reload failed") }?.text.contains("reload ok") == true,
                      host.transcript)
    }

    private func requests(_ fragment: String) -> [String] { freshRSS.requests.filter { $0.contains(fragment) } }

    /// Waits for the request log to hold `count` lines with `fragment` (php -S logs each one as it ends).
    @discardableResult
    private func waitForRequests(_ fragment: String, _ count: Int, timeout: TimeInterval = 10) -> Bool {
        waitUntil(timeout: timeout) { self.requests(fragment).count >= count } != nil
    }

    func testGReaderUnreadListOneRequestPerReloadAndReadMarksBothWays() throws {
        try writeSyncConfig("greader")
        // `headlines fetch` lists exactly FreshRSS's unread items, newest first
        let fetched = try run(["fetch"])
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        XCTAssertEqual(try listedTitles(), try unreadTitles())

        // A host: its first reload signs in and reads the stream; a refresh reads the stream
        // alone, with the token the host kept in memory. The cache `fetch` wrote is fresh, so the
        // host's first reload is one asked for.
        let host = try startHostOnTheBus()
        try reloadAndWait(host)
        XCTAssertTrue(waitForRequests("/reader/api/0/stream/contents", 2), "\(freshRSS.requests)")
        let signIns = requests("accounts/ClientLogin").count
        XCTAssertEqual(signIns, 2, "one for fetch, one for the host's first reload: \(freshRSS.requests)")
        try reloadAndWait(host)
        XCTAssertTrue(waitForRequests("/reader/api/0/stream/contents", 3), "\(freshRSS.requests)")
        XCTAssertEqual(requests("accounts/ClientLogin").count, signIns, "a refresh signed in again: \(freshRSS.requests)")

        // `headlines open 1` marks the first headline read in FreshRSS
        let opened = cli.root.appendingPathComponent("opened.txt")
        _ = try installFakeBrowser(opened: opened)
        let first = try freshRSS.unreadEntries().sorted { ($0.published, $0.id) > ($1.published, $1.id) }[0]
        XCTAssertEqual(try run(["open", "1"]).status, 0)
        XCTAssertFalse(browserOpened(opened).isEmpty, "the browser never ran")
        XCTAssertNotNil(waitUntil(timeout: 15) { (try? self.freshRSS.isRead(first.id)) == true }, "not read in FreshRSS")
        // And the widget document says so until the next reload drops it
        let widget = cli.root.appendingPathComponent("runtime/headlines/bar/widget.json")
        let document = (try? String(contentsOf: widget, encoding: .utf8)) ?? ""
        XCTAssertTrue(document.contains(#""read":true"#) && document.contains(#""read":false"#), document)

        // An item read in FreshRSS leaves the list at the next reload
        let second = try freshRSS.unreadEntries().sorted { ($0.published, $0.id) > ($1.published, $1.id) }[0]
        try freshRSS.setRead([second.id])
        try reloadAndWait(host)
        XCTAssertNotNil(waitUntil(timeout: 10) { (try? self.listedTitles()) == (try? self.unreadTitles()) },
                        "listed \((try? listedTitles()) ?? []), unread \((try? unreadTitles()) ?? [])")
        XCTAssertFalse(try listedTitles().contains(second.title))
    }

    func testAMarkMadeWhileFreshRSSIsDownIsAppliedOnceItIsBack() throws {
        try markWhileDown("greader", markRequest: "/reader/api/0/edit-tag", streamRequest: "/reader/api/0/stream/contents")
    }

    func testAFeverMarkMadeWhileFreshRSSIsDownIsAppliedOnceItIsBack() throws {
        try markWhileDown("fever", markRequest: "mark=item", streamRequest: "unread_item_ids")
    }

    /// Opens the newest headline while FreshRSS is stopped, restarts it, reloads twice: the mark
    /// reaches FreshRSS in exactly one `markRequest`.
    private func markWhileDown(_ provider: String, markRequest: String, streamRequest: String) throws {
        try writeSyncConfig(provider)
        let host = try startHostOnTheBus()
        try expectLine("reload ok", from: host, within: 20)
        _ = try listedAfterReload()
        let opened = cli.root.appendingPathComponent("opened.txt")
        _ = try installFakeBrowser(opened: opened)
        let first = try freshRSS.unreadEntries().sorted { ($0.published, $0.id) > ($1.published, $1.id) }[0]

        // When FreshRSS is down, the headline is opened: the browser opens it, the mark waits
        freshRSS.stop()
        XCTAssertEqual(try run(["open", "1"]).status, 0)
        XCTAssertFalse(browserOpened(opened).isEmpty, "the browser never ran")
        let marks = cli.stateHome.appendingPathComponent("headlines/read-marks.json")
        XCTAssertNotNil(waitUntil(timeout: 10) { ((try? String(contentsOf: marks, encoding: .utf8)) ?? "").contains("\"pending\":[\"") },
                        "no mark queued: \((try? String(contentsOf: marks, encoding: .utf8)) ?? "none")")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(try freshRSS.isRead(first.id))

        // Then FreshRSS comes back and the next reload sends it, once
        try freshRSS.restart()
        try reloadAndWait(host)
        XCTAssertNotNil(waitUntil(timeout: 10) { (try? self.freshRSS.isRead(first.id)) == true }, "never read in FreshRSS")
        try reloadAndWait(host)
        XCTAssertTrue(waitForRequests(streamRequest, 3))
        XCTAssertEqual(requests(markRequest).count, 1, "\(freshRSS.requests)")
        XCTAssertFalse(((try? String(contentsOf: marks, encoding: .utf8)) ?? "").contains("\"pending\":[\""))
    }

    func testFeverUnreadListAndOpenMarksRead() throws {
        try writeSyncConfig("fever")
        let fetched = try run(["fetch"])
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        XCTAssertEqual(try listedTitles(), try unreadTitles())

        // The cache `fetch` wrote is fresh: the host's first reload is one asked for.
        let host = try startHostOnTheBus()
        try reloadAndWait(host)
        let opened = cli.root.appendingPathComponent("opened.txt")
        _ = try installFakeBrowser(opened: opened)
        let first = try freshRSS.unreadEntries().sorted { ($0.published, $0.id) > ($1.published, $1.id) }[0]
        XCTAssertEqual(try run(["open", "1"]).status, 0)
        XCTAssertNotNil(waitUntil(timeout: 15) { (try? self.freshRSS.isRead(first.id)) == true }, "not read in FreshRSS")

        // An item read in FreshRSS leaves the list at the next reload
        let second = try freshRSS.unreadEntries().sorted { ($0.published, $0.id) > ($1.published, $1.id) }[0]
        try freshRSS.setRead([second.id])
        try reloadAndWait(host)
        XCTAssertNotNil(waitUntil(timeout: 10) { (try? self.listedTitles()) == (try? self.unreadTitles()) },
                        "listed \((try? listedTitles()) ?? []), unread \((try? unreadTitles()) ?? [])")
        XCTAssertFalse(try listedTitles().contains(second.title))
    }

    func testARefusedTokenIsRenewedInTheSameReload() throws {
        // Given a host holding the token of a first sign-in
        try writeSyncConfig("greader")
        let host = try startHostOnTheBus()
        try expectLine("reload ok", from: host, within: 20)
        XCTAssertTrue(waitForRequests("/reader/api/0/stream/contents", 1))
        // When the API password changes (the kept token is refused from then on), and the
        // password file with it
        try freshRSS.setAPIPassword("a-new-api-password")
        let file = cli.root.appendingPathComponent("freshrss-password")
        try "a-new-api-password".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let signIns = requests("accounts/ClientLogin").count
        let mark = host.mark
        // Then that one reload succeeds: the refused stream request, one sign-in, the stream again
        try reloadAndWait(host)
        XCTAssertEqual(host.lines(containing: "reload failed", after: mark).count, 0, host.transcript)
        XCTAssertTrue(waitForRequests("/reader/api/0/stream/contents", 3), "\(freshRSS.requests)")
        XCTAssertEqual(requests("accounts/ClientLogin").count, signIns + 1, "\(freshRSS.requests)")
    }

    func testAWrongPasswordIsOneSentenceKeepsTheCacheAndSignsInOncePerReload() throws {
        try writeSyncConfig("greader")
        XCTAssertEqual(try run(["fetch"]).status, 0)
        let cache = cli.cacheHome.appendingPathComponent("headlines/headlines.json")
        let kept = try Data(contentsOf: cache)

        // When the password is wrong
        try writeSyncConfig("greader", password: "not-the-password", interval: "2s")
        let fetched = try run(["fetch"])

        // Then one sentence naming the service and what to do, a failure, the cache as it was
        XCTAssertNotEqual(fetched.status, 0)
        let sentence = fetched.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(sentence.split(separator: "\n").count, 1, sentence)
        XCTAssertTrue(sentence.contains("refused the sign-in") && sentence.contains("headlines login greader"), sentence)
        XCTAssertEqual(try Data(contentsOf: cache), kept)

        // And a host reloading every 2 s signs in at most once per reload
        let before = requests("accounts/ClientLogin").count
        let host = try startHostOnTheBus()
        try expectLine("reload failed", from: host, within: 20)
        Thread.sleep(forTimeInterval: 7)
        let reloads = host.lines(containing: "reload failed").count
        let signIns = requests("accounts/ClientLogin").count - before
        XCTAssertGreaterThanOrEqual(signIns, 1)
        XCTAssertLessThanOrEqual(signIns, reloads, "\(signIns) sign-ins in \(reloads) reloads")
        XCTAssertEqual(try Data(contentsOf: cache), kept)
    }

    func testThePasswordAndTokenAreNowhere() throws {
        try writeSyncConfig("greader")
        let host = try startHostOnTheBus()
        try expectLine("reload ok", from: host, within: 20)
        _ = try listedAfterReload()
        let opened = cli.root.appendingPathComponent("opened.txt"), browserEnvironment = cli.root.appendingPathComponent("browser.env")
        _ = try installFakeBrowser(opened: opened, environmentTo: browserEnvironment)
        XCTAssertEqual(try run(["open", "1"]).status, 0)
        XCTAssertFalse(browserOpened(opened).isEmpty)
        let status = try run(["status"]), doctor = try run(["doctor"])

        // What FreshRSS's sign-in hands out for this password: the token the host keeps
        let token = try freshRSSToken()
        let secrets = [FreshRSSServer.apiPassword, token]
        // Not in any file of the test's XDG folders but the password file itself
        let passwordFile = cli.root.appendingPathComponent("freshrss-password").path
        for folder in [cli.configHome, cli.cacheHome, cli.stateHome, cli.root.appendingPathComponent("runtime"), cli.root.appendingPathComponent("home")] {
            for file in FileManager.default.enumerator(atPath: folder.path)?.compactMap({ $0 as? String }) ?? [] {
                let path = folder.appendingPathComponent(file).path
                guard path != passwordFile, let data = FileManager.default.contents(atPath: path) else { continue }
                let text = String(decoding: data, as: UTF8.self)
                for secret in secrets { XCTAssertFalse(text.contains(secret), "\(path) holds a secret") }
            }
        }
        // Nor in the host's output, status, doctor, the browser's environment, or the
        // command line and environment of the host
        var texts = host.lines.map(\.text) + [status.stdout, status.stderr, doctor.stdout, doctor.stderr]
        texts.append((try? String(contentsOf: browserEnvironment, encoding: .utf8)) ?? "")
        for name in ["cmdline", "environ"] {
            let data = FileManager.default.contents(atPath: "/proc/\(host.pid)/\(name)") ?? Data()
            texts.append(String(decoding: data, as: UTF8.self))
        }
        XCTAssertTrue(doctor.stdout.contains("took the credential"), doctor.stdout)
        for text in texts { for secret in secrets { XCTAssertFalse(text.contains(secret), "a secret in: \(text.prefix(300))") } }
    }

    /// The token FreshRSS's ClientLogin gives for the test user (the same at every sign-in).
    private func freshRSSToken() throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let form = "Email=\(FreshRSSServer.user)&Passwd=\(FreshRSSServer.apiPassword)"
        let url = freshRSS.greaderURL.appendingPathComponent("accounts/ClientLogin").absoluteString
        process.arguments = ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], sys.argv[2].encode()).read().decode())",
                             url, form]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Auth=") }) else {
            XCTFail("FreshRSS gave no token: \(text)")
            return "no token"
        }
        return String(line.dropFirst(5))
    }
}
