import Foundation
import XCTest

/// An XCTestCase with one `LoopbackHTTPServer` started before each test and stopped after it,
/// and `url(_:)` for a path on it: the setup every transport test shares.
open class LoopbackServerTestCase: XCTestCase {
    public var server: LoopbackHTTPServer!

    open override func setUpWithError() throws {
        server = LoopbackHTTPServer()
        try server.start()
    }

    open override func tearDown() {
        server?.stop()
        server = nil
    }

    /// `path` ("/feed.rss") on the loopback server.
    public func url(_ path: String) -> URL { server.baseURL.appendingPathComponent(String(path.dropFirst())) }
}
