import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesGLib
import HeadlinesSecrets

/// `headlines login PROVIDER`: the sync account's password, typed or piped in, stored in the
/// Secret Service, where every reload looks for it first. The password is never printed, never
/// an argument and never in a file of ours.
enum LoginCommand {
    static func run(_ args: Arguments, environment: [String: String]) -> Int32 {
        let providers = Config.Provider.allCases.filter(\.isSyncService).map(\.rawValue)
        guard args.positional.count == 1, let provider = Config.Provider(rawValue: args.positional[0]), provider.isSyncService else {
            Output.error("headlines: login takes the provider of the sync service to sign in to (\(providers.joined(separator: ", "))), such as: headlines login greader.")
            return 2
        }
        let account: SyncAccount
        switch self.account(provider, args: args, environment: environment) {
        case let .success(found): account = found
        case let .failure(refusal):
            Output.error("headlines: \(refusal.sentence)")
            return 2
        }
        // Nobody is asked to type a password that cannot be stored (piped input is just read).
        if TerminalPassword.isTyped, let reason = SyncPassword.secretServiceMissing(account: account) {
            Output.error(noSecretService(reason))
            return 1
        }
        let password: String
        switch TerminalPassword.read(prompt: "Password for \(account.label): ") {
        case let .success(typed): password = typed
        case let .failure(problem):
            Output.error("headlines: \(problem.sentence)")
            return 1
        }
        switch SyncPassword.store(account: account, password: password) {
        case let .secretService(collection):
            let place = collection.map { "its collection \"\($0)\"" } ?? "its default collection"
            Output.print("Stored the password of \(account.label) in the Secret Service (\(place)); headlines reads it from there.")
            return 0
        case let .noSecretService(reason):
            Output.error(noSecretService(reason))
            return 1
        case let .refused(reason):
            Output.error("headlines: the Secret Service did not store the password (\(NewsError.clause(reason))): unlock its collection and run headlines login \(provider.rawValue) again.")
            return 1
        }
    }

    /// The account reading `provider`: --widget's, else the one [source] or widget that reads it
    /// (several widgets reading the same account count once).
    static func account(_ provider: Config.Provider, args: Arguments, environment: [String: String]) -> Result<SyncAccount, LoginRefusal> {
        let widgets: [LoadedConfig]
        do { widgets = try LoadedConfig.loadWidgets(args: args, environment: environment) } catch {
            return .failure(LoginRefusal(sentence: error.message))
        }
        let asked = widgets.filter { args.widget == nil || $0.widget == args.widget }
        var accounts: [SyncAccount] = []
        for account in asked.compactMap(\.config.syncAccount) where account.provider == provider && !accounts.contains(account) {
            accounts.append(account)
        }
        let group = args.widget.map { "[widget \($0)]" } ?? "the config"
        let file = widgets.first?.file ?? ""
        switch accounts.count {
        case 1: return .success(accounts[0])
        case 0:
            let others = Set(asked.compactMap(\.config.syncAccount?.provider.rawValue)).sorted()
            let instead = others.isEmpty ? "" : " (it reads \(others.joined(separator: " and ")): run headlines login \(others[0]) for that)"
            return .failure(LoginRefusal(sentence: "\(group) in \(file) reads no \(provider.rawValue) account\(instead); to read one, set provider = \(provider.rawValue), base-url and username first (headlines.conf(5))."))
        default:
            let names = asked.filter { $0.config.syncAccount?.provider == provider }.compactMap(\.widget)
            return .failure(LoginRefusal(sentence: "several widgets of \(file) read a \(provider.rawValue) account (\(names.joined(separator: ", "))): name one with --widget NAME."))
        }
    }

    private static func noSecretService(_ reason: String) -> String {
        "headlines: no Secret Service answers on the session bus (\(NewsError.clause(reason))), so the password was not stored: set [source] password-command or password-file instead (see headlines.conf(5))."
    }

    struct LoginRefusal: Error { var sentence: String }
}
