import Foundation

/// The bench server's record of what it wrote: one JSON object per response, appended before the
/// response goes out, so it is complete by the time the client has its answer.
struct WireLog {
    struct Record: Decodable {
        var variant: String
        var status: Int
        var gzip: Bool
        var header_bytes: Int
        var body_bytes: Int
        var wire_bytes: Int
    }

    let path: String

    /// Every record written for `variant`, oldest first.
    func records(variant: String) -> [Record] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            return []
        }
        let decoder = JSONDecoder()
        return text.split(separator: "\n").compactMap { line in
            try? decoder.decode(Record.self, from: Data(line.utf8))
        }.filter { $0.variant == variant }
    }
}
