// `headlines-feedcheck FILE...`: parses each feed file with `FeedParser` and prints one JSON line
// per file, {"file", "items": [{"title", "link", "published", "guid"}]} or {"file", "error"}, for
// scripts/conformance.sh to compare with another parser's output. `published` is the date a
// headline would show (published, else updated), RFC 3339 in UTC without a fraction, or null.
import Foundation
import HeadlinesCore

let rfc3339 = Date.ISO8601FormatStyle()

func line(for path: String) -> [String: Any] {
    guard let data = FileManager.default.contents(atPath: path) else {
        return ["file": path, "error": "cannot read the file"]
    }
    do {
        let feed = try FeedParser.parse(data, baseURL: nil)
        let items: [[String: Any]] = feed.items.map { item in
            [
                "title": item.title ?? NSNull(),
                "link": item.link?.absoluteString ?? NSNull(),
                "published": (item.published ?? item.updated).map { rfc3339.format($0) } ?? NSNull(),
                "guid": item.id ?? NSNull(),
            ]
        }
        return ["file": path, "items": items]
    } catch {
        return ["file": path, "error": error.reason]
    }
}

var status: Int32 = 0
for path in CommandLine.arguments.dropFirst() {
    let object = line(for: path)
    if object["error"] != nil { status = 1 }
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: data, as: UTF8.self))
}
exit(status)
