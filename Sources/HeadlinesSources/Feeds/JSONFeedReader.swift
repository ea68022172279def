import FoundationEssentials
import HeadlinesCore

/// JSON Feed 1.0 and 1.1 (https://jsonfeed.org). Lenient where feeds are sloppy: a numeric `id`
/// is read as text, a field of the wrong type is ignored, and one broken item is skipped rather
/// than losing the feed.
enum JSONFeedReader {
    static func read(_ data: Data, baseURL: URL?) throws(FeedError) -> FeedDocument {
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: ServerJSON.decodable(data))
        } catch {
            throw FeedError("malformed JSON: \(describe(error))")
        }
        guard let version = body.version, version.contains("jsonfeed.org/version/") else {
            throw FeedError("not a feed: JSON without a JSON Feed version")
        }
        let feedAuthors = body.authorNames
        return FeedDocument(
            title: FeedText.plain(body.title),
            link: FeedLinks.openable(body.homePageURL, against: baseURL),
            items: (body.items ?? []).compactMap(\.value).map { item in
                let authors = item.authorNames
                return FeedItem(
                    title: FeedText.plain(item.title),
                    link: FeedLinks.openable(item.url, against: baseURL) ?? FeedLinks.openable(item.externalURL, against: baseURL),
                    id: item.id,
                    published: item.datePublished.flatMap(FeedDates.parse),
                    updated: item.dateModified.flatMap(FeedDates.parse),
                    summary: FeedText.summary(item.summary ?? item.contentText ?? item.contentHTML),
                    imageURL: FeedLinks.openable(item.image, against: baseURL) ?? FeedLinks.openable(item.bannerImage, against: baseURL),
                    authors: authors.isEmpty ? feedAuthors : authors)
            })
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.underlyingError.map { "\($0)" } ?? context.debugDescription
        default: return "\(error)"
        }
    }

    private struct Body: Decodable {
        var version, title, homePageURL: String?
        var items: [Lenient<Item>]?
        var authorNames: [String]

        enum CodingKeys: String, CodingKey { case version, title, homePageURL = "home_page_url", items, author, authors }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            version = c.text(.version)
            title = c.text(.title)
            homePageURL = c.text(.homePageURL)
            items = try? c.decodeIfPresent([Lenient<Item>].self, forKey: .items)
            authorNames = c.authorNames(.authors, .author)
        }
    }

    private struct Item: Decodable {
        var id, url, externalURL, title, contentHTML, contentText, summary, image, bannerImage: String?
        var datePublished, dateModified: String?
        var authorNames: [String]

        enum CodingKeys: String, CodingKey {
            case id, url, externalURL = "external_url", title, contentHTML = "content_html", contentText = "content_text"
            case summary, image, bannerImage = "banner_image", datePublished = "date_published"
            case dateModified = "date_modified", author, authors
        }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = c.text(.id)
            url = c.text(.url)
            externalURL = c.text(.externalURL)
            title = c.text(.title)
            contentHTML = c.text(.contentHTML)
            contentText = c.text(.contentText)
            summary = c.text(.summary)
            image = c.text(.image)
            bannerImage = c.text(.bannerImage)
            datePublished = c.text(.datePublished)
            dateModified = c.text(.dateModified)
            authorNames = c.authorNames(.authors, .author)
        }
    }

    fileprivate struct Named: Decodable { var name: String? }

    /// A value that failed to decode becomes nil instead of failing its array.
    private struct Lenient<T: Decodable>: Decodable {
        var value: T?
        init(from decoder: Decoder) throws { value = try? T(from: decoder) }
    }
}

private extension KeyedDecodingContainer {
    /// A string, or a number written as one; nil for anything else.
    func text(_ key: Key) -> String? {
        if let s = try? decodeIfPresent(String.self, forKey: key) { return s }
        if let i = try? decodeIfPresent(Int.self, forKey: key) { return String(i) }
        if let d = try? decodeIfPresent(Double.self, forKey: key) { return String(d) }
        return nil
    }

    /// JSON Feed 1.1's `authors` array, else 1.0's single `author`.
    func authorNames(_ many: Key, _ one: Key) -> [String] {
        let list = (try? decodeIfPresent([JSONFeedReader.Named].self, forKey: many)) ?? nil
        let single = (try? decodeIfPresent(JSONFeedReader.Named.self, forKey: one)) ?? nil
        let names = (list ?? single.map { [$0] } ?? []).compactMap { FeedText.plain($0.name) }
        return FeedText.unique(names)
    }
}
