/// The coding keys the state coders make up themselves: an array index (`Index 3`, as
/// JSONDecoder names it in error paths) and `super` for `superEncoder()`/`superDecoder()`.
struct JSONCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { self.stringValue = String(intValue); self.intValue = intValue }
    init(index: Int) { self.stringValue = "Index \(index)"; self.intValue = index }

    static let `super` = JSONCodingKey(stringValue: "super")
}
