import FoundationEssentials

/// One element of a parsed feed document: a small tree the RSS and Atom readers walk, with each
/// element's effective `xml:base` already worked out. Built by `XMLDocumentReader`, never shared
/// across threads.
public final class FeedXMLElement {
    /// A run of text or a child element, in document order.
    public enum Part {
        case text(String)
        case element(FeedXMLElement)
    }

    /// The namespace URI; "" for none. A prefix used without its declaration gets its usual
    /// namespace (`atom:`, `dc:`, `media:` ...) or `urn:undeclared-prefix:<prefix>`.
    public let namespace: String
    public let name: String
    /// `prefix:name` as written, or `name`.
    public let qualifiedName: String
    /// Attribute values by name as written (`xml:base`, `rdf:about`, `href`).
    public let attributes: [String: String]
    /// The base for relative URLs inside this element: its `xml:base` resolved against its parent's.
    public let base: URL?
    public private(set) var parts: [Part] = []
    public private(set) var children: [FeedXMLElement] = []
    /// False when the document ended (or the parser stopped) before this element's end tag: a
    /// truncated item is better dropped than shown cut off.
    public private(set) var isComplete = false
    /// Text waiting to become a part: appending to a `Part` would copy it on every chunk.
    private var pendingText = ""

    init(namespace: String, name: String, qualifiedName: String, attributes: [String: String], base: URL?) {
        self.namespace = namespace
        self.name = name
        self.qualifiedName = qualifiedName
        self.attributes = attributes
        self.base = base
    }

    func append(text: String) { pendingText += text }

    func append(child: FeedXMLElement) {
        flushText()
        parts.append(.element(child))
        children.append(child)
    }

    func finish() {
        flushText()
        isComplete = true
    }

    /// For elements still open when the document ends: their text is kept, `isComplete` stays false.
    func abandon() { flushText() }

    private func flushText() {
        guard !pendingText.isEmpty else { return }
        parts.append(.text(pendingText))
        pendingText = ""
    }

    /// All the text inside, descendants included, in document order. The tree's depth is capped by
    /// the reader, so this recursion is bounded.
    public var text: String {
        if parts.count == 1, case .text(let only) = parts[0] { return only }
        var out = ""
        for part in parts {
            switch part {
            case .text(let s): out += s
            case .element(let e): out += e.text
            }
        }
        return out
    }

    /// Text with its surrounding whitespace removed, or nil when there is none.
    public var trimmedText: String? {
        let t = text.trimmingWhitespace
        return t.isEmpty ? nil : t
    }

    /// The attribute's value without surrounding whitespace, or nil when absent or blank.
    public func attribute(_ name: String) -> String? {
        guard let value = attributes[name]?.trimmingWhitespace, !value.isEmpty else { return nil }
        return value
    }

    public func children(_ name: String, in namespaces: Set<String>) -> [FeedXMLElement] {
        children.filter { $0.name == name && namespaces.contains($0.namespace) }
    }

    public func child(_ name: String, in namespaces: Set<String>) -> FeedXMLElement? {
        children.first { $0.name == name && namespaces.contains($0.namespace) }
    }

    public func child(_ name: String, in namespace: String) -> FeedXMLElement? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    /// The first of these children, in the order asked, that has some text.
    public func firstText(_ candidates: [(name: String, namespaces: Set<String>)]) -> String? {
        for (name, namespaces) in candidates {
            for element in children(name, in: namespaces) {
                if let t = element.trimmedText { return t }
            }
        }
        return nil
    }
}
