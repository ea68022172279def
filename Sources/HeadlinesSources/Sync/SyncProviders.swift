import FoundationEssentials
import HeadlinesCore

/// The four sync services' providers, one file each beside this one.
public enum SyncProviders {
    public static func make(account: SyncAccount, pageSize: Int, transport: HTTPTransport, session: SyncSession) -> any SyncServiceProvider {
        let provider: any SyncServiceProvider.Type = switch account.provider {
        case .greader: GReaderProvider.self
        case .fever: FeverProvider.self
        case .miniflux: MinifluxProvider.self
        case .nextcloud: NextcloudNewsProvider.self
        default: preconditionFailure("\(account.provider) is not a sync service")
        }
        return provider.init(account: account, pageSize: pageSize, transport: transport, session: session)
    }
}
