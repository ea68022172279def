import Foundation
import TestSupport
import XCTest

/// Every keyed provider refuses to send its key over plain http to a host that is not loopback,
/// before any connection.
final class PlainHTTPKeyTests: EndToEndTestCase {
    func testEveryKeyedProviderRefusesPlainHTTPToANonLoopbackHost() throws {
        // 0.0.0.0 is not a loopback name, yet on Linux a connect to it reaches this server: a
        // request that slipped past the refusal would show up in `server.requests`.
        let target = "http://0.0.0.0:\(server.baseURL.port!)"
        let keys = ["APITUBE_API_KEY": Self.apitubeKey, "NEWSAPI_API_KEY": Self.newsapiKey, "GUARDIAN_API_KEY": "gu-SECRET-1",
                    "NYT_API_KEY": "ny-SECRET-2", "GNEWS_API_KEY": "gn-SECRET-3"]
        for provider in ["apitube", "newsapi", "guardian", "nyt", "gnews"] {
            let run = try cli.run(["fetch", "--provider", provider, "--base-url", target], environment: keys)
            XCTAssertEqual(run.status, 1, "\(provider): \(run.stderr)")
            XCTAssertEqual(run.stderrLines.count, 1, "\(provider): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("headlines: Refusing to send the ") && run.stderr.contains(" API key over plain http to 0.0.0.0"),
                          "\(provider): \(run.stderr)")
            for key in keys.values { XCTAssertFalse(run.stderr.contains(key), "\(provider): \(run.stderr)") }
        }
        XCTAssertEqual(server.requests.map(\.description), [], "a keyed request was sent over plain http")
    }
}
