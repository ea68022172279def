import Foundation
import TestSupport
import XCTest

/// `headlines fetch` with `provider = miniflux` or `nextcloud`, through the real programs: with
/// no credential anywhere (no Secret Service on the sealed-off bus, no password-command or
/// password-file) nothing is sent, and the sentence says where to put one.
final class SyncServiceFetchCommandTests: EndToEndTestCase {
    func testNoCredentialSendsNothingAndNamesTheLoginCommand() throws {
        let bases = ["miniflux": server.baseURL.absoluteString,
                     "nextcloud": server.baseURL.absoluteString + "/index.php/apps/news/api/v1-3"]
        for (provider, name) in [("miniflux", "Miniflux"), ("nextcloud", "Nextcloud News")] {
            // Given a sync service configured without any credential
            try cli.writeConfig("[source]\nprovider = \(provider)\nbase-url = \(bases[provider]!)\nusername = alice\n")

            // When headlines fetches
            let run = try cli.run(["fetch"])

            // Then it fails with one sentence naming the service and `headlines login`
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
            XCTAssertTrue(run.stderr.hasPrefix("headlines: \(name) at 127.0.0.1 has no password to sign in with ("), run.stderr)
            XCTAssertTrue(run.stderr.contains("store it with `headlines login \(provider)`, or set [source] password-command or password-file."), run.stderr)
        }
        // And no request reached the service
        XCTAssertEqual(server.requests.count, 0)
    }
}
