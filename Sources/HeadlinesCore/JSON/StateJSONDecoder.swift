import FoundationEssentials

/// The decoder matching `StateJSONEncoder`: FoundationEssentials' JSONDecoder with dates read by
/// `ISO8601.parse` (with or without fractional seconds, any offset). Whatever the bytes, it throws
/// a DecodingError whose coding path says where, and never crashes: callers set the file aside.
public struct StateJSONDecoder: Sendable {
    private init() {}

    public static func headlines() -> StateJSONDecoder { StateJSONDecoder() }

    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let c = try decoder.singleValueContainer()
            let text = try c.decode(String.self)
            guard let date = ISO8601.parse(text) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "not an RFC 3339 date: \(text)")
            }
            return date
        }
        return try decoder.decode(type, from: data)
    }
}
