import BarFormats
import FoundationEssentials

/// `[widget NAME]` groups: the same widget configured several times, as WidgetKit's
/// `AppIntentConfiguration` does on a phone (one World, one Technology). A widget group takes the
/// source keys, the bar keys `rotate` and `max-length` and the notify keys; what it leaves out
/// comes from the top-level groups, so a file without widget groups is the one-widget case.
/// `[refresh]` stays top-level: the budget is shared (see `WidgetPlan`).
extension Config {
    /// The keys a `[widget NAME]` group accepts, each with the top-level group it overrides.
    static var widgetKeys: [String: String] {
        var keys: [String: String] = [:]
        for group in ["source", "notify"] { for key in (schema[group] ?? [:]).keys { keys[key] = group } }
        keys["rotate"] = "bar"
        keys["max-length"] = "bar"
        return keys
    }

    /// The widget names, sorted: the first is what a command without `--widget` shows.
    public var widgetNames: [String] { widgetGroups.keys.sorted() }

    /// The one sentence for a widget name this file does not have.
    public static func noSuchWidget(_ name: String, widgets: [String], file: String) -> ConfigError {
        let known = widgets.isEmpty ? "it has no [widget NAME] groups" : "its widgets are " + widgets.joined(separator: ", ")
        var error = ConfigError("\(file) has no [widget \(name)]; \(known): check --widget or the i3blocks instance.")
        error.namesNoWidget = true
        return error
    }

    /// The config of widget `name`: the top-level groups, then the widget's own keys over them.
    public func widget(named name: String, file: String) throws(ConfigError) -> Config {
        guard let keys = widgetGroups[name] else { throw Config.noSuchWidget(name, widgets: widgetNames, file: file) }
        var config = self
        config.widgetGroups = [:]
        let allowed = Config.widgetKeys
        for (key, raw) in keys.sorted(by: { $0.key < $1.key }) {
            guard let group = allowed[key] else {
                throw ConfigError("\(file): unknown key '\(key)' in [widget \(name)]; a widget takes \(allowed.keys.sorted().joined(separator: ", ")).")
            }
            try config.apply(group: group, key: key, raw: raw, file: file, label: "widget \(name)")
        }
        // A widget's own subscription file replaces the top-level feeds unless it lists feeds too.
        if keys["feeds-from"] != nil && keys["feeds"] == nil { config.feeds = [] }
        if config.provider == .json && config.providerIsExplicit && config.jsonURL == nil {
            throw ConfigError("\(file): [widget \(name)] provider = json needs url; add the JSON API's URL.")
        }
        if let problem = config.sortProblem(group: "widget \(name)") { throw ConfigError("\(file): \(problem)") }
        if let problem = config.syncProblem(group: "widget \(name)") { throw ConfigError("\(file): \(problem)") }
        return config
    }
}

/// What a widget may be called: it names folders, so letters, digits, `-` and `_` only.
public enum WidgetName {
    /// `tech` for the group `widget tech`, nil for any other group.
    static func inGroup(_ group: String) -> String? {
        guard group.hasPrefix("widget ") else { return nil }
        return String(group.dropFirst("widget ".count)).trimmed()
    }

    public static func isValid(_ name: String) -> Bool { RuntimeLayout.isWidgetName(name) }
}
