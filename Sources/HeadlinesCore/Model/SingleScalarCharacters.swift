/// Scalars that are always a Character (grapheme cluster) of their own, whatever stands beside
/// them, but for CR LF: letters of the Latin, Greek, Cyrillic, Hebrew and Arabic scripts,
/// punctuation, symbols, CJK, Hangul and emoji; never a combining mark, joiner, variation selector
/// or emoji modifier. None of them is canonically equal to an ASCII character (U+037E GREEK
/// QUESTION MARK is a `;`, U+212A KELVIN SIGN a `K`: both left out). A text made of these alone
/// reads the same by bytes as by Characters. The unit tests check every scalar listed against the
/// Swift runtime's own rules, so a runtime whose Unicode tables differ fails them.
public enum SingleScalarCharacters {
    public static func contains(_ v: UInt32) -> Bool {
        switch v {
        case 0...0x2FF, 0x370...0x37D, 0x37F...0x482, 0x48A...0x52F,              // Latin, Greek, Cyrillic
             0x5D0...0x5EA, 0x606...0x60F, 0x61B...0x61F, 0x621...0x64A,         // Hebrew, Arabic
             0x660...0x66F, 0x671...0x6D5,
             0x1E00...0x1EFF, 0x2000...0x200B, 0x200E...0x2064, 0x20A0...0x20C0, // Vietnamese, punctuation, currency
             0x2100...0x2129, 0x212B...0x23FF, 0x2500...0x27BF,                  // letterlike, arrows, maths, symbols
             0x3000...0x3029, 0x3030...0x303F, 0x3041...0x3096, 0x309B...0x30FF, // CJK punctuation, kana
             0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFEFF, 0xFF01...0xFF9D, 0xFFFD,  // CJK, Hangul, BOM, fullwidth
             0x1D400...0x1D7FF, 0x1F300...0x1F3FA, 0x1F400...0x1FAFF:            // maths letters, emoji
            return true
        default:
            return false
        }
    }

    /// `Character.isWhitespace` (Unicode's White_Space, newlines included) of such a scalar.
    public static func isWhitespace(_ v: UInt32) -> Bool {
        switch v {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }
}
