import Foundation
import TestSupport
import XCTest

/// A FIFO at every file the host reads (ledger, seen set, muted sources, status, cache, rotation
/// offset): the host names each one, reloads ok without them, and still stops at once on SIGTERM
/// (an open(2) blocked on a FIFO would ignore it).
final class FIFOAtStateFileHostTests: HostTestCase {
    func testAFIFOAtEveryStateFileIsNamedAndTheHostStillStops() throws {
        // Given a FIFO where each file should be
        try writeConfig(interval: "1h", dailyBudget: 20)
        let files = ["state/headlines/ledger.json", "state/headlines/seen.json", "state/headlines/muted.json",
                     "state/headlines/status.json", "cache/headlines/headlines.json", "runtime/headlines/offset.json"]
        for file in files {
            let url = cli.root.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            XCTAssertEqual(mkfifo(url.path, 0o600), 0, file)
        }

        // When a host starts on them and reloads
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 20)

        // Then it names each one as no regular file, and a SIGTERM ends it at once with 0
        for file in files {
            let name = (file as NSString).lastPathComponent
            let said = host.waitForLine(timeout: 5) { $0.contains(name) && ($0.contains("FIFO") || $0.contains("not a regular file")) }
            XCTAssertNotNil(said, "nothing said about \(file): \(host.transcript)")
        }
        assertStopsQuickly(host, "a host on FIFOs")
    }
}
