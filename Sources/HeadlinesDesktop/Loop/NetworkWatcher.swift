import CGLibNotify
import Synchronization

/// Calls back on the loop thread when GNetworkMonitor says the network became available.
/// Lives as long as the host; the monitor is a process-wide singleton owned by GIO.
public final class NetworkWatcher: Sendable {
    private let onAvailable: @Sendable () -> Void
    /// Only the loop thread changes it; atomic so the type is Sendable without pretending.
    private let wasAvailable: Atomic<Bool>

    public init(onAvailable: @escaping @Sendable () -> Void) {
        self.onAvailable = onAvailable
        let monitor = g_network_monitor_get_default()
        wasAvailable = Atomic(g_network_monitor_get_network_available(monitor) != 0)
        let context = Unmanaged.passRetained(self).toOpaque()
        let callback: @convention(c) (UnsafeMutableRawPointer?, gboolean, UnsafeMutableRawPointer?) -> Void = { _, available, data in
            let watcher = Unmanaged<NetworkWatcher>.fromOpaque(data!).takeUnretainedValue()
            watcher.changed(available != 0)
        }
        g_signal_connect_data(UnsafeMutableRawPointer(monitor), "network-changed", unsafeBitCast(callback, to: GCallback.self), context,
                              { data, _ in Unmanaged<NetworkWatcher>.fromOpaque(data!).release() }, GConnectFlags(0))
    }

    private func changed(_ available: Bool) {
        let was = wasAvailable.exchange(available, ordering: .acquiringAndReleasing)
        if available && !was { onAvailable() }
    }
}
