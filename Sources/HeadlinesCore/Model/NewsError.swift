import FoundationEssentials

/// Every way a refresh can fail, typed where it arises. `message(provider:)` turns it into the
/// one sentence a person reads. No case ever carries the API key.
public enum NewsError: Error, Equatable, Sendable, Codable {
    /// No key was configured for a provider that needs one.
    case missingKey(envVariable: String)
    /// The server rejected the key (401, APITube ER0175/ER0230, NewsAPI apiKeyInvalid ...).
    case invalidKey(code: String?, message: String?)
    /// The key is valid but not allowed to do this (403, plan limits, disabled key).
    case forbidden(code: String?, message: String?)
    /// Too many requests; `retryAfter` is when the server says to come back, if it said.
    case rateLimited(retryAfter: Date?, code: String?, message: String?)
    /// The server failed (5xx).
    case serverError(status: Int, code: String?, message: String?)
    /// The request asks for more than the plan gives: NewsAPI's HTTP 426 (maximumResultsReached),
    /// APITube's ER0171 (per_page) and ER0173 (page).
    case planLimit(status: Int, code: String?, message: String?)
    /// The server refused the request itself (4xx other than the above, bad parameters).
    case badRequest(status: Int, code: String?, message: String?)
    /// The body was not what the API sends: HTML, truncated or invalid JSON, wrong shape.
    case malformedResponse(detail: String)
    /// The body passed the size cap.
    case responseTooLarge(limit: Int)
    /// The request timed out.
    case timedOut(seconds: Double)
    /// The server could not be reached (refused, unresolvable, reset ...).
    case unreachable(detail: String)
    /// A request carrying a key was about to go over plain http to a non-loopback host.
    case insecureTransport(host: String)
    /// The server redirected a request that carries a key to another origin (`to` names its host
    /// and any explicit port), or from https to plain http: the key was not sent there.
    case keyRedirected(to: String, toPlainHTTP: Bool)
    /// The server answered OK but with no headlines we can show (an empty list, or none with a
    /// title and an http(s) link). Counted as a failure so a good cache is kept, marked stale.
    /// `setting` names what to check, such as "[source] country, category and query".
    case noHeadlines(setting: String)
    /// A sync service's password was found nowhere (Secret Service, password-command,
    /// password-file), or its source failed; `detail` says which, never the password.
    case missingCredential(detail: String)

    /// A request kept off this machine and its local network (`ConnectRule` in HeadlinesHTTP):
    /// nothing was sent. One value, so that `add` can tell it from a server that is down.
    public static let localNetwork = NewsError.unreachable(detail: "on this machine or its local network")

