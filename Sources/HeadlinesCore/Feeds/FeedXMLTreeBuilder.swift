import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Turns feed XML into a `FeedXMLElement` tree with FoundationXML's `XMLParser`, namespaces
/// processed, external entities never loaded and entity declarations refused (billion laughs).
/// Elements nested deeper than `maxDepth` are flattened into their ancestor's text, so walking the
/// tree cannot exhaust the stack whatever the document does.
final class FeedXMLTreeBuilder: NSObject, XMLParserDelegate {
    static let maxDepth = 64

    private let baseURL: URL?
    private var stack: [FeedXMLElement] = []
    private var root: FeedXMLElement?
    private var flattenedDepth = 0
    private var failure: FeedError?

    private init(baseURL: URL?) { self.baseURL = baseURL }

    /// Parses `data` (UTF-8, prolog already saying so) into its root element.
    static func parse(_ data: Data, baseURL: URL?) throws(FeedError) -> FeedXMLElement {
        let builder = FeedXMLTreeBuilder(baseURL: baseURL)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let finished = parser.parse()
        if let failure = builder.failure { throw failure }
        if !finished {
            throw FeedError("malformed XML at line \(parser.lineNumber): \(describe(parser.parserError))")
        }
        guard let root = builder.root else { throw FeedError("not a feed: the document has no elements") }
        return root
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        guard stack.count < Self.maxDepth else { flattenedDepth += 1; return }
        let parent = stack.last
        let inherited = parent?.base ?? baseURL
        let base = (attributes["xml:base"] ?? attributes["base"]).flatMap { FeedLinks.resolve($0, against: inherited) } ?? inherited
        let element = FeedXMLElement(namespace: Self.namespace(namespaceURI, qualifiedName), name: elementName,
                                     qualifiedName: qualifiedName ?? elementName, attributes: attributes, base: base)
        if let parent { parent.append(child: element) } else if root == nil { root = element }
        stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if flattenedDepth > 0 { flattenedDepth -= 1; return }
        stack.popLast()?.finish()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack.last?.append(text: string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        stack.last?.append(text: String(decoding: CDATABlock, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        refuseEntities(parser)
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        refuseEntities(parser)
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? { nil }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        // libxml2's XML_WAR_UNDECLARED_ENTITY (27): an undeclared entity under an external DTD, as
        // RSS 0.91's Netscape DOCTYPE has. It is a warning; libxml2 carries on, and so do we.
        // 200-205 are namespace errors (XML_NS_ERR_*), such as a prefix used without its xmlns
        // declaration; libxml2 carries on and `namespace(_:_:)` makes sense of the element.
        let code = (parseError as NSError).code
        if code == 27 || (200...205).contains(code) { return }
        guard failure == nil else { return }
        failure = FeedError("malformed XML at line \(parser.lineNumber): \(Self.describe(parseError))")
    }

    /// Feeds often use `atom:`, `dc:`, `media:` ... without declaring them. Such an element
    /// arrives with no namespace and would pass for a plain RSS element (an undeclared
    /// `atom:link rel="self"` taken for the item's link), so the usual prefixes get their usual
    /// namespace and any other prefix one that matches nothing.
    private static func namespace(_ uri: String?, _ qualifiedName: String?) -> String {
        if let uri, !uri.isEmpty { return uri }
        guard let qualifiedName, let colon = qualifiedName.firstIndex(of: ":") else { return "" }
        let prefix = String(qualifiedName[..<colon])
        return conventionalPrefixes[prefix] ?? "urn:undeclared-prefix:" + prefix
    }

    private static let conventionalPrefixes: [String: String] = [
        "atom": FeedNamespace.atom10, "dc": FeedNamespace.dc, "dcterms": FeedNamespace.dcterms,
        "content": FeedNamespace.content, "media": "http://search.yahoo.com/mrss/",
        "itunes": FeedNamespace.itunes, "rdf": FeedNamespace.rdf,
    ]

    private func refuseEntities(_ parser: XMLParser) {
        if failure == nil { failure = FeedEntityGuard.refusal }
        parser.abortParsing()
    }

    /// libxml2's messages do not reach `XMLParser` on Linux, only its `xmlParserErrors` codes (and
    /// corelibs' `XMLParser.ErrorCode` numbers them differently), so the common ones are named here.
    static func describe(_ error: Error?) -> String {
        guard let error else { return "the parser stopped" }
        let code = (error as NSError).code
        switch code {
        case 4: return "the document is empty"
        case 5: return "the document ends early (truncated?)"
        case 3, 56, 57: return "the document does not start like XML"
        case 9: return "an invalid character"
        case 6...13: return "an invalid character reference"
        case 14...17, 22, 23, 26: return "an entity reference that is undefined or cut short"
        case 31, 32, 81: return "an unsupported character encoding"
        case 38...44: return "a broken attribute"
        case 45: return "an unfinished comment"
        case 63: return "an unfinished CDATA section"
        case 68, 72, 73, 77: return "a broken tag"
        case 76: return "a closing tag does not match its opening tag"
        case 85: return "elements are not properly nested"
        case 86: return "content after the root element"
        default: return "XML error \(code)"
        }
    }
}
