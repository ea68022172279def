import Foundation
@testable import HeadlinesCore
@testable import HeadlinesSources

// libFuzzer target: NewsAPI top-headlines bodies through `NewsAPIProvider.decode`.
// A thrown NewsError is a clean outcome; a trap, sanitizer report or >5 s input is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func headlinesFuzzNewsAPI(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let body = fuzzData(bytes, count)
    for response in fuzzResponses(body) {
        do {
            fuzzConsume(try NewsAPIProvider.decode(response, now: fuzzNow))
        } catch {
            _ = error.message(provider: "NewsAPI", keyVariable: "NEWSAPI_API_KEY")
            _ = error.redacting("k3y").retryAfter
        }
    }
    return 0
}
