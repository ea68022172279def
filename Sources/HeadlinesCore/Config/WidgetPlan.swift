import FoundationEssentials

/// How one host serves several widgets on one budget: APITube's and NewsAPI's daily quotas are per
/// key, not per widget, so the widgets on such a provider split `[refresh] daily-budget` evenly
/// between their distinct sources and reload no more often than their share allows (a share
/// spent in the morning would leave the afternoon blank). Widgets on the same source share one
/// fetch: the first of them (by name) reloads, the others show its cache.
/// Keyless feeds and JSON APIs have no quota to share: each source keeps the whole budget.
public struct WidgetPlan: Equatable, Sendable {
    public struct Share: Equatable, Sendable {
        /// nil: the one widget of a config without widget groups.
        public var widget: String?
        /// The widget that fetches for this one (itself when it fetches).
        public var source: String?
        public var dailyBudget: Int
        public var interval: TimeInterval
        /// True when another widget's fetch fills this one's cache: it sends no request.
        public var mirrors: Bool { source != widget }
    }

    public var shares: [Share]
    /// One sentence per provider whose budget is split, for `headlines status`.
    public var notes: [String]

    /// `widgets`: each widget's resolved config (provider decided), in name order.
    public init(widgets: [(name: String?, config: Config)]) {
        // What decides the answer, not just which headlines: two widgets on one URL with another
        // page size or other key paths fetch the same bytes but keep different headlines.
        func fetchIdentity(_ c: Config) -> String {
            c.sourceIdentity + "|\(c.pageSize)|\(c.pageSizeIsExplicit)|" + c.jsonPaths.identity + "|\(c.apiKeyFile ?? "")|\(c.timeout)"
        }
        var leaders: [String: String?] = [:]        // source identity -> the widget that fetches it
        var sourcesByProvider: [Config.Provider: [String]] = [:]
        for (name, config) in widgets where leaders[fetchIdentity(config)] == nil {
            leaders[fetchIdentity(config)] = .some(name)
            sourcesByProvider[config.provider, default: []].append(fetchIdentity(config))
        }
        var notes: [String] = []
        shares = widgets.map { name, config in
            let split = config.provider.keyVariable == nil ? 1 : (sourcesByProvider[config.provider]?.count ?? 1)
            let budget = max(1, config.dailyBudget / split)
            // Even spacing over the day: never more often than the share can pay for.
            let interval = max(config.interval, (86400 / Double(budget)).rounded(.up))
            return Share(widget: name, source: leaders[fetchIdentity(config)] ?? name, dailyBudget: budget, interval: interval)
        }
        for (provider, sources) in sourcesByProvider.sorted(by: { $0.key.rawValue < $1.key.rawValue })
            where provider.keyVariable != nil && sources.count > 1 {
            let names = zip(widgets, shares).filter { $0.0.config.provider == provider && !$0.1.mirrors }.compactMap { $0.0.name }
            guard let first = zip(widgets, shares).first(where: { $0.0.config.provider == provider }) else { continue }
            notes.append("\(provider.displayName)'s daily budget of \(first.0.config.dailyBudget) is shared by \(sources.count) widgets (\(names.joined(separator: ", "))): \(first.1.dailyBudget) requests each, a reload every \(Duration.format(first.1.interval)) at most.")
        }
        self.notes = notes
    }

    public func share(of widget: String?) -> Share? { shares.first { $0.widget == widget } }
}
