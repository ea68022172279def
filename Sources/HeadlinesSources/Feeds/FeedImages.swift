import FoundationEssentials
import HeadlinesCore
import FeedXML

/// An item's picture, from whichever element the feed used: Media RSS thumbnails first (sized for
/// a notification), then image `media:content`, then an image enclosure (RSS `<enclosure>` or
/// Atom `rel="enclosure"`), then `itunes:image`. Only http(s) URLs are kept.
enum FeedImages {
    static func image(in item: FeedXMLElement, rss: Set<String> = FeedNamespace.rss) -> URL? {
        let groups = item.children("group", in: FeedNamespace.media)
        let media = [item] + groups
        for holder in media {
            for thumb in holder.children("thumbnail", in: FeedNamespace.media) {
                if let url = FeedLinks.openable(thumb.attribute("url"), against: thumb.base) { return url }
            }
        }
        for holder in media {
            for content in holder.children("content", in: FeedNamespace.media) where isImage(content) {
                if let url = FeedLinks.openable(content.attribute("url"), against: content.base) { return url }
            }
        }
        for enclosure in item.children("enclosure", in: rss) where isImage(enclosure) {
            if let url = FeedLinks.openable(enclosure.attribute("url"), against: enclosure.base) { return url }
        }
        for link in item.children("link", in: [FeedNamespace.atom10, FeedNamespace.atom03])
        where link.attribute("rel") == "enclosure" && isImage(link) {
            if let url = FeedLinks.openable(link.attribute("href"), against: link.base) { return url }
        }
        if let itunes = item.child("image", in: FeedNamespace.itunesVariants) {
            return FeedLinks.openable(itunes.attribute("href"), against: itunes.base)
        }
        return nil
    }

    /// `medium="image"`, an `image/*` type, or with neither, a URL that ends like a picture.
    private static func isImage(_ e: FeedXMLElement) -> Bool {
        if let medium = e.attribute("medium") { return medium.lowercased() == "image" }
        if let type = e.attribute("type") { return type.lowercased().hasPrefix("image/") }
        let path = (e.attribute("url") ?? e.attribute("href") ?? "").lowercased().split(separator: "?").first ?? ""
        return [".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif"].contains { path.hasSuffix($0) }
    }
}
