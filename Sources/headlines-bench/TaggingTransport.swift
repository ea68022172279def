import Foundation
import Synchronization
import HeadlinesCore
import HeadlinesSources

/// Wraps the real transport: names each request in an `X-Bench-Variant` header, so that the
/// server's wire log can be matched to the variant, and remembers the size of the last body
/// (after any gzip decoding).
struct TaggingTransport: HTTPTransport {
    let base: HTTPTransport
    let variant: String
    let lastBody = BodySize()

    func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        var tagged = request
        tagged.headers["X-Bench-Variant"] = variant
        let response = try await base.get(tagged)
        lastBody.set(response.body.count)
        return response
    }

    func getAll(_ requests: [HTTPRequest]) async -> [Result<HTTPResponse, NewsError>] {
        let results = await base.getAll(requests.map { var tagged = $0; tagged.headers["X-Bench-Variant"] = variant; return tagged })
        if case let .success(response)? = results.last { lastBody.set(response.body.count) }
        return results
    }
}

/// The last body size, written by the transport's caller and read by the runner.
final class BodySize: Sendable {
    private let bytes = Mutex(0)

    func set(_ value: Int) { bytes.withLock { $0 = value } }
    var value: Int { bytes.withLock { $0 } }
}
