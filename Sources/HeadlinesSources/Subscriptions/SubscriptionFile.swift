import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCore

/// A subscription file read and parsed: OPML (told by an `<opml` root, whatever the file is
/// called) or else a newsboat `urls` file. Read with bounds: a regular file only (a FIFO or a
/// device is refused without blocking), at most `maxBytes`.
public struct SubscriptionFile: Equatable, Sendable {
    public enum Format: String, Sendable { case opml = "OPML", newsboat = "newsboat urls" }

    /// Larger than any real subscription list (10,000 feeds of OPML is about 2 MB; 1 MiB is some
    /// 5,000), small enough that a wrong path (a log, a disk image) costs nothing.
    public static let maxBytes = 1024 * 1024

    public var format: Format
    public var subscriptions: [Subscription]
    /// One sentence per line or outline that was skipped, naming it.
    public var warnings: [String]

    /// Reads `path`. `setting` is what the person should check when the file is wrong
    /// ("[source] feeds-from", "the path given to headlines import").
    public static func read(path: String, setting: String,
                            fileSystem: any StateFileSystem = PosixFileSystem()) throws(SubscriptionError) -> SubscriptionFile {
        let shown = TerminalText.safe(path)
        let data: Data?
        do { data = try fileSystem.read(path, limit: maxBytes) } catch let error as NotARegularFile {
            throw SubscriptionError("\(shown) is \(error.kind), not a regular file; check \(setting) (it takes an OPML or newsboat urls file).")
        } catch is StateFileTooLarge {
            throw SubscriptionError("\(shown) is larger than 1 MiB, too large for a subscription list; check \(setting) (it takes an OPML or newsboat urls file).")
        } catch let error as SystemError {
            throw SubscriptionError("\(shown) could not be read (\(String(cString: strerror(error.errno)))); check \(setting) and the file's permissions.")
        } catch {
            throw SubscriptionError("\(shown) could not be read; check \(setting).")
        }
        guard let data else { throw SubscriptionError("\(shown) does not exist; check \(setting).") }
        return try parse(data, name: shown)
    }

    /// Parses bytes already read; `name` names the file in every sentence.
    public static func parse(_ data: Data, name: String) throws(SubscriptionError) -> SubscriptionFile {
        if isOPML(data) {
            let (found, warnings) = try OPMLReader.read(data, name: name)
            return SubscriptionFile(format: .opml, subscriptions: found, warnings: warnings)
        }
        let text = String(decoding: data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...], as: UTF8.self)
        let (found, warnings) = NewsboatURLsReader.read(text.replacing("\r\n", with: "\n"), name: name)
        return SubscriptionFile(format: .newsboat, subscriptions: found, warnings: warnings)
    }

    /// XML (a `<` first, after a byte-order mark and blanks) is read as OPML: `OPMLReader` then
    /// says so when its root is something else. A newsboat line can never start with `<`.
    static func isOPML(_ data: Data) -> Bool {
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        return body.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) == UInt8(ascii: "<")
    }

    /// The feeds carrying one of `tags` (every feed when `tags` is empty). No feed at all, or none
    /// with those tags, is an error that names the tags the file does have.
    public func selecting(tags: [String], name: String, setting: String) throws(SubscriptionError) -> [Subscription] {
        let shown = TerminalText.safe(name)
        guard !subscriptions.isEmpty else {
            let what = format == .opml ? "no outline with an http or https xmlUrl" : "no line with an http or https URL"
            throw SubscriptionError("\(shown) has no feeds (\(what)); check \(setting).")
        }
        guard !tags.isEmpty else { return subscriptions }
        let chosen = subscriptions.filter { $0.isTagged(tags) }
        guard chosen.isEmpty else { return chosen }
        let asked = tags.map { "#" + TerminalText.safe($0) }.joined(separator: ", ")
        let have = allTags
        let offer = have.isEmpty ? "it has no tags at all, so drop the #tag" : "its tags are " + have.map { TerminalText.safe($0) }.joined(separator: ", ")
        throw SubscriptionError("\(shown) has no feeds tagged \(asked); \(offer).")
    }

    /// Every tag in the file, each once (first spelling), in the order first seen.
    public var allTags: [String] {
        var seen = Set<String>()
        var out: [String] = []
        for tag in subscriptions.flatMap(\.tags) where seen.insert(tag.lowercased()).inserted { out.append(tag) }
        return out
    }
}
