import FoundationEssentials
import HeadlinesCore
import HeadlinesSources

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
        let refused = refusedAddresses ?? (localAllowed ? nil : ConnectRule.localNetwork())
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
}
