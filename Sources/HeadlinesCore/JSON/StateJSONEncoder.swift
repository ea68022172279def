import FoundationEssentials

/// The encoder for every state file, JSON line and `--json` output: FoundationEssentials'
/// JSONEncoder with keys sorted (a file is the same bytes for the same value), slashes left
/// unescaped (URLs stay readable) and dates as RFC 3339 with milliseconds (`ISO8601.format`:
/// JSONEncoder's own `.iso8601` drops them, and the seen set and ledger need them).
public struct StateJSONEncoder: Sendable {
    /// Two-space indents and `"key" : value`, for people reading `status --json` and `list --json`.
    public let prettyPrinted: Bool

    private init(prettyPrinted: Bool) { self.prettyPrinted = prettyPrinted }

    public static func headlines(prettyPrinted: Bool = false) -> StateJSONEncoder {
        StateJSONEncoder(prettyPrinted: prettyPrinted)
    }

    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
                                                 : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(ISO8601.format(date))
        }
        return try encoder.encode(value)
    }
}
