import FoundationEssentials

/// RFC 822 dates as RFC 1123 and RFC 5322 write them (`Sun, 06 Nov 1994 08:49:37 GMT`, RSS's
/// pubDate, HTTP's IMF-fixdate), and the two obsolete HTTP-date forms a recipient must still accept
/// (RFC 9110 section 5.6.7): RFC 850's `Sunday, 06-Nov-94 08:49:37 GMT` and asctime's
/// `Sun Nov  6 08:49:37 1994` (UTC). Any case, runs of spaces or tabs between the fields.
public enum RFC822 {
    /// The instant, or nil when the text is none of those forms: day 1-2 digits, year 4 (2 in the
    /// RFC 850 form), hour, minute and second 1-2 digits each, a zone of `GMT`, `UT`, `UTC`,
    /// RFC 822's North American names or `±hhmm`. The day name may be short or long and is not
    /// checked against the date. A leap second reads as the next minute's first.
    public static func parse(_ text: String) -> Date? {
        var scanner = DateScanner(text.trimmed())
        return scanner.rfc822()
    }

    /// The form nearly every feed and server writes, `Sun, 06 Nov 1994 08:49:37 GMT` or `+hhmm`
    /// (the day name optional, any case, the day one or two digits), read byte by byte; nil for
    /// anything else, which `parse` (and `FeedDates`' leniency) then reads the long way. Most
    /// items of a feed carry one, and reading it through Characters cost more than the rest of
    /// the item.
    public static func parseCommonForm(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { commonForm($0) }
    }

    private static func commonForm(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
        var i = 0, end = b.count
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        while i < end, isSpace(b[i]) { i += 1 }
        while end > i, isSpace(b[end - 1]) { end -= 1 }
        func lower(_ k: Int) -> UInt8 { b[k] | 0x20 }
        func digit(_ k: Int) -> Int? { k < end && b[k] >= 0x30 && b[k] <= 0x39 ? Int(b[k] - 0x30) : nil }
        func name(_ k: Int, in names: [String]) -> Int? {
            guard k + 3 <= end else { return nil }
            let word = [lower(k), lower(k + 1), lower(k + 2)]
            return names.firstIndex { $0.utf8.elementsEqual(word) }
        }
        func two(_ k: Int) -> Int? {
            guard let a = digit(k), let c = digit(k + 1) else { return nil }
            return a * 10 + c
        }
        if name(i, in: dayNames) != nil {
            guard i + 5 <= end, b[i + 3] == 0x2C, b[i + 4] == 0x20 else { return nil }
            i += 5
        }
        guard let d1 = digit(i) else { return nil }
        var day = d1
        i += 1
        if let d2 = digit(i) { day = day * 10 + d2; i += 1 }
        guard i < end, b[i] == 0x20, let month = name(i + 1, in: months), i + 4 < end, b[i + 4] == 0x20 else { return nil }
        i += 5
        guard let century = two(i), let yy = two(i + 2), i + 4 < end, b[i + 4] == 0x20 else { return nil }
        i += 5
        guard let hour = two(i), i + 2 < end, b[i + 2] == 0x3A, let minute = two(i + 3), i + 5 < end, b[i + 5] == 0x3A,
              let second = two(i + 6), i + 8 < end, b[i + 8] == 0x20 else { return nil }
        i += 9
        let offset: Int
        switch end - i {
        case 5 where b[i] == 0x2B || b[i] == 0x2D:
            guard let hh = two(i + 1), let mm = two(i + 3), hh <= 14, mm < 60 else { return nil }
            offset = (b[i] == 0x2D ? -1 : 1) * (hh * 3600 + mm * 60)
        case 3 where (lower(i), lower(i + 1), lower(i + 2)) == (0x67, 0x6D, 0x74)   // gmt
            || (lower(i), lower(i + 1), lower(i + 2)) == (0x75, 0x74, 0x63):       // utc
            offset = 0
        case 2 where (lower(i), lower(i + 1)) == (0x75, 0x74):                         // ut
            offset = 0
        default:
            return nil
        }
        return CivilDate.instant(year: century * 100 + yy, month: month + 1, day: day, hour: hour, minute: minute,
                                 second: second, offset: offset)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate), the second truncated; years beyond four
    /// digits are written as the nearest one there is, as `ISO8601.format` does.
    public static func format(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        let clamped = t.isNaN ? 0 : min(max(t, ISO8601.earliest), ISO8601.latest)
        let f = CivilDate.fields(ofSecond: Int64(clamped.rounded(.down)))
        func pad(_ n: Int, _ width: Int) -> String { NumberText.padded(n, width: width) }
        func capitalized(_ name: String) -> String { name.prefix(1).uppercased() + name.dropFirst() }
        return capitalized(dayNames[f.weekday]) + ", " + pad(f.day, 2) + " " + capitalized(months[f.month - 1]) + " " + pad(f.year, 4) + " "
            + pad(f.hour, 2) + ":" + pad(f.minute, 2) + ":" + pad(f.second, 2) + " GMT"
    }

