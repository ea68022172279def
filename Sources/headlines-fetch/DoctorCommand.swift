import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesDesktop
import HeadlinesGLib
import HeadlinesSecrets

/// `headlines doctor`: one screen on whether a click on a notification or a bar can open the
/// article here, and what to change when it cannot (`DoctorReport` decides). Runs before the
/// config is loaded, because a config that does not load is one of the things it reports.
/// Exit 0 when nothing needs changing, 1 otherwise. It runs here, in headlines-fetch, because a
/// sync service's password is looked for with libsecret, which only this program links.
enum DoctorCommand {
    static func run(args: Arguments, environment: [String: String]) -> Int32 {
        let (config, launcher) = configFacts(args: args, environment: environment)
        let report = DoctorReport(DesktopSurvey.facts(launcher: launcher, config: config, environment: environment))
        Output.print(report.text)
        return report.exitStatus
    }

    /// The config file: whether it loads, its provider, widgets and where the key or a sync
    /// service's password comes from (never either), and the `[bar] launcher` it sets.
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
        if let account = config.syncAccount {
            let credential = passwordFacts(account, settings: config.sync, environment: environment)
            summary += ", " + credential.summary
            problems += credential.problems
        }
        return (DesktopFacts.ConfigFile(path: loaded.file, exists: exists, summary: summary, problems: problems), config.launcher)
    }

    /// Where the sync account's password comes from, found exactly as a reload finds it (a
    /// password-command runs), and never shown; whether the service accepts it is not asked here.
    static func passwordFacts(_ account: SyncAccount, settings: SyncAccountSettings,
                              environment: [String: String]) -> (summary: String, problems: [String]) {
        switch SyncPassword.find(account: account, settings: settings, environment: environment) {
        case let .success(found):
            let fallbacks = found.failedFirst.map { "\(NewsError.clause($0)), so the password came from \(found.source): fix or remove it." }
            return ("password from \(found.source)", fallbacks.map(sentence))
        case let .failure(problem):
            let message = NewsError.missingCredential(detail: problem.description)
                .message(provider: account.displayName, kind: .syncService(login: account.provider.rawValue))
            return ("no password (below)", [message])
        }
    }

    /// A clause as a sentence of its own: its first letter upper case.
    private static func sentence(_ clause: String) -> String { clause.prefix(1).uppercased() + clause.dropFirst() }
}
