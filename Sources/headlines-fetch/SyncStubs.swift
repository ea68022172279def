// TEMPORARY: stand-ins until the credential module and GLib's MD5 land; removed at their merge.
import FoundationEssentials
import HeadlinesCore

struct SyncPasswordProblem: Error, CustomStringConvertible { var description: String }
enum SyncPassword {
    static func resolve(account: SyncAccount, settings: SyncAccountSettings, environment: [String: String]) -> Result<String, SyncPasswordProblem> {
        .failure(SyncPasswordProblem(description: "not built yet"))
    }
}
