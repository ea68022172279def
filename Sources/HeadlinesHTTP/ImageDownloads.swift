import FoundationEssentials
import HeadlinesCore
import HeadlinesSources

/// Downloads headline images for notifications: plain GETs (no API key, no extra header, to
/// whatever origin the feed or API named), http and https only, all in one libcurl batch, each
/// bounded in bytes and time. A failure only means that headline has no image.
public struct ImageDownloads: Sendable {
    /// The byte cap of one image; a larger one is dropped, never read whole.
    public var maxBytes = 2 * 1024 * 1024
    /// Seconds for the whole batch (they run at once), redirects included.
    public var timeout: Double = 5
    /// At most this many images per reload (the page size).
    public var maxImages = 10

    public init(maxImages: Int = 10, maxBytes: Int = 2 * 1024 * 1024, timeout: Double = 5) {
        self.maxImages = maxImages
        self.maxBytes = maxBytes
        self.timeout = timeout
    }

    /// Whether the image at `url` may be fetched at all.
    /// The image URLs of a reload's page (its first `pageSize` headlines) that notifications use.
    public static func pageImages(of headlines: [Headline], pageSize: Int) -> [URL] {
        headlines.prefix(max(1, pageSize)).compactMap { h in h.imageURL.flatMap { fetchable($0) ? $0 : nil } }
    }

    public static func fetchable(_ url: URL) -> Bool {
        let scheme = url.scheme?.lowercased() ?? ""
        return (scheme == "http" || scheme == "https") && !(url.host ?? "").isEmpty
    }

    /// The bodies that came back 200 with an image-ish answer, by URL. Blocks the calling thread
    /// for at most `timeout` seconds.
    public func fetch(_ urls: [URL]) -> [URL: Data] {
        var unique: [URL] = []
        for url in urls where Self.fetchable(url) && !unique.contains(url) && unique.count < maxImages { unique.append(url) }
        guard !unique.isEmpty else { return [:] }
        let transport = CurlTransport(limits: TransportLimits(timeout: timeout, maxResponseBytes: maxBytes,
                                                              acceptGzip: false, maxConcurrent: 6))
        // `carriesKey: false` and no headers: nothing of the provider's request reaches these.
        let results = transport.fetch(unique.map { HTTPRequest(url: $0, headers: [:], carriesKey: false) })
        var bodies: [URL: Data] = [:]
        for (url, result) in zip(unique, results) {
            guard case let .success(response) = result, response.status == 200, !response.body.isEmpty else { continue }
            bodies[url] = response.body
        }
        return bodies
    }
}
