import HeadlinesCore

extension FeedText {
    /// `TextCleaning.collapseWhitespace(TextCleaning.decodeEntities(s))`, the same scalars, in one
    /// pass over the UTF-8 bytes. Those two walk the text Character by Character (grapheme
    /// clusters, each one's Unicode properties looked up), which was most of what reading a feed
    /// cost. On bytes the answer is the same while every scalar is a Character of its own
    /// (`SingleScalarCharacters`); a text with any other scalar (a combining mark, an emoji
    /// sequence, an Indic script), in it or decoded from an entity, takes the Character walk.
    static func decodedAndCollapsed(_ s: String) -> String {
        var text = s
        let fast = text.withUTF8 { reduce($0) }
        return fast ?? TextCleaning.collapseWhitespace(TextCleaning.decodeEntities(s))
    }

    /// Nil as soon as a scalar is not a Character of its own. Bytes that stay as they are go
    /// out in runs.
    private static func reduce(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var spacePending = false
        var run = 0
        var i = 0
        func flushRun(to end: Int) {
            guard run < end else { return }
            if spacePending { out.append(0x20); spacePending = false }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<end]))
        }
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                if SingleScalarCharacters.isWhitespace(UInt32(b)) {
                    flushRun(to: i)
                    spacePending = !out.isEmpty
                    i += 1
                    run = i
                } else if b == UInt8(ascii: "&"), let (decoded, next) = entity(bytes, at: i) {
                    flushRun(to: i)
                    for s in decoded.unicodeScalars {
                        guard SingleScalarCharacters.contains(s.value) else { return nil }
                        if SingleScalarCharacters.isWhitespace(s.value) {
                            spacePending = !out.isEmpty
                        } else {
                            if spacePending { out.append(0x20); spacePending = false }
                            out.append(contentsOf: String(s).utf8)
                        }
                    }
                    i = next
                    run = i
                } else {
                    i += 1
                }
                continue
            }
            let (scalar, length) = decodeScalar(bytes, at: i)
            guard SingleScalarCharacters.contains(scalar) else { return nil }
            if SingleScalarCharacters.isWhitespace(scalar) {
                flushRun(to: i)
                spacePending = !out.isEmpty
                run = i + length
            }
            i += length
        }
        flushRun(to: bytes.count)
        return String(decoding: out, as: UTF8.self)
    }

    /// `clipByCharacters`, on scalars while the text's first `limit + 1` scalars are Characters of
    /// their own (and no CR, which joins a following LF): a summary is clipped from a long text.
    static func clip(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let scalars = text.unicodeScalars
        var end = scalars.startIndex
        var count = 0
        while count <= limit, end < scalars.endIndex {
            let v = scalars[end].value
            guard SingleScalarCharacters.contains(v), v != 0x0D else { return clipByCharacters(text, to: limit) }
            scalars.formIndex(after: &end)
            count += 1
        }
        guard count > limit else { return text }
        var cut = scalars[..<scalars.index(scalars.startIndex, offsetBy: limit - 1)]
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > limit * 2 / 3 {
            cut = cut[..<space]
        }
        while let last = cut.last,
              SingleScalarCharacters.isWhitespace(last.value) || ",;:-–—".unicodeScalars.contains(last) {
            cut.removeLast()
        }
        return String(cut) + "…"
    }

    /// What `TextCleaning.decodeEntities` makes of the `&` at `i`, and where it goes on, when it
    /// decodes one: it looks for the `;` among the next 11 Characters. A name holding another `&`
    /// never decodes; any other candidate is asked of `decodeEntities` itself, alone, so the
    /// table of names stays in one place.
    private static func entity(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (String, Int)? {
        var j = i + 1
        var characters = 1
        while j < bytes.count, characters < 12 {
            let b = bytes[j]
            if b == UInt8(ascii: ";") { break }
            if b == UInt8(ascii: "&") { return nil }
            j += b < 0x80 ? 1 : decodeScalar(bytes, at: j).length
            characters += 1
        }
        guard j < bytes.count, characters < 12, bytes[j] == UInt8(ascii: ";") else { return nil }
        let candidate = UnsafeBufferPointer(rebasing: bytes[i...j])
        let decoded = TextCleaning.decodeEntities(String(decoding: candidate, as: UTF8.self))
        guard !decoded.utf8.elementsEqual(candidate) else { return nil }
        return (decoded, j + 1)
    }

    /// The scalar of the well-formed UTF-8 sequence (a Swift string's) starting at `i`.
    private static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (scalar: UInt32, length: Int) {
        let b = UInt32(bytes[i])
        if b < 0xE0 { return ((b & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F), 2) }
        if b < 0xF0 { return ((b & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F), 3) }
        return ((b & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
            | UInt32(bytes[i + 3] & 0x3F), 4)
    }
}
