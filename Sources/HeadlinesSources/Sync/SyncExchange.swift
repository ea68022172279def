import FoundationEssentials
import HeadlinesCore

/// The steps the sync providers share: sending a request that carries the account's credential
/// (all four), reading an answer that should be JSON, writing a form, and making a
/// headline of one of the service's items.
enum SyncExchange {
    /// Sends `request`, which carries a credential: only over https or to loopback. Whatever the
    /// transport throws leaves as a `NewsError`.
    static func send(_ request: HTTPRequest, through transport: HTTPTransport) async throws(NewsError) -> HTTPResponse {
        try request.checkKeyIsSafe()
        do {
            return try await transport.get(request)
        } catch let error as NewsError {
            throw error
        } catch {
            throw .unreachable(detail: String(describing: type(of: error)))
        }
    }

    /// The JSON of an OK answer. An error status is its `NewsError` (no words of the server's: a
    /// service may echo what it was sent); a body that is not JSON is `.malformedResponse`.
    static func json(_ response: HTTPResponse, now: Date) throws(NewsError) -> JSONValue {
        guard (200...299).contains(response.status) else {
            throw ProviderSupport.error(status: response.status, code: nil, message: nil, response: response, now: now)
        }
        guard let root = ProviderSupport.json(response) else { throw .malformedResponse(detail: undecodable(response)) }
        return root
    }

    /// Why a body is not the API's answer, an HTML page named as one (a login page in front of
    /// the API, or a base-url that points at the reader's web pages).
    static func undecodable(_ response: HTTPResponse) -> String {
        ProviderSupport.looksLikeHTML(response.body, contentType: response.header("Content-Type"))
            ? "an HTML page, HTTP \(response.status)" : ProviderSupport.describeUndecodable(response.body, status: response.status)
    }

    /// An `application/x-www-form-urlencoded` body: every byte but RFC 3986's unreserved ones
    /// percent-encoded, so a password with `&`, `=` or `+` arrives as it is.
    static func form(_ fields: [(name: String, value: String)]) -> Data {
        Data(fields.map { formEncoded($0.name) + "=" + formEncoded($0.value) }.joined(separator: "&").utf8)
    }

    static let formHeaders = ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"]

    private static func formEncoded(_ s: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in s.utf8 {
            if (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || "-._~".utf8.contains(b) {
                out.append(b)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A headline from one item: its title and summary made plain text as a feed's are (services
    /// pass on what the feeds wrote, markup and entities included), the link http(s) only, the
    /// source the feed's title or else the link's host. Nil without an id, a title or a link.
    static func headline(id: String?, title: String?, link: URL?, source: String?, published: Date?, summary: String?,
                         now: Date) -> Headline? {
        guard let id, !id.isEmpty, id.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }),
              let title = FeedText.plain(title).map(TextCleaning.plainTitle), !title.isEmpty,
              let link else { return nil }
        let source = FeedText.plain(source).map(TextCleaning.plainTitle).flatMap { $0.isEmpty ? nil : $0 } ?? link.host ?? ""
        let summary = FeedText.summary(summary).map(TextCleaning.plainSummary).flatMap { $0.isEmpty ? nil : $0 }
        return Headline(id: id, title: title, url: link, source: source, publishedAt: ProviderSupport.published(published, fetchedAt: now),
                        summary: summary).bounded()
    }

    /// `ids` without repeats or empty ones, in their order.
    static func unique(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
