import FoundationEssentials
import FeedXML
import HeadlinesCore

/// When a feed is next fetched, and why: the latest of what its publisher asked (HTTP caching,
/// the feed's own `<ttl>` or `sy:updatePeriod`, a 429 or 503's `Retry-After`) and the feed's
/// configured `interval`. Each of them counts for at most `cap` from now, so a hostile header
/// cannot silence a feed for longer. No hint at all means the feed is due at every reload.
public enum FeedSchedule {
    /// Why a feed waits; the raw value is what `status` shows.
    public enum Reason: String, Codable, Sendable, CaseIterable {
        case maxAge = "max-age"
        case expires = "Expires"
        case ttl
        case updatePeriod = "sy:updatePeriod"
        case retryAfter = "Retry-After"
        case interval
    }

    /// A next fetch time and its reason.
    public struct Next: Equatable, Sendable {
        public var at: Date
        public var reason: Reason
        public init(at: Date, reason: Reason) {
            self.at = at
            self.reason = reason
        }
    }

    /// The longest any one hint may hold a feed back.
    public static let cap: TimeInterval = 24 * 60 * 60

    /// The next fetch after an answer with `status` and `headers` (lower-case names, as
    /// `HTTPResponse` keeps them). `period` is how often the feed says it changes (its `<ttl>` or
    /// `sy:updatePeriod`, from its last parsed body); `interval` the feed's configured one. An
    /// answer that is not 200-299 or 304 (or none at all: `status` nil) counts only its
    /// Retry-After and the interval: what it says about caching is about the error, not the feed.
    public static func next(status: Int?, headers: [String: String], period: FeedPeriod?, interval: TimeInterval?,
                            now: Date) -> Next? {
        var candidates: [Next] = []
        let answered = status.map { (200...299).contains($0) || $0 == 304 } ?? false
        if answered {
            if let cache = httpFreshness(headers, now: now) { candidates.append(cache) }
            if let period, period.seconds > 0 { candidates.append(Next(at: now.addingTimeInterval(period.seconds), reason: period.reason)) }
        }
        if status == 429 || status == 503, let retry = retryAfter(headers["retry-after"], now: now) {
            candidates.append(Next(at: retry, reason: .retryAfter))
        }
        if let interval, interval > 0 { candidates.append(Next(at: now.addingTimeInterval(interval), reason: .interval)) }
        let capped = candidates.map { Next(at: min($0.at, now.addingTimeInterval(cap)), reason: $0.reason) }.filter { $0.at > now }
        // The latest wins; on a tie the first named (the publisher's own words before the interval).
        return capped.reduce(nil) { best, next in best.map { next.at > $0.at ? next : $0 } ?? next }
    }

    /// `Cache-Control: max-age` minus `Age`, else `Expires` minus `Date` (or now when the answer
    /// has no date). `no-cache`, `no-store` and `max-age=0` leave nothing to wait for.
    static func httpFreshness(_ headers: [String: String], now: Date) -> Next? {
        let directives = cacheControl(headers["cache-control"] ?? "")
        if directives["no-cache"] != nil || directives["no-store"] != nil { return nil }
        if let raw = directives["max-age"] {
            guard let maxAge = Int(raw), maxAge > 0 else { return nil }
            let age = headers["age"].flatMap { Int($0.trimmed()) }.map { max(0, $0) } ?? 0
            let fresh = maxAge - age
            return fresh > 0 ? Next(at: now.addingTimeInterval(TimeInterval(fresh)), reason: .maxAge) : nil
        }
        guard let expires = headers["expires"].flatMap({ RFC822.parse($0.trimmed()) }) else { return nil }
        let sent = headers["date"].flatMap { RFC822.parse($0.trimmed()) } ?? now
        let fresh = expires.timeIntervalSince(sent)
        return fresh > 0 ? Next(at: now.addingTimeInterval(fresh), reason: .expires) : nil
    }

    /// `Cache-Control`'s directives, names lower-cased, values unquoted (`max-age="60"` is seen).
    static func cacheControl(_ value: String) -> [String: String] {
        var directives: [String: String] = [:]
        for part in value.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1).map { String($0).trimmed() }
            guard let name = pieces.first?.lowercased(), !name.isEmpty else { continue }
            var argument = pieces.count > 1 ? pieces[1] : ""
            if argument.count >= 2, argument.hasPrefix("\""), argument.hasSuffix("\"") { argument = String(argument.dropFirst().dropLast()) }
            // The first of a repeated directive counts, as caches read it.
            if directives[name] == nil { directives[name] = argument }
        }
        return directives
    }

    /// `Retry-After` as seconds from now or an HTTP date.
    static func retryAfter(_ value: String?, now: Date) -> Date? {
        guard let value = value?.trimmed(), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return seconds > 0 ? now.addingTimeInterval(TimeInterval(seconds)) : nil }
        return RFC822.parse(value)
    }
}

/// How often a feed says it changes: RSS `<ttl>` (minutes), or the syndication module's
/// `sy:updatePeriod` divided by `sy:updateFrequency`. Kept with the feed's state, so a 304 (no
/// body to read it from) still honours it.
public struct FeedPeriod: Codable, Equatable, Sendable {
    public var seconds: TimeInterval
    public var reason: FeedSchedule.Reason

    public init(seconds: TimeInterval, reason: FeedSchedule.Reason) {
        self.seconds = seconds
        self.reason = reason
    }

    /// `<ttl>`: whole minutes; nothing for a missing, negative or unreadable one.
    static func ttl(_ text: String?) -> FeedPeriod? {
        guard let minutes = text.flatMap({ Int($0.trimmed()) }), minutes > 0 else { return nil }
        return FeedPeriod(seconds: TimeInterval(min(minutes, Int(FeedSchedule.cap / 60))) * 60, reason: .ttl)
    }

    /// The syndication module's elements in `channel` (an RSS channel, or an Atom feed, which
    /// borrows them).
    static func syndication(in channel: FeedXMLElement) -> FeedPeriod? {
        syndication(period: channel.child("updatePeriod", in: FeedNamespace.sy)?.trimmedText,
                    frequency: channel.child("updateFrequency", in: FeedNamespace.sy)?.trimmedText)
    }

    /// `sy:updatePeriod` (hourly, daily, weekly, monthly, yearly; hourly when only the frequency
    /// is given, as the module says) over `sy:updateFrequency` (1 when missing).
    static func syndication(period: String?, frequency: String?) -> FeedPeriod? {
        guard period != nil || frequency != nil else { return nil }
        let lengths: [String: TimeInterval] = ["hourly": 3600, "daily": 86400, "weekly": 7 * 86400,
                                               "monthly": 30 * 86400, "yearly": 365 * 86400]
        guard let length = lengths[(period ?? "hourly").trimmed().lowercased()] else { return nil }
        let times = frequency.map { Int($0.trimmed()) ?? 0 } ?? 1
        guard times > 0 else { return nil }
        return FeedPeriod(seconds: length / TimeInterval(times), reason: .updatePeriod)
    }
}
