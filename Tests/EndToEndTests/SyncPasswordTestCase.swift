import Foundation
import TestSupport
import XCTest

/// What the sync password tests share: a sealed-off `headlines`, a greader account, a
/// distinctive password, and a real Secret Service when a test asks for one.
class SyncPasswordTestCase: XCTestCase {
    static let password = "pw-Distinct-7Q2xK9"
    static let baseURL = "https://freshrss.example.net/api/greader.php"
    static let greaderConfig = """
        [source]
        provider = greader
        base-url = \(baseURL)
        username = alice

        """

    var cli: CLIRunner!
    private var keyring: PrivateKeyring?

    override func setUpWithError() throws { cli = try CLIRunner() }

    override func tearDown() {
        keyring?.stop()
        cli?.cleanUp()
        keyring = nil
        cli = nil
    }

    /// gnome-keyring-daemon on a private bus, its files under the runner's home folder.
    func startKeyring() throws -> PrivateKeyring {
        let started = try PrivateKeyring(folder: cli.root.appendingPathComponent("keyring-bus"),
                                         home: cli.root.appendingPathComponent("home"), runtime: cli.root.appendingPathComponent("runtime"))
        keyring = started
        return started
    }

    /// The attributes `headlines login` stores the greader account's password under.
    static func attributes(username: String) -> [String: String] {
        ["application": "headlines", "provider": "greader", "base-url": baseURL, "username": username]
    }

    /// `headlines doctor`'s config line, after its label.
    func doctorConfigLine(_ environment: [String: String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let doctor = try cli.run(["doctor"], environment: environment)
        assertNowhere(Self.password, in: [doctor], file: file, line: line)
        let found = doctor.stdoutLines.first { $0.hasPrefix("  config ") }
        XCTAssertNotNil(found, doctor.stdout, file: file, line: line)
        return found ?? ""
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
