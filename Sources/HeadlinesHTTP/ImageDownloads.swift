import CCurl  // SOCK_STREAM: in this module the socket headers arrive through curl.h
import FoundationEssentials
import HeadlinesCore
import HeadlinesSources
#if canImport(Glibc)
import Glibc
#endif

/// Downloads headline images for notifications: plain GETs (no API key, no extra header, to
/// whatever origin the feed or API named), http and https only, all in one libcurl batch, each
/// bounded in bytes, the whole step bounded in time. A failure only means that headline has no
/// image.
public struct ImageDownloads: Sendable {
    /// The byte cap of one image; a larger one is dropped, never read whole.
    public var maxBytes = 2 * 1024 * 1024
    /// Seconds for the whole image step: every download, redirects included, and whatever the
    /// caller does with each image as it arrives (decoding, scaling, storing) end by then. An
    /// image not done by then is skipped.
    public var timeout: Double
    /// At most this many images per reload (the page size).
    public var maxImages = 10
    /// True when the source itself is on this machine or its local network (`LocalNetwork`):
    /// then so may its images be. Otherwise no image is fetched from there: not when its URL
    /// names it, not when DNS or a redirect leads there.
    public var localAllowed: Bool
    /// The addresses no image connection may open; nil: the rule `localAllowed` says.
    var refusedAddresses: ConnectRule?

    public init(maxImages: Int = 10, timeout: Double, localAllowed: Bool, maxBytes: Int = 2 * 1024 * 1024) {
        self.maxImages = maxImages
        self.maxBytes = maxBytes
        self.timeout = timeout
        self.localAllowed = localAllowed
    }

    /// The image URLs of a reload's page (its first `pageSize` headlines) that notifications use.
    public static func pageImages(of headlines: [Headline], pageSize: Int) -> [URL] {
        headlines.prefix(max(1, pageSize)).compactMap { h in h.imageURL.flatMap { fetchable($0) ? $0 : nil } }
    }

    /// Whether the image at `url` may be fetched at all.
    public static func fetchable(_ url: URL) -> Bool {
        let scheme = url.scheme?.lowercased() ?? ""
        return (scheme == "http" || scheme == "https") && !(url.host ?? "").isEmpty
    }

    /// Fetches `urls` (the first `maxImages` distinct ones) and hands each body that came back
    /// 200 to `each` as soon as it is here, with the step's deadline for what `each` does with
    /// it. Blocks the calling thread until every download has ended, at the deadline at the latest.
    public func fetch(_ urls: [URL], each: (URL, Data, ContinuousClock.Instant) -> Void) {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(timeout * 1000)))
        var unique: [URL] = []
        for url in urls where Self.fetchable(url) && !unique.contains(url) && unique.count < maxImages { unique.append(url) }
        guard !unique.isEmpty else { return }
        let transport = CurlTransport(limits: TransportLimits(timeout: timeout, maxResponseBytes: maxBytes,
                                                              acceptGzip: false, maxConcurrent: 6))
        let refused = refusedAddresses ?? (localAllowed ? nil : Self.localNetworkRule())
        // `carriesKey: false` and no headers: nothing of the provider's request reaches these.
        withoutActuallyEscaping(each) { each in
            transport.fetch(unique.map { HTTPRequest(url: $0, headers: [:], carriesKey: false) }, until: deadline,
                            refusing: refused) { index, result in
                guard case let .success(response) = result, response.status == 200, !response.body.isEmpty,
                      ContinuousClock.now < deadline else { return }
                each(unique[index], response.body, deadline)
            }
        }
    }

    /// Refuses this machine and its local network: a URL that names it, first or redirected to
    /// (through a proxy, no address check would see where it leads), and a connection to an
    /// address in it, except to the proxies the environment names (a connection to one is to the
    /// proxy the user chose, not to the image's host).
    static func localNetworkRule() -> ConnectRule {
        let proxies = proxyAddresses()
        return ConnectRule(refusesHost: LocalNetwork.named(host:), refuses: { LocalNetwork.contains($0) && !proxies.contains($0) })
    }

    /// The addresses of the proxies libcurl reads from the environment (`http_proxy`,
    /// `https_proxy`/`HTTPS_PROXY`, `all_proxy`/`ALL_PROXY`; "[scheme://][user@]host[:port]",
    /// port 1080 when none is given, as libcurl has it). Resolved only when one is set.
    static func proxyAddresses() -> Set<IPAddress> {
        var found: Set<IPAddress> = []
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { continue }
            var rest = Substring(value)
            var port = "1080"
            if let scheme = value.rangeOfText("://") {
                if value[..<scheme.lowerBound].lowercased() == "https" { port = "443" }
                rest = value[scheme.upperBound...]
            }
            rest = rest.prefix { $0 != "/" }
            if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
            var host = rest
            if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                host = rest[rest.index(after: rest.startIndex)..<close]
                let after = rest[rest.index(after: close)...]
                if after.hasPrefix(":") { port = String(after.dropFirst()) }
            } else if let colon = rest.lastIndex(of: ":") {
                host = rest[..<colon]
                port = String(rest[rest.index(after: colon)...])
            }
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(String(host), port, &hints, &list) == 0 else { continue }
            var entry = list
            while let e = entry {
                if let address = e.pointee.ai_addr, let ip = IPAddress(UnsafeRawPointer(address), length: Int(e.pointee.ai_addrlen)) {
                    found.insert(ip)
                }
                entry = e.pointee.ai_next
            }
            freeaddrinfo(list)
        }
        return found
    }
}
