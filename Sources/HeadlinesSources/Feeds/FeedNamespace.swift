/// The XML namespaces a feed reader meets, by the prefix feeds usually give them.
enum FeedNamespace {
    static let rss090 = "http://my.netscape.com/rdf/simple/0.9/"
    static let rss10 = "http://purl.org/rss/1.0/"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let atom10 = "http://www.w3.org/2005/Atom"
    static let atom03 = "http://purl.org/atom/ns#"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let dcterms = "http://purl.org/dc/terms/"
    static let content = "http://purl.org/rss/1.0/modules/content/"
    static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    /// RSS 1.0's syndication module: `sy:updatePeriod`, `sy:updateFrequency`.
    static let sy = "http://purl.org/rss/1.0/modules/syndication/"

    /// RSS elements: none in 0.91/0.92/2.0, the RSS 1.0 or 0.90 namespace inside RDF.
    static let rss: Set<String> = ["", rss090, rss10]
    static let atom: Set<String> = [atom10]
    /// Media RSS is written with and without the trailing slash.
    static let media: Set<String> = ["http://search.yahoo.com/mrss/", "http://search.yahoo.com/mrss"]
    /// iTunes' namespace is case-insensitive in practice: Apple's own documents use `DTDs`.
    static let itunesVariants: Set<String> = [itunes, "http://www.itunes.com/DTDs/PodCast-1.0.dtd",
                                              "http://www.itunes.com/DTDs/Podcast-1.0.dtd"]
}
