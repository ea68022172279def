import Foundation
@testable import HeadlinesCore
@testable import HeadlinesSources

// Shared by every fuzz target, compiled by scripts/fuzz.sh into each target against a fuzz build
// of HeadlinesCore made with -enable-testing (so internals are reachable). Not a SwiftPM target.

/// A fixed clock: the parsers take time as a parameter, and a fixed one keeps runs reproducible.
let fuzzNow = Date(timeIntervalSince1970: 1_795_000_000)

/// The input as Data; libFuzzer may hand a null pointer with size 0.
func fuzzData(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
    guard let bytes, count > 0 else { return Data() }
    return Data(bytes: bytes, count: count)
}

/// What the app does with decoded headlines after a fetch: render them and write them to the
/// cache. Touching every field makes sure nothing decoded is a trap waiting for later.
func fuzzConsume(_ headlines: [Headline]) {
    var total = 0
    for h in headlines {
        total &+= h.title.utf8.count &+ h.source.utf8.count &+ h.id.utf8.count
        total &+= h.url.absoluteString.utf8.count &+ (h.imageURL?.absoluteString.utf8.count ?? 0)
        total &+= h.summary?.utf8.count ?? 0
        total &+= Int(h.publishedAt.timeIntervalSince1970.isFinite ? 1 : 0)
    }
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    _ = try? encoder.encode(headlines)
    if total == Int.min { print(total) }
}

/// The status codes a provider answer can come with; the body's length picks one besides 200, so
/// the same body also runs through the error paths (and the Retry-After parsing).
let fuzzStatuses = [200, 201, 204, 301, 304, 400, 401, 403, 404, 418, 429, 500, 502, 503, 504, 0, -1, 999]

func fuzzResponses(_ body: Data) -> [HTTPResponse] {
    let n = body.count
    let retry = ["120", "Wed, 21 Oct 2015 07:28:00 GMT", "-5", "99999999999999999999", "", "soon"][n % 6]
    return [
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: body),
        HTTPResponse(status: fuzzStatuses[n % fuzzStatuses.count], headers: ["Retry-After": retry], body: body),
    ]
}
