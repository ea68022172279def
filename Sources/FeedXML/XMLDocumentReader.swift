internal import CLibXML2
import FoundationEssentials

/// A parsed document: its root element (nil when there was none) and what the DOCTYPE named.
public struct FeedXMLDocument {
    public let root: FeedXMLElement?
    /// The DOCTYPE's root name, lowercased (`html` for `<!DOCTYPE html>`), or nil.
    public let doctypeName: String?
    /// Set when the body ended inside an element (a truncated download): the line it ended on.
    public let truncatedAtLine: Int?
    /// The first error libxml2 recovered from or stopped at, worded for people, with its line.
    public let firstError: String?
}

/// Feed bytes to a `FeedXMLElement` tree with libxml2, liberal where real feeds are sloppy and
/// strict where it matters for safety.
///
/// libxml2's SAX2 interface through `xmlCtxtReadMemory` rather than a DOM (`xmlReadMemory` and a
/// walk) or `xmlTextReader`: the callbacks build the small tree the readers need directly, so no
/// second full tree of libxml2 nodes is ever held (a 4 MiB feed would be tens of MB of xmlNodes),
/// there is nothing to free but the context, and the entity-declaration callback can stop the
/// parse before a single entity is expanded.
///
/// Safety: `XML_PARSE_NONET`; never `XML_PARSE_NOENT`, `XML_PARSE_DTDLOAD`, `XML_PARSE_DTDVALID`
/// or `XML_PARSE_HUGE` (so libxml2's own limits hold: depth 256, 10 MB per text node); no
/// external-subset, entity-resolving or XInclude callback is installed, so nothing is read from
/// disk or the network. A document that declares entities (`<!ENTITY`, internal or external,
/// general or parameter: billion laughs, quadratic blowup, XXE) is refused at the first
/// declaration, before any reference to it is parsed: refusing costs real feeds nothing, where
/// expanding within a bound would still let a feed pull in text it did not write. Errors go to a
/// no-op structured handler on the parse context, never to stderr; libxml2 recovers from
/// ill-formed markup (`XML_PARSE_RECOVER`) and namespace errors are never fatal.
public enum XMLDocumentReader {
    /// Elements nested deeper than this are flattened into their ancestor's text, so walking the
    /// tree cannot exhaust the stack whatever the document does.
    public static let maxDepth = 64

    static let options = Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue
        | XML_PARSE_NOERROR.rawValue | XML_PARSE_IGNORE_ENC.rawValue)

    /// Parses `data`, whose charset is decided as `FeedCharset` says (`contentType` is the HTTP
    /// header's value, for its charset).
    public static func parse(_ data: Data, contentType: String? = nil, baseURL: URL?) throws(FeedXMLError) -> FeedXMLDocument {
        _ = initialized
        let bytes = FeedXMLCleanup.clean(FeedCharset.utf8([UInt8](data), contentType: contentType))
        guard bytes.count < Int(Int32.max) else { throw FeedXMLError("the document is too large") }
        guard let ctxt = xmlNewParserCtxt() else { throw FeedXMLError("out of memory") }
        defer { xmlFreeParserCtxt(ctxt) }
        let builder = TreeBuilder(baseURL: baseURL)
        let unmanaged = Unmanaged.passRetained(builder)
        defer { unmanaged.release() }
        ctxt.pointee._private = unmanaged.toOpaque()
        installHandlers(ctxt.pointee.sax)
        let doc = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                xmlCtxtReadMemory(ctxt, chars.baseAddress, Int32(chars.count), nil, "UTF-8", options)
            }
        }
        // No callback builds libxml2 nodes, but free whatever the parser may have made.
        if let doc { xmlFreeDoc(doc) }
        if let leftover = ctxt.pointee.myDoc { xmlFreeDoc(leftover); ctxt.pointee.myDoc = nil }
        if builder.refusedEntities { throw FeedXMLError.declaresEntities }
        return builder.finish()
    }

    /// libxml2 2.9's global set-up is not safe to race; Swift runs a static initialiser once.
    private static let initialized: Void = xmlInitParser()

    /// Only the callbacks the tree needs; everything else (external subset, entity resolution,
    /// processing instructions, comments) stays nil and is skipped.
    private static func installHandlers(_ sax: UnsafeMutablePointer<xmlSAXHandler>?) {
        guard let sax else { return }
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.getEntity = xmlSAX2GetEntity  // predefined entities only: declarations are refused
        handler.startElementNs = { ctx, localname, prefix, uri, _, _, attributeCount, _, attributes in
            TreeBuilder.from(ctx)?.start(localname, prefix, uri, Int(attributeCount), attributes)
        }
        handler.endElementNs = { ctx, localname, prefix, _ in TreeBuilder.from(ctx)?.end(localname, prefix) }
        handler.characters = { ctx, chars, length in TreeBuilder.from(ctx)?.text(chars, Int(length)) }
        handler.cdataBlock = { ctx, chars, length in TreeBuilder.from(ctx)?.text(chars, Int(length)) }
        handler.entityDecl = { ctx, _, _, _, _, _ in
            TreeBuilder.from(ctx)?.refusedEntities = true
            xmlStopParser(ctx?.assumingMemoryBound(to: xmlParserCtxt.self))
        }
        handler.internalSubset = { ctx, name, _, _ in
            TreeBuilder.from(ctx)?.doctypeName = name.map { String(cString: $0).lowercased() }
        }
        handler.serror = { ctx, error in
            guard let error else { return }
            TreeBuilder.from(ctx)?.record(error.pointee)
        }
        sax.pointee = handler
    }
}
