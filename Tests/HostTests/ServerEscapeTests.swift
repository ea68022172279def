import Foundation
import TestSupport
import XCTest

/// An API error message carrying terminal escapes (clear screen, an OSC 52 clipboard write, an
/// OSC 8 link) reaches no terminal and no log raw: `fetch`'s stderr, `status`, `refresh` and the
/// host's log all show it with the controls replaced.
final class ServerEscapeTests: HostTestCase {
    /// ESC [2J, OSC 52 (clipboard), OSC 8 (a link), a BEL and a C1 CSI (U+009B), as JSON escapes.
    private let hostileMessage = #"\u001b[2J\u001b]52;c;cm0gLXJmIH4=\u0007see \u001b]8;;https://evil.example/\u001b\\here\u001b]8;;\u001b\\ \u009b31m"#

    override func setUpWithError() throws {
        try super.setUpWithError()
        let body = #"{"status":"not_ok","request_id":"r-1","errors":[{"status":401,"code":"ER0175","message":"\#(hostileMessage)"}]}"#
        server.route(Self.path, .respond(status: 401, headers: ["Content-Type": "application/json"], body: Data(body.utf8)))
        try writeConfig(interval: "1h", dailyBudget: 10)
    }

    private func assertClean(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let controls = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
        XCTAssertTrue(controls.isEmpty, "\(what) carries controls \(controls.map { String($0.value, radix: 16) }): \(text.debugDescription)",
                      file: file, line: line)
        XCTAssertTrue(text.contains("ER0175"), "\(what) lost the error itself: \(text)", file: file, line: line)
    }

    func testFetchStatusAndRefreshShowTheServerMessageWithoutEscapes() throws {
        let fetch = try run(["fetch"])
        XCTAssertNotEqual(fetch.status, 0)
        assertClean(fetch.stderr, "fetch's stderr")

        let status = try run(["status"])
        XCTAssertTrue(status.stdout.contains("Last error"), status.stdout)
        assertClean(status.stdout, "status")

        let refresh = try run(["refresh"])
        assertClean(refresh.stdout + refresh.stderr, "refresh")
    }

    func testHostLogAndRefreshThroughTheHostShowTheServerMessageWithoutEscapes() throws {
        let host = try startHost(verbose: true)
        guard host.waitForLine(containing: "ER0175", stream: .stderr, timeout: 15) != nil else {
            return XCTFail("the host logged no failure: \(host.transcript)")
        }
        // `refresh` through the host: the host's answer (its last result) reaches the terminal clean too
        let refresh = try run(["refresh"])
        assertClean(refresh.stdout + refresh.stderr, "refresh through the host")
        _ = host.kill()
        let log = host.lines.filter { $0.stream == .stderr }.map(\.text).joined(separator: "\n")
        assertClean(log, "the host log")
    }
}
