import FoundationEssentials

/// RFC 822 dates as RFC 1123 and RFC 5322 write them (`Sun, 06 Nov 1994 08:49:37 GMT`, RSS's
/// pubDate, HTTP's IMF-fixdate), and the two obsolete HTTP-date forms a recipient must still accept
/// (RFC 9110 section 5.6.7): RFC 850's `Sunday, 06-Nov-94 08:49:37 GMT` and asctime's
/// `Sun Nov  6 08:49:37 1994` (UTC). Any case, runs of spaces or tabs between the fields.
public enum RFC822 {
    /// The instant, or nil when the text is none of those forms: day 1-2 digits, year 4 (2 in the
    /// RFC 850 form), hour, minute and second 1-2 digits each, a zone of `GMT`, `UT`, `UTC`,
    /// RFC 822's North American names or `±hhmm`. The day name may be short or long and is not
    /// checked against the date. A leap second reads as the next minute's first. A two-digit year
    /// below `pivot` is this century's, the rest the last's: RFC 9110 has a year more than 50
    /// years ahead read as the last century's, and a fixed 70 keeps the parser off the clock;
    /// feeds pass RFC 2822's 50.
    public static func parse(_ text: String, pivot: Int = 70) -> Date? {
        var scanner = DateScanner(text, trimming: true)
        return scanner.rfc822(pivot: pivot)
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
    package static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    static let longDayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// RFC 822's named zones, in hours east of UTC.
    static let namedZones: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0,
        "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
    ]
}

private extension DateScanner {
    /// An optional day name with a comma or a space after it, then `D Mon YYYY H:M:S zone`,
    /// `DD-Mon-YY H:M:S zone` or asctime's `Mon D H:M:S YYYY`.
    mutating func rfc822(pivot: Int) -> Date? {
        var word = letters()
        if let name = word, RFC822.dayNames.contains(name) || RFC822.longDayNames.contains(name) {
            guard expect(",") || skipSpaces() else { return nil }
            skipSpaces()
            word = letters()
        }
        if let word {
            guard let month = RFC822.month(word), skipSpaces(), let day = digits(max: 2), skipSpaces(),
                  let (hour, minute, second) = time(), skipSpaces(), let year = year(pivot: nil) else { return nil }
            return finish(year, month, day, hour, minute, second, offset: 0)
        }
        guard let day = digits(max: 2) else { return nil }
        let month: Int, year: Int
        if expect("-") {
            guard let name = letters(), let m = RFC822.month(name), expect("-"), let y = self.year(pivot: pivot) else { return nil }
            (month, year) = (m, y)
        } else {
            guard skipSpaces(), let name = letters(), let m = RFC822.month(name), skipSpaces(),
                  let y = self.year(pivot: nil) else { return nil }
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

    /// Four digits, or with a `pivot` (RFC 850's form) also two: one below it is this century's.
    mutating func year(pivot: Int?) -> Int? {
        let start = position
        guard let y = digits(max: 4) else { return nil }
        switch (position - start, pivot) {
        case (4, _): return y
        case (2, let pivot?): return y < pivot ? 2000 + y : 1900 + y
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
