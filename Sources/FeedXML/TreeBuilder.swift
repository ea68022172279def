internal import CLibXML2
import FoundationEssentials

/// The SAX2 side of `XMLDocumentReader`: libxml2's callbacks, for one parse on one thread, turned
/// into `FeedXMLElement`s. Reached from a callback through the parse context's `_private`.
final class TreeBuilder {
    private let baseURL: URL?
    private var open = OpenElements()
    private var root: FeedXMLElement?
    var refusedEntities = false
    var doctypeName: String?
    private var truncatedAtLine: Int?
    private var firstError: String?

    init(baseURL: URL?) { self.baseURL = baseURL }

    static func from(_ ctx: UnsafeMutableRawPointer?) -> TreeBuilder? {
        guard let opaque = ctx?.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return nil }
        return Unmanaged<TreeBuilder>.fromOpaque(opaque).takeUnretainedValue()
    }

    func finish() -> FeedXMLDocument {
        open.abandonAll()
        return FeedXMLDocument(root: root, doctypeName: doctypeName, truncatedAtLine: truncatedAtLine, firstError: firstError)
    }

    // MARK: Callbacks

    func start(_ localname: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?,
               _ attributeCount: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        open.startTag()
        guard !open.flattens() else { return }
        guard root == nil || !open.isEmpty else { return }  // a second root in recovery mode
        let name = string(localname)
        let prefix = prefix.map { String(cString: $0) }
        let qualifiedName = prefix.map { $0 + ":" + name } ?? name
        var values: [String: String] = [:]
        if let attributes {
            for k in 0..<attributeCount {
                // Five pointers each: localname, prefix, URI, value start, value end.
                let a = attributes + 5 * k
                let local = string(a[0])
                let key = a[1].map { String(cString: $0) + ":" + local } ?? local
                guard let start = a[3], let end = a[4] else { values[key] = ""; continue }
                values[key] = Self.attributeValue(UnsafeBufferPointer(start: start, count: end - start))
            }
        }
        let parent = open.innermost
        let inherited = parent?.base ?? baseURL
        let base = (values["xml:base"]).flatMap { Self.resolve($0, against: inherited) } ?? inherited
        let element = FeedXMLElement(namespace: Self.namespace(uri, prefix), name: name, qualifiedName: qualifiedName,
                                     attributes: values, base: base)
        if let parent { parent.append(child: element) } else { root = element }
        open.push(element)
    }

    func end(_ localname: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?) { open.endTag(localname, prefix) }

    func text(_ chars: UnsafePointer<xmlChar>?, _ length: Int) {
        guard let chars, length > 0 else { return }
        let bytes = UnsafeBufferPointer(start: chars, count: length)
        open.text(bytes)
        open.innermost?.append(text: String(decoding: bytes, as: UTF8.self))
    }

    func record(_ error: xmlError) {
        // Warnings and namespace errors (a prefix used without its xmlns) never matter: the
        // element arrives with its prefix and `namespace(_:_:)` makes sense of it.
        guard error.level == XML_ERR_FATAL || error.level == XML_ERR_ERROR,
              error.domain != Int32(XML_FROM_NAMESPACE.rawValue) else { return }
        let code = Int(error.code)
        let line = Int(error.line)
        if code == Int(XML_ERR_TAG_NAME_MISMATCH.rawValue) { open.endTagMismatched(error.str2.map { String(cString: $0) } ?? "") }
        // The same code without a name is an end tag's missing `>`, which drops nothing.
        if code == Int(XML_ERR_GT_REQUIRED.rawValue), error.str1 != nil { open.startTagUnfinished() }
        if code == Int(XML_ERR_TAG_NOT_FINISHED.rawValue) || code == Int(XML_ERR_DOCUMENT_END.rawValue) {
            truncatedAtLine = truncatedAtLine ?? line
        }
        if firstError == nil { firstError = "malformed XML at line \(line): \(Self.describe(code))" }
    }

    // MARK: Helpers

    private func string(_ p: UnsafePointer<xmlChar>?) -> String { p.map { String(cString: $0) } ?? "" }

    /// Without XML_PARSE_NOENT libxml2 hands `&` in attribute values on as `&#38;` (for a DOM
    /// builder to re-parse); every other reference is already decoded, and the cleanup pass leaves
    /// no named one, so undoing that one is exact.
    ///
    /// On the bytes, which say the same as Characters while every `&#38` stands among ASCII
    /// bytes (a scalar beside it could join it into another Character, or be U+037E, a `;`).
    static func attributeValue(_ bytes: UnsafeBufferPointer<xmlChar>) -> String {
        let s = String(decoding: bytes, as: UTF8.self)
        let utf8 = Array(s.utf8)
        func byCharacters() -> String { s.contains("&#38;") ? s.replacing("&#38;", with: "&") : s }
        var out: [UInt8] = []
        var copied = 0
        var i = 0
        while let k = ASCII.find("&#38", in: utf8, from: i) {
            let after = k + 4
            guard k == 0 || utf8[k - 1] < 0x80, after == utf8.count || utf8[after] < 0x80 else { return byCharacters() }
            guard after < utf8.count, utf8[after] == UInt8(ascii: ";") else { i = after; continue }
            guard after + 1 == utf8.count || utf8[after + 1] < 0x80 else { return byCharacters() }
            out.append(contentsOf: utf8[copied..<k])
            out.append(UInt8(ascii: "&"))
            copied = after + 1
            i = copied
        }
        guard copied > 0 else { return s }
        out.append(contentsOf: utf8[copied...])
        return String(decoding: out, as: UTF8.self)
    }

    private static func resolve(_ raw: String, against base: URL?) -> URL? {
        let trimmed = raw.trimmingWhitespace
        guard !trimmed.isEmpty, let url = URL(string: trimmed, relativeTo: base) else { return nil }
        return URL(string: url.absoluteString)
    }

    /// Feeds often use `atom:`, `dc:`, `media:` ... without declaring them. Such an element
    /// arrives with no namespace and would pass for a plain RSS element (an undeclared
    /// `atom:link rel="self"` taken for the item's link), so the usual prefixes get their usual
    /// namespace and any other prefix one that matches nothing.
    private static func namespace(_ uri: UnsafePointer<xmlChar>?, _ prefix: String?) -> String {
        if let uri, uri.pointee != 0 { return String(cString: uri) }
        guard let prefix else { return "" }
        return conventionalPrefixes[prefix] ?? "urn:undeclared-prefix:" + prefix
    }

    private static let conventionalPrefixes: [String: String] = [
        "atom": "http://www.w3.org/2005/Atom", "dc": "http://purl.org/dc/elements/1.1/",
        "dcterms": "http://purl.org/dc/terms/", "content": "http://purl.org/rss/1.0/modules/content/",
        "media": "http://search.yahoo.com/mrss/", "itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd",
        "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    ]

    /// libxml2's messages are English for developers; the common codes get a sentence for people.
    static func describe(_ code: Int) -> String {
        switch code {
        case 4: return "no element where the document should start (is it XML at all?)"
        case 5, 77: return "the document ends early (truncated?)"
        case 3, 56, 57: return "the document does not start like XML"
        case 9: return "an invalid character"
        case 6...13: return "an invalid character reference"
        case 14...17, 22, 23, 26: return "an entity reference that is undefined or cut short"
        case 31, 32, 81: return "an unsupported character encoding"
        case 38...44: return "a broken attribute"
        case 45: return "an unfinished comment"
        case 63: return "an unfinished CDATA section"
        case 68, 72, 73: return "a broken tag"
        case 76: return "a closing tag does not match its opening tag"
        case 85: return "elements are not properly nested"
        case 86: return "content after the root element"
        case 1: return "elements nested too deeply"
        default: return "XML error \(code)"
        }
    }
}