    /// 1-12 for `jan`...`dec` in any case.
    public static func month(_ name: some StringProtocol) -> Int? {
        months.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }

    /// Seconds east of UTC for a zone as RFC 822 names it: `GMT`, `UT`, `UTC`, `EST`...`PDT`, or
    /// `±hhmm`. The military letters are left out: RFC 822 printed their signs backwards
    /// (RFC 1123 section 5.2.14), so each means either of two offsets.
    public static func zoneOffset(_ zone: some StringProtocol) -> Int? {
        var scanner = DateScanner(String(zone))
        guard let offset = scanner.rfc822Zone(), scanner.atEnd else { return nil }
        return offset
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    static let longDayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// RFC 822's named zones, in hours east of UTC.
    static let namedZones: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0,
        "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
    ]
}

private extension DateScanner {
    /// `[day-name[,]]` then `D Mon YYYY H:M:S zone`, `DD-Mon-YY H:M:S zone` or asctime's
    /// `Mon D H:M:S YYYY`.
    mutating func rfc822() -> Date? {
        var word = letters()
        if let name = word, RFC822.dayNames.contains(name) || RFC822.longDayNames.contains(name) {
            _ = expect(",")
            skipSpaces()
            word = letters()
        }
        if let word {
            guard let month = RFC822.month(word), skipSpaces(), let day = digits(max: 2), skipSpaces(),
                  let (hour, minute, second) = time(), skipSpaces(), let year = year(twoDigits: false) else { return nil }
            return finish(year, month, day, hour, minute, second, offset: 0)
        }
        guard let day = digits(max: 2) else { return nil }
        let month: Int, year: Int
        if expect("-") {
            guard let name = letters(), let m = RFC822.month(name), expect("-"), let y = self.year(twoDigits: true) else { return nil }
            (month, year) = (m, y)
        } else {
            guard skipSpaces(), let name = letters(), let m = RFC822.month(name), skipSpaces(),
                  let y = self.year(twoDigits: false) else { return nil }
            (month, year) = (m, y)
        }
        guard skipSpaces(), let (hour, minute, second) = time(), skipSpaces(), let offset = rfc822Zone() else { return nil }
        return finish(year, month, day, hour, minute, second, offset: offset)
    }

    /// The instant, when nothing but spaces is left.
    mutating func finish(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int,
                         offset: Int) -> Date? {
        skipSpaces()
        guard atEnd else { return nil }
        return CivilDate.instant(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                                 offset: offset)
    }

    /// Four digits, or with `twoDigits` (RFC 850) also two: one below 70 is this century's. RFC
    /// 9110 has a year more than 50 years ahead read as the last century's; a fixed pivot keeps
    /// the parser off the clock.
    mutating func year(twoDigits: Bool) -> Int? {
        let start = position
        guard let y = digits(max: 4) else { return nil }
        switch position - start {
        case 4: return y
        case 2 where twoDigits: return y < 70 ? 2000 + y : 1900 + y
        default: return nil
        }
    }

    /// `H:M:S`, one or two digits each.
    mutating func time() -> (Int, Int, Int)? {
        guard let hour = digits(max: 2), expect(":"), let minute = digits(max: 2), expect(":"),
              let second = digits(max: 2) else { return nil }
        return (hour, minute, second)
    }

    /// Seconds east of UTC: a name RFC 822 gives, or `±hhmm`.
    mutating func rfc822Zone() -> Int? {
        if let name = letters() { return RFC822.namedZones[name].map { $0 * 3600 } }
        guard let sign = sign() else { return nil }
        let start = position
        guard let hhmm = digits(max: 4), position - start == 4, hhmm % 100 < 60 else { return nil }
        return sign * (hhmm / 100 * 3600 + hhmm % 100 * 60)
    }
}
