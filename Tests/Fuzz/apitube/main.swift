import Foundation
@testable import HeadlinesCore
@testable import HeadlinesSources

// libFuzzer target: APITube top-headlines bodies through `APITubeProvider.decode`.
// A thrown NewsError is a clean outcome; a trap, sanitizer report or >5 s input is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func headlinesFuzzAPITube(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let body = fuzzData(bytes, count)
    for response in fuzzResponses(body) {
        do {
            fuzzConsume(try APITubeProvider.decode(response, now: fuzzNow))
        } catch {
            _ = error.message(provider: "APITube", keyVariable: "APITUBE_API_KEY")
            _ = error.redacting("k3y").retryAfter
        }
    }
    return 0
}
