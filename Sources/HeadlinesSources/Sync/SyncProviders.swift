import FoundationEssentials
import HeadlinesCore

/// The four sync services' providers, one file each beside this one.
public enum SyncProviders {
    public static func make(account: SyncAccount, pageSize: Int, transport: HTTPTransport, session: SyncSession) -> any SyncServiceProvider {
        switch account.provider {
        case .greader: return GReaderProvider(account: account, pageSize: pageSize, transport: transport, session: session)
        case .fever: return FeverProvider(account: account, pageSize: pageSize, transport: transport, session: session)
        case .miniflux: return MinifluxProvider(account: account, pageSize: pageSize, transport: transport, session: session)
        case .nextcloud: return NextcloudNewsProvider(account: account, pageSize: pageSize, transport: transport, session: session)
        default: preconditionFailure("\(account.provider) is not a sync service")
        }
    }
}
