import Foundation
import Synchronization
import XCTest

/// An XCTestCase whose tests share one `FreshRSSServer`, started by the class's first test and
/// shut down after its last: starting FreshRSS takes several PHP runs. Its tests must leave the
/// server as they found it, or read what they compare with from its database (`unreadEntries()`),
/// never from what another test left. A subclass says which feeds with `feeds`.
open class FreshRSSTestCase: XCTestCase {
    /// The feeds the class's FreshRSS is subscribed to.
    open class var feeds: [FreshRSSServer.Feed] { [] }

    /// The class's FreshRSS, running.
    public var freshRSS: FreshRSSServer!

    private static let servers = Mutex<[ObjectIdentifier: Result<FreshRSSServer, any Error>]>([:])

    open override func setUpWithError() throws {
        let key = ObjectIdentifier(type(of: self))
        // One start per class: a start that failed fails every test at once instead of retrying.
        let started = try Self.servers.withLock { servers in
            if let started = servers[key] { return started }
            let started = Result { try FreshRSSServer(feeds: Self.feeds) }
            if case let .failure(error) = started, error is XCTSkip { throw error }
            servers[key] = started
            return started
        }
        freshRSS = try started.get()
        // A test that stopped the web server leaves it running again for the next one.
        try freshRSS.ensureRunning()
    }

    open override class func tearDown() {
        let server = servers.withLock { $0.removeValue(forKey: ObjectIdentifier(self)) }
        if case let .success(server)? = server { server.shutDown() }
        super.tearDown()
    }
}
