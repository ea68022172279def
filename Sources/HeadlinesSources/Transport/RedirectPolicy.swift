import FoundationEssentials
import HeadlinesCore

/// Which redirects a transport follows, decided hop by hop so that every hop is checked (a
/// library's automatic following would send the request's headers, API key included, wherever
/// the server points). Pure: the transport hands in the request just answered and the
/// `Location` it resolved, and gets back the next request or the error to end with.
public enum RedirectPolicy {
    /// Redirects followed at most: a loop therefore costs at most six requests.
    public static let maxRedirects = 5

    /// The request for redirect number `hop` (1 for the first) from `request` to `location`.
    /// - Only http and https are followed.
    /// - A request that carries a key stays on its origin (scheme, host and port) and is never
    ///   moved from https to http; otherwise it fails with `.keyRedirected`, the key unsent. An
    ///   upgrade from http to https on the same host is refused too: the port, and so perhaps
    ///   the server, changes, and a keyed http request only ever goes to loopback, where the
    ///   fix is an https base-url, not a hop.
    /// - A user name or password in the Location is dropped: libcurl would turn it into an
    ///   Authorization header with credentials the server chose.
    public static func next(after request: HTTPRequest, to location: URL, hop: Int) -> Result<HTTPRequest, NewsError> {
        guard hop <= maxRedirects else {
            return .failure(.unreachable(detail: "more than \(maxRedirects) redirects"))
        }
        let scheme = location.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https", let host = location.host, !host.isEmpty else {
            return .failure(.unreachable(detail: "redirected to a URL that is not http or https"))
        }
        if request.carriesKey {
            let from = Origin(request.url), to = Origin(location)
            if from.scheme == "https" && to.scheme == "http" {
                return .failure(.keyRedirected(to: to.display, toPlainHTTP: true))
            }
            if from != to {
                return .failure(.keyRedirected(to: to.display, toPlainHTTP: false))
            }
        }
        var next = request
        next.url = location
        if location.user != nil || location.password != nil,
           var parts = URLComponents(url: location, resolvingAgainstBaseURL: false) {
            parts.user = nil
            parts.password = nil
            guard let stripped = parts.url else {
                return .failure(.unreachable(detail: "redirected to an unusable URL"))
            }
            next.url = stripped
        }
        return .success(next)
    }

    /// Scheme, host and port, the unit a browser keeps credentials to.
    struct Origin: Equatable {
        var scheme: String
        var host: String
        var port: Int
        var explicitPort: Bool

        init(_ url: URL) {
            scheme = url.scheme?.lowercased() ?? ""
            host = (url.host ?? "").lowercased()
            explicitPort = url.port != nil
            port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        }

        static func == (a: Origin, b: Origin) -> Bool { a.scheme == b.scheme && a.host == b.host && a.port == b.port }

        /// The host (and the port when the URL named one), safe to print: no control characters.
        var display: String {
            let name = host.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(String.init).joined()
            var clipped = name.count > 80 ? String(name.prefix(79)) + "…" : name
            // An IPv6 literal keeps its brackets, or "::1:8080" would not say where the port starts.
            if clipped.contains(":"), !clipped.hasPrefix("[") { clipped = "[\(clipped)]" }
            return explicitPort ? "\(clipped):\(port)" : clipped
        }
    }
}
