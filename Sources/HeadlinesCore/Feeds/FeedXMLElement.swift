import Foundation

/// One element of a parsed feed document: a small tree the RSS and Atom readers walk, with each
/// element's effective `xml:base` already worked out. Built by `FeedXMLTreeBuilder`, never shared
/// across threads.
final class FeedXMLElement {
    enum Part {
        case text(String)
        case element(FeedXMLElement)
    }

    let namespace: String
    let name: String
    let qualifiedName: String
    let attributes: [String: String]
    /// The base for relative URLs inside this element: its `xml:base` resolved against its parent's.
    let base: URL?
    private(set) var parts: [Part] = []
    private(set) var children: [FeedXMLElement] = []
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

    func finish() { flushText() }

    private func flushText() {
        guard !pendingText.isEmpty else { return }
        parts.append(.text(pendingText))
        pendingText = ""
    }

    /// All the text inside, descendants included, in document order. The tree's depth is capped by
    /// the builder, so this recursion is bounded.
    var text: String {
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
    var trimmedText: String? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return t.isEmpty ? nil : t
    }

    func attribute(_ name: String) -> String? {
        guard let value = attributes[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            return nil
        }
        return value
    }

    func children(_ name: String, in namespaces: Set<String>) -> [FeedXMLElement] {
        children.filter { $0.name == name && namespaces.contains($0.namespace) }
    }

    func child(_ name: String, in namespaces: Set<String>) -> FeedXMLElement? {
        children.first { $0.name == name && namespaces.contains($0.namespace) }
    }

    func child(_ name: String, in namespace: String) -> FeedXMLElement? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    /// The first of these children, in the order asked, that has some text.
    func firstText(_ candidates: [(name: String, namespaces: Set<String>)]) -> String? {
        for (name, namespaces) in candidates {
            for element in children(name, in: namespaces) {
                if let t = element.trimmedText { return t }
            }
        }
        return nil
    }
}
