import Foundation
import TestSupport
import XCTest

/// What the sync password tests share: a sealed-off `headlines`, a distinctive password, a
/// Miniflux account on a loopback server (whose X-Auth-Token is the password itself, so each
/// request shows exactly which password was found), a greader account for `login` alone, and a
/// real Secret Service when a test asks for one.
class SyncPasswordTestCase: XCTestCase {
    static let password = "pw-Distinct-7Q2xK9"
    static let greaderURL = "https://freshrss.example.net/api/greader.php"
    static let greaderConfig = """
        [source]
        provider = greader
        base-url = \(greaderURL)
        username = alice

        """

    var cli: CLIRunner!
    var server: LoopbackHTTPServer!
    private var keyring: PrivateKeyring?

    override func setUpWithError() throws {
        cli = try CLIRunner()
        server = LoopbackHTTPServer()
        try server.start()
        server.route("/v1/entries", .json(FixturePaths.data("sync/miniflux-entries-empty.json")))
    }

    override func tearDown() {
        keyring?.stop()
        server?.stop()
        cli?.cleanUp()
        (keyring, server, cli) = (nil, nil, nil)
    }

    /// The Miniflux account on the loopback server (an API token: no username), then `extra`.
    func minifluxConfig(_ extra: String = "") -> String {
        "[source]\nprovider = miniflux\nbase-url = \(server.baseURL.absoluteString)\n" + extra
    }

    /// The X-Auth-Token of each request the server got: the password each one signed in with.
    var tokensSent: [String?] { server.requests.map { $0.header("X-Auth-Token") } }

    /// gnome-keyring-daemon on a private bus, its files under the runner's home folder.
    func startKeyring() throws -> PrivateKeyring {
        let started = try PrivateKeyring(folder: cli.root.appendingPathComponent("keyring-bus"),
                                         home: cli.root.appendingPathComponent("home"), runtime: cli.root.appendingPathComponent("runtime"))
        keyring = started
        return started
    }

    /// The attributes `headlines login` stores an account's password under.
    static func attributes(provider: String, baseURL: String, username: String) -> [String: String] {
        ["application": "headlines", "provider": provider, "base-url": baseURL, "username": username]
    }

    /// `headlines doctor`'s config line, after its label.
    func doctorConfigLine(_ environment: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let doctor = try cli.run(["doctor"], environment: environment)
        assertNowhere(Self.password, in: [doctor], file: file, line: line)
        let found = doctor.stdoutLines.first { $0.hasPrefix("  config ") }
        XCTAssertNotNil(found, doctor.stdout, file: file, line: line)
        return found ?? ""
    }

    /// What doctor says of the loopback Miniflux when it took the password from `source`.
    func tookPassword(from source: String) -> String {
        "Miniflux; Miniflux at 127.0.0.1 answered and took the credential for miniflux \(server.baseURL.absoluteString), the password from \(source): 0 unread headlines on its first page"
    }

    /// Fails when `secret` is in any output of these runs, or in any file under the runner's
    /// home and XDG folders (the keyring's own files included: they hold it encrypted).
    func assertNowhere(_ secret: String, in results: [CLIRunner.Result], file: StaticString = #filePath, line: UInt = #line) {
        for result in results {
            XCTAssertFalse(result.stdout.contains(secret), "stdout shows the password: \(result.stdout)", file: file, line: line)
            XCTAssertFalse(result.stderr.contains(secret), "stderr shows the password: \(result.stderr)", file: file, line: line)
        }
        let bytes = Data(secret.utf8)
        for folder in ["home", "config", "cache", "state", "runtime"] {
            let root = cli.root.appendingPathComponent(folder)
            for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) ?? .init() {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                      let data = try? Data(contentsOf: url) else { continue }
                XCTAssertNil(data.range(of: bytes), "\(url.path) holds the password", file: file, line: line)
            }
        }
    }
}