    /// The server's own words, when it gave a code and message.
    public var serverDetail: String {
        let (code, message): (String?, String?)
        switch self {
        case let .invalidKey(c, m), let .forbidden(c, m), let .rateLimited(_, c, m),
             let .serverError(_, c, m), let .badRequest(_, c, m), let .planLimit(_, c, m):
            (code, message) = (c, m)
        default:
            return ""
        }
        var parts: [String] = []
        if let code, !code.isEmpty { parts.append(code) }
        if let message, !message.isEmpty { parts.append(Self.clip(message)) }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ": ") + ")"
    }

    private static func clip(_ s: String) -> String {
        let flat = s.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > 160 ? String(flat.prefix(159)) + "…" : flat
    }

    /// What kind of source failed: it decides the words (an API's JSON, a feed, a JSON document)
    /// and the setting a message names to fix a wrong address.
    public enum SourceKind: Sendable, Equatable {
        /// A keyed news API (APITube, NewsAPI): `[source] base-url`.
        case newsAPI
        /// An RSS, Atom or JSON Feed: `[source] feeds`.
        case feed
        /// `provider = json`: `[source] url`.
        case jsonAPI
        /// A sync service (`provider = greader` ...): `[source] base-url`; `login` is the
        /// provider's name in `headlines login NAME`.
        case syncService(login: String)

        /// The setting that holds the address that failed.
        public var urlSetting: String {
            switch self {
            case .newsAPI, .syncService: "[source] base-url"
            case .feed: "the feed URL in [source] feeds"
            case .jsonAPI: "[source] url"
            }
        }
    }

    /// One sentence naming the provider, the cause and what to do, in the words of `kind`.
    /// Always ends with exactly one period.
    public func message(provider: String, keyVariable: String? = nil, kind: SourceKind = .newsAPI) -> String {
        let keyHint = keyVariable.map { "check \($0) or api-key-file" } ?? "check the API key"
        let fixURL = "check \(kind.urlSetting)"
        switch (self, kind) {
        case let (.missingKey(env), _):
            return "\(provider) needs an API key: set \(env) or [source] api-key-file, or use a keyless feed provider."
        case let (.missingCredential(detail), .syncService(login)):
            return "\(provider) has no password to sign in with (\(Self.clause(detail))): store it with `headlines login \(login)`, or set [source] password-command or password-file."
        case let (.missingCredential(detail), _):
            return "\(provider) has no password to sign in with (\(Self.clause(detail)))."
        case let (.invalidKey, .syncService(login)):
            return "\(provider) refused the sign-in\(serverDetail): check [source] username, then store the password again with `headlines login \(login)` (or fix password-command or password-file)."
        case let (.forbidden, .syncService(login)) where login == "greader" || login == "fever":
            return "\(provider) refused access (HTTP 403)\(serverDetail): check that the account may use the API (FreshRSS: enable API access and set an API password in its profile)."
        case (.forbidden, .syncService):
            return "\(provider) refused access (HTTP 403)\(serverDetail): check that the account may use the API."
        case (.invalidKey, .newsAPI):
            return "\(provider) rejected the API key\(serverDetail): \(keyHint)."
        case (.invalidKey, _):
            return "\(provider) asks for a login (HTTP 401)\(serverDetail): \(fixURL) (sources that need one are not supported)."
        case (.forbidden, .newsAPI):
            return "\(provider) refused the request\(serverDetail): check that your plan allows it."
        case (.forbidden, _):
            return "\(provider) refused access (HTTP 403)\(serverDetail): \(fixURL)."
        case let (.rateLimited(retryAfter, _, _), _):
            let when = retryAfter.map { " until \(LocalTime.stamp($0))" } ?? ""
            return "\(provider) is rate-limiting requests\(serverDetail): wait\(when) or lower [refresh] daily-budget."
        case let (.serverError(status, _, _), _):
            return "\(provider) had a server error (HTTP \(status))\(serverDetail): try again later."
        case let (.planLimit(status, _, _), .newsAPI):
            return "\(provider) refused the request under your plan (HTTP \(status))\(serverDetail): lower [source] page-size or check what your plan allows."
        case let (.badRequest(status, _, _), _) where status == 404 || status == 410:
            return "\(provider) was not found (\(status))\(serverDetail): \(fixURL)."
        case let (.badRequest(status, _, _), .newsAPI):
            return "\(provider) refused the request (HTTP \(status))\(serverDetail): check the [source] settings."
        case let (.badRequest(status, _, _), _), let (.planLimit(status, _, _), _):
            return "\(provider) refused the request (HTTP \(status))\(serverDetail): \(fixURL)."
        case let (.malformedResponse(detail), .newsAPI):
            return "\(provider) sent a response that is not its API's JSON (\(Self.clause(detail))): check [source] base-url or try again later."
        case let (.malformedResponse(detail), .feed):
            if Self.isHTMLPage(detail) { return "\(provider) is an HTML page, not a feed: \(fixURL)." }
            return "\(provider) is not a feed we can read (\(Self.clause(detail))): \(fixURL)."
        case let (.malformedResponse(detail), .syncService):
            if Self.isHTMLPage(detail) { return "\(provider) sent an HTML page where its API answers JSON (a login page or the wrong address): check [source] base-url." }
            return "\(provider) sent a response that is not its API's (\(Self.clause(detail))): check [source] base-url or try again later."
        case let (.malformedResponse(detail), .jsonAPI):
            if Self.isHTMLPage(detail) { return "\(provider) sent an HTML page, not JSON: \(fixURL)." }
            return "\(provider) sent a response we cannot use (\(Self.clause(detail))): \(fixURL) and [source] items-path."
        case let (.responseTooLarge(limit), _):
            return "\(provider) sent more than \(limit / 1024) KiB: \(fixURL)."
        case let (.timedOut(seconds), _):
            return "\(provider) did not answer within \(Int(seconds)) s: check the network or raise [source] timeout."
        case let (.unreachable(detail), _):
            return "\(provider) could not be reached (\(Self.clause(detail))): check the network and \(kind.urlSetting)."
        case let (.insecureTransport(host), _):
            return "Refusing to send the \(provider) API key over plain http to \(host): use an https base-url."
        case let (.keyRedirected(host, toPlainHTTP), _):
            let target = toPlainHTTP ? "plain http at \(host)" : host
            return "\(provider) redirected to \(target); the API key was not sent there: \(fixURL)."
        case let (.noHeadlines(setting), _):
            return "\(provider) returned no headlines: check \(Self.clause(setting))."
        }
    }

    /// Text placed inside a sentence: without a final period, so the sentence never ends "..".
    public static func clause(_ s: String) -> String {
        var t = Substring(s)
        while t.last == "." || t.last == " " { t = t.dropLast() }
        return String(t)
    }

    /// The feed reader's and the JSON sniffer's words for a web page where data was expected.
    static func isHTMLPage(_ detail: String) -> Bool {
        detail.hasPrefix("an HTML page") || detail.contains("the document's root is <html>")
    }

    /// The same error with every occurrence of `secret` in the server's words replaced, as it is
    /// and percent-encoded (a server that echoes its request URL echoes a query key that way).
    public func redacting(_ secret: String?) -> NewsError {
        guard let secret, !secret.isEmpty else { return self }
        let forms = [secret, Self.percentEncoded(secret)]
        func r(_ s: String?) -> String? { s.map { text in forms.reduce(text) { $0.replacingAll($1, with: "[redacted]") } } }
        switch self {
        case let .invalidKey(c, m): return .invalidKey(code: r(c), message: r(m))
        case let .forbidden(c, m): return .forbidden(code: r(c), message: r(m))
        case let .rateLimited(d, c, m): return .rateLimited(retryAfter: d, code: r(c), message: r(m))
        case let .serverError(s, c, m): return .serverError(status: s, code: r(c), message: r(m))
        case let .badRequest(s, c, m): return .badRequest(status: s, code: r(c), message: r(m))
        case let .planLimit(s, c, m): return .planLimit(status: s, code: r(c), message: r(m))
        default: return self
        }
    }

    /// RFC 3986's unreserved characters kept, every other UTF-8 byte as %XX.
    static func percentEncoded(_ s: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var out = ""
        for b in s.utf8 {
            if (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || "-._~".utf8.contains(b) {
                out.append(Character(UnicodeScalar(b)))
            } else {
                out += "%" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 0xF)])
            }
        }
        return out
    }

    /// When the server asked us not to come back before a date.
    public var retryAfter: Date? {
        if case let .rateLimited(date, _, _) = self { return date }
        return nil
    }
}
