// `headlines-feedcheck FILE...`: parses each feed file with `FeedParser` and prints one JSON line
// per file, {"file", "items": [{"title", "link", "published", "guid"}]} or {"file", "error"}, for
// scripts/conformance.sh and scripts/conformance-realworld.sh to compare with another parser's
// output. `published` is the date a headline would show (published, else updated), RFC 3339 in
// UTC without a fraction, or null; `title` is the title as a headline shows it
// (TextCleaning.plainTitle). Exits 1 when any file was refused, 0 otherwise; anything else (a
// crash, a signal) is what the conformance scripts report as a crash.
import FoundationEssentials
import HeadlinesCore
import HeadlinesSources
#if canImport(Glibc)
import Glibc
#endif

/// One item as the comparison scripts read it; absent values are written as null, not omitted,
/// so a script can tell "we found no link" from "the checker did not say".
struct CheckedItem: Encodable {
    var title: String?
    var link: String?
    var published: String?
    var guid: String?

    enum CodingKeys: String, CodingKey { case title, link, published, guid }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(link, forKey: .link)
        try container.encode(published, forKey: .published)
        try container.encode(guid, forKey: .guid)
    }
}

/// One output line: the items of a file, or the sentence it was refused with.
struct CheckedFile: Encodable {
    var file: String
    var items: [CheckedItem]?
    var error: String?
}

func check(_ path: String) -> CheckedFile {
    guard let data = FileManager.default.contents(atPath: path) else {
        return CheckedFile(file: path, error: "cannot read the file")
    }
    do {
        let feed = try FeedParser.parse(data, baseURL: nil)
        let items = feed.items.map { item in
            CheckedItem(
                title: item.title.map(TextCleaning.plainTitle),  // the title a headline shows
                link: item.link?.absoluteString,
                published: (item.published ?? item.updated).map { ISO8601.format($0, milliseconds: false) },
                guid: item.id)
        }
        return CheckedFile(file: path, items: items)
    } catch {
        return CheckedFile(file: path, error: error.reason)
    }
}

let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
var status: Int32 = 0
for path in CommandLine.arguments.dropFirst() {
    let result = check(path)
    if result.error != nil { status = 1 }
    let line = try encoder.encode(result)
    print(String(decoding: line, as: UTF8.self))
}
exit(status)
