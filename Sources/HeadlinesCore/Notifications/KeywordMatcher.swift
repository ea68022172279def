import FoundationEssentials

/// Whole-word, case-insensitive matching of `[notify] keywords` and `mute-words` against a
/// headline's title and summary. FoundationEssentials has no ICU, so case folding is the
/// stdlib's `lowercased()` plus final sigma (ς) folded to σ, which lowercasing alone leaves apart
/// ("ΟΔΟΣ" lowers to "οδοσ"). Text is compared Character by Character, so a precomposed "é" and
/// "e" + U+0301 are the same, with no normalisation pass.
public struct KeywordMatcher: Equatable, Sendable {
    /// The keywords as the config gave them (for messages and docs).
    public private(set) var keywords: [String] = []
    /// Each keyword folded and split at whitespace: a phrase is several words that match across
    /// any run of whitespace.
    private var patterns: [[[Character]]] = []

    /// Empty strings (and keywords that are only whitespace) are dropped.
    public init(_ keywords: [String] = []) {
        for keyword in keywords {
            let words = Self.fold(keyword).split(whereSeparator: \.isWhitespace).map(Array.init)
            guard !words.isEmpty else { continue }
            self.keywords.append(keyword)
            patterns.append(words)
        }
    }

    /// No keywords: matches nothing (callers treat an empty matcher as "feature off").
    public var isEmpty: Bool { patterns.isEmpty }

    /// True when any keyword occurs in `text` as whole words: no letter, digit or combining mark
    /// right before or after it ("AI" is in "new AI." but not in "said" or "AIDS").
    public func matches(_ text: String) -> Bool {
        guard !patterns.isEmpty else { return false }
        let folded = Self.fold(text)
        return patterns.contains { Self.occurs($0, in: folded) }
    }

    /// The title or, when it has one, the summary matches.
    public func matches(_ headline: Headline) -> Bool {
        matches(headline.title) || (headline.summary.map(matches) ?? false)
    }

    static func fold(_ text: String) -> [Character] {
        text.lowercased().map { $0 == "ς" ? "σ" : $0 }
    }

    /// A letter, digit or mark anywhere in the Character (a lone combining mark clusters with
    /// whatever precedes it, even a space).
    static func isWordCharacter(_ c: Character) -> Bool {
        c.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber,
                 .nonspacingMark, .spacingMark, .enclosingMark:
                return true
            default:
                return false
            }
        }
    }

    private static func occurs(_ words: [[Character]], in text: [Character]) -> Bool {
        guard let first = words.first?.first else { return false }
        for start in text.indices where text[start] == first && (start == 0 || !isWordCharacter(text[start - 1])) {
            if let end = matchEnd(words, in: text, from: start), end == text.count || !isWordCharacter(text[end]) {
                return true
            }
        }
        return false
    }

    /// Where the words end when they match at `start`, each after at least one whitespace.
    private static func matchEnd(_ words: [[Character]], in text: [Character], from start: Int) -> Int? {
        var at = start
        for (n, word) in words.enumerated() {
            if n > 0 {
                guard at < text.count, text[at].isWhitespace else { return nil }
                while at < text.count && text[at].isWhitespace { at += 1 }
            }
            guard at + word.count <= text.count, text[at..<at + word.count].elementsEqual(word) else { return nil }
            at += word.count
        }
        return at
    }
}
