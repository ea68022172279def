import FoundationEssentials
import HeadlinesCore

/// A source of headlines: builds its request, sends it through a transport, decodes the answer.
/// Errors thrown are always `NewsError`.
public protocol HeadlineProvider: Sendable {
    /// The name people know it by, used in every message: "APITube", "NewsAPI".
    var displayName: String { get }
    /// The environment variable its key comes from, if it takes one.
    var keyVariable: String? { get }
    /// Fetches the current top headlines, newest first. `now` stands in for a missing or bad date.
    func fetch(now: Date) async throws -> [Headline]
    /// The settings to check when an OK answer has no usable headlines, for `NewsError.noHeadlines`.
    var noHeadlinesSetting: String { get }
    /// True when an empty list is the source's real state (a reader account with everything
    /// read), so it replaces the cache; false for public sources, where it means a bad filter.
    var emptyListIsAnAnswer: Bool { get }
    /// `fetch`, plus one sentence per part that failed while the rest succeeded (a feed of several).
    /// Providers with a single request keep the default: no partial failures.
    func fetchWithReport(now: Date) async throws -> FetchReport
    /// The words its failures use and the setting they name: an API, a feed, a JSON document.
    var sourceKind: NewsError.SourceKind { get }
    /// A failure as the one sentence people read: names what failed and the setting that fixes it.
    func failureMessage(_ error: NewsError) -> String
}

/// What one successful fetch brought: the headlines, and the parts that failed beside them, each
/// as one sentence for people that names the part and the fix (no control characters, no key).
public struct FetchReport: Sendable, Equatable {
    public var headlines: [Headline]
    public var partialFailures: [String]
    /// The earliest time any feed is next due (see `ReloadReport.nextDue`); nil for the APIs.
    public var nextDue: Date?
    public init(headlines: [Headline], partialFailures: [String] = [], nextDue: Date? = nil) {
        self.headlines = headlines
        self.partialFailures = partialFailures
        self.nextDue = nextDue
    }
}

extension HeadlineProvider {
    public var noHeadlinesSetting: String { "the [source] settings" }
    public var emptyListIsAnAnswer: Bool { false }
    public var sourceKind: NewsError.SourceKind { .newsAPI }

    public func failureMessage(_ error: NewsError) -> String {
        error.message(provider: displayName, keyVariable: keyVariable, kind: sourceKind)
    }

    public func fetchWithReport(now: Date) async throws -> FetchReport {
        FetchReport(headlines: try await fetch(now: now))
    }

    /// Fetch, with any stray error from a transport turned into a `NewsError`. An OK answer with
    /// no usable headlines is `NewsError.noHeadlines`: real APIs send an empty list for a filter
    /// that matches nothing or a plan that hides everything, and that must not replace a good cache.
    public func fetchHeadlines(now: Date) async throws(NewsError) -> [Headline] {
        try await fetchHeadlinesWithReport(now: now).headlines
    }

    /// `fetchHeadlines`, keeping the partial failures beside the headlines.
    public func fetchHeadlinesWithReport(now: Date) async throws(NewsError) -> FetchReport {
        let report: FetchReport
        do {
            report = try await fetchWithReport(now: now)
        } catch let error as NewsError {
            throw error
        } catch {
            throw NewsError.unreachable(detail: String(describing: type(of: error)))
        }
        guard !report.headlines.isEmpty || emptyListIsAnAnswer else { throw .noHeadlines(setting: noHeadlinesSetting) }
        return report
    }
}

/// Helpers shared by the JSON API providers.
enum ProviderSupport {
    /// Keeps the first headline for each id, newest first.
    /// When a headline was published, as every list and bar shows it: the source's date, but
    /// never later than the fetch (a feed in the wrong time zone, or dated 2099, would otherwise
    /// sort above every other source's headlines and show as new for hours); the fetch time when
    /// the source gives none.
    static func published(_ date: Date?, fetchedAt now: Date) -> Date { min(date ?? now, now) }

