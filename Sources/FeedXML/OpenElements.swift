internal import CLibXML2

/// The elements open at this point of a parse, nested the way the feed's author meant where the
/// markup is ill-formed.
///
/// In recovery libxml2 answers every end tag by closing its innermost open element, whatever the
/// tag says. Followed as is, one element left unclosed (`<br>`, an HTML-style
/// `<itunes:image href='...'>`) would swallow every item after it, and one stray `</b>` would close
/// the title around it and push the item's link out of the item. So here:
/// - an end tag closes the nearest open element of its name, with any left open inside it;
/// - an end tag that names no open element closes nothing when text follows it (a stray `</b>`),
///   and closes the innermost element, as libxml2 does, when markup follows it (a misspelt
///   `</descriptoin>` before `<link>`); the real end tag of an element closed that way, if it
///   comes later, then closes nothing;
/// - an element whose start tag libxml2 gave up on is dropped, as libxml2 drops it.
struct OpenElements {
    private var elements: [FeedXMLElement] = []
    /// Elements past `XMLDocumentReader.maxDepth`, which are not in the tree.
    private var flattened = 0
    private var lastStart = LastStart.none
    /// How the current end tag was written, when libxml2 reported it did not match.
    private var mismatchedEndTag: String?
    private var strayEndTagPending = false
    private var closedByStrayEndTag: FeedXMLElement?

    private enum LastStart { case none, pushed, flattened }

    var innermost: FeedXMLElement? { elements.last }
    var isEmpty: Bool { elements.isEmpty }

    /// Called at each start tag before its element is made (`innermost` is then its parent).
    mutating func startTag() {
        lastStart = .none
        if strayEndTagPending, let misspelt = elements.popLast() {
            misspelt.finish()
            closedByStrayEndTag = misspelt
        }
        strayEndTagPending = false
    }

    /// Whether a start tag here is past the depth cap: then it is counted, and not in the tree.
    mutating func flattens() -> Bool {
        guard elements.count >= XMLDocumentReader.maxDepth else { return false }
        flattened += 1
        lastStart = .flattened
        return true
    }

    mutating func push(_ element: FeedXMLElement) {
        elements.append(element)
        lastStart = .pushed
    }

    mutating func text(_ chars: UnsafeBufferPointer<xmlChar>) {
        lastStart = .none
        if strayEndTagPending, !chars.allSatisfy(ASCII.isSpace) { strayEndTagPending = false }
    }

    /// libxml2's "Opening and ending tag mismatch": the end callback that follows names the
    /// innermost element, not `written`. libxml2 gives the local name alone when the open element
    /// has a prefix, and the name as written otherwise.
    mutating func endTagMismatched(_ written: String) { mismatchedEndTag = written }

    /// libxml2's "Couldn't find end of Start Tag" (an attribute cut short by a quote inside it,
    /// such as `href='sam's.jpg'`): it has dropped the element it just started, without an end
    /// callback, and reads what follows as the parent's content.
    mutating func startTagUnfinished() {
        switch lastStart {
        case .pushed: elements.popLast()?.abandon()
        case .flattened: flattened -= 1
        case .none: break
        }
        lastStart = .none
    }

    mutating func endTag(_ localname: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?) {
        lastStart = .none
        let mismatched = mismatchedEndTag
        mismatchedEndTag = nil
        if flattened > 0 { flattened -= 1; return }
        // The usual case, a tag that names the innermost element, makes no strings.
        if mismatched == nil, let last = elements.last, let localname,
           last.name.withCString({ xmlStrEqual(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self), localname) != 0 }) {
            elements.removeLast().finish()
            strayEndTagPending = false
            return
        }
        let written = mismatched ?? (prefix.map { String(cString: $0) + ":" } ?? "") + (localname.map { String(cString: $0) } ?? "")
        if let index = elements.lastIndex(where: { Self.is($0, named: written) }) {
            while elements.count > index { elements.removeLast().finish() }
            strayEndTagPending = false
        } else if let closed = closedByStrayEndTag, Self.is(closed, named: written) {
            closedByStrayEndTag = nil
        } else {
            strayEndTagPending = true
        }
    }

    /// The elements the document ended inside, left incomplete.
    mutating func abandonAll() {
        while let open = elements.popLast() { open.abandon() }
    }

    private static func `is`(_ element: FeedXMLElement, named written: String) -> Bool {
        element.qualifiedName == written || (!written.contains(":") && element.name == written)
    }
}
