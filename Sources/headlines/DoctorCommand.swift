import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesDesktop

/// `headlines doctor`: one screen on whether a click on a notification or a bar can open the
/// article here, and what to change when it cannot (`DoctorReport` decides). Runs before the
/// config is loaded, because a config that does not load is one of the things it reports.
/// Exit 0 when nothing needs changing, 1 otherwise.
enum DoctorCommand {
    static func run(args: Arguments, environment: [String: String]) -> Int32 {
        let (config, launcher) = configFacts(args: args, environment: environment)
        var facts = DesktopSurvey.facts(launcher: launcher, config: config, environment: environment)
        facts.held = heldByHost(widget: args.widget ?? "")
        let report = DoctorReport(facts)
        Output.print(report.text)
        return report.exitStatus
    }

    /// What the running host holds back (asked on the bus, never started for this).
    static func heldByHost(widget: String) -> HeldCounts? {
        guard let host = BusClient.status(widget: widget), let dnd = host["held_dnd"]?.number,
              let quiet = host["held_quiet"]?.number else { return nil }
        return HeldCounts(doNotDisturb: dnd, quietHours: quiet,
                          quietUntil: host["quiet_until"]?.real.map { Date(timeIntervalSince1970: $0) })
    }

    /// The config file: whether it loads, its provider, widgets and where the key comes from
    /// (never the key), and the `[bar] launcher` it sets.
    static func configFacts(args: Arguments, environment: [String: String]) -> (DesktopFacts.ConfigFile, launcher: String?) {
        let path = args.configPath ?? XDGPaths(environment: environment).configFile
        let exists = FileManager.default.fileExists(atPath: path)
        let loaded: LoadedConfig
        do { loaded = try LoadedConfig.load(args: args, environment: environment) } catch {
            return (DesktopFacts.ConfigFile(path: path, exists: exists, summary: nil, problems: [error.message]), nil)
        }
        let config = loaded.config
        var problems = config.warnings
        var summary = config.provider.displayName
        let widgets = loaded.plan.shares.compactMap(\.widget)
        if !widgets.isEmpty { summary += ", " + NumberText.counted(widgets.count, "widget") + " (\(widgets.joined(separator: ", ")))" }
        if let variable = config.keyVariable(of: config.provider) {
            do {
                let resolved = try APIKeySource.resolve(for: config.provider, config: config, environment: environment)
                problems += resolved.warnings
                if resolved.key == nil {
                    problems.append(NewsError.missingKey(envVariable: variable).message(provider: config.provider.displayName))
                } else {
                    let fromVariable = environment[variable].map { !$0.trimmed().isEmpty } ?? false
                    summary += ", key from " + (fromVariable ? variable : "api-key-file \(config.apiKeyFile ?? "")")
                }
            } catch {
                problems.append(error.message)
            }
        }
        if config.provider.isSyncService {
            // Only headlines-fetch links libcurl (and the Secret Service): it signs in and reads
            // one page, and says how that went in one sentence, never with the credential.
            let answer = ProcessLauncher.output(ofSibling: "headlines-fetch", ["sync-check"] + args.passThrough, environment: environment)
            if answer.ok { summary += "; " + NewsError.clause(answer.text) } else { problems.append(answer.text) }
        }
        return (DesktopFacts.ConfigFile(path: loaded.file, exists: exists, summary: summary, problems: problems), config.launcher)
    }
}
