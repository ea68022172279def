import HeadlinesGLib
import XCTest

/// Fever's key is what its servers compute: `md5sum` of "user:password" (the values below were
/// printed by `printf 'alice:alice-api-password' | md5sum` and its like).
final class SyncCredentialsTests: XCTestCase {
    func testFeverKeyIsTheHexMD5OfUserColonPassword() {
        XCTAssertEqual(SyncCredentials.feverKey(username: "alice", password: "alice-api-password"), "c6532166d80414901e95084c1cfafa91")
        XCTAssertEqual(SyncCredentials.feverKey(username: "jo", password: "pässwörd:with colon"), "10b6d60bbcb84c935e627852e3ff3d3c")
    }
}