    static func newestFirstUnique(_ items: [Headline]) -> [Headline] {
        var seen = Set<String>()
        return items.sorted { $0.publishedAt > $1.publishedAt }.filter { seen.insert($0.id).inserted }
    }

    /// The newest `pageSize` headlines: servers ignore the page size they were sent (a proxy, a
    /// plan change, a `base-url` pointing elsewhere), and more than asked for must not reach the
    /// cache, the timeline or the notifications.
    static func cut(_ headlines: [Headline], toPageSize pageSize: Int) -> [Headline] {
        Array(headlines.prefix(max(1, pageSize)))
    }

    /// A short, key-free description of why a body is not the JSON we expected.
    static func describeUndecodable(_ body: Data, status: Int) -> String {
        let head = body.prefix(256).drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF })
        if body.isEmpty { return "an empty body, HTTP \(status)" }
        if head.first == UInt8(ascii: "<") { return "an HTML page, HTTP \(status)" }
        if head.first == UInt8(ascii: "{") || head.first == UInt8(ascii: "[") { return "truncated or invalid JSON, HTTP \(status)" }
        return "not JSON, HTTP \(status)"
    }

    /// Whether a body that failed to parse is a web page: a doctype or `<html>` first, or served
    /// as text/html. A captive portal or a site's front page where a feed or JSON was expected.
    static func looksLikeHTML(_ body: Data, contentType: String?) -> Bool {
        if let type = contentType?.lowercased(), type.hasPrefix("text/html") || type.hasPrefix("application/xhtml") { return true }
        let head = String(decoding: body.prefix(512), as: UTF8.self).lowercased()
        let start = head.drop(while: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" })
        return start.hasPrefix("<!doctype html") || start.hasPrefix("<html")
            || (start.hasPrefix("<!--") || start.hasPrefix("<?xml")) && head.contains("<html")
    }

    /// A URL from an API field, only when it is an absolute http(s) link. Tabs and line breaks
    /// anywhere in it are removed, as the WHATWG URL parser (every browser) does: APIs that wrap
    /// long links send them, and URL(string:) would percent-encode them into a broken link.
    static func link(_ s: String?) -> URL? {
        guard let s = s.map(withoutTabsOrNewlines)?.trimmed(), !s.isEmpty,
              let url = URL(string: s), URLPolicy.isOpenable(url) else { return nil }
        return url
    }

    /// The text without ASCII tab, line feed and carriage return (by scalar: "\r\n" is one Character).
    static func withoutTabsOrNewlines(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return s }
        return String(String.UnicodeScalarView(s.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }))
    }

    /// When a 429 says to come back: `Retry-After` (seconds or an HTTP date) or `X-RateLimit-Reset`
    /// (epoch seconds, or seconds from now when small).
    static func retryDate(_ response: HTTPResponse, now: Date) -> Date? {
        if let value = response.header("Retry-After")?.trimmed() {
            if let seconds = Double(value), seconds >= 0 { return now.addingTimeInterval(seconds) }
            if let date = RFC822.parse(value) { return date }
        }
        if let value = response.header("X-RateLimit-Reset").flatMap({ Double($0.trimmed()) }) {
            return value > 1_000_000_000 ? Date(timeIntervalSince1970: value) : now.addingTimeInterval(value)
        }
        return nil
    }

    /// The typed error for an HTTP status when the body gave nothing more specific.
    static func error(status: Int, code: String?, message: String?, response: HTTPResponse, now: Date) -> NewsError {
        switch status {
        case 401: return .invalidKey(code: code, message: message)
        case 402, 403: return .forbidden(code: code, message: message)
        case 426: return .planLimit(status: status, code: code, message: message)
        case 429: return .rateLimited(retryAfter: retryDate(response, now: now), code: code, message: message)
        case 500...599: return .serverError(status: status, code: code, message: message)
        default: return .badRequest(status: status, code: code, message: message)
        }
    }
}
