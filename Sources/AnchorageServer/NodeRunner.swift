import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Runs a node's application until SIGTERM or SIGINT (or ``stop()``), then
/// shuts down gracefully: the shutdown notifier ends the feed's streams and
/// long-polls before the server stops, and `close` runs last, also when the
/// services fail.
///
/// ```swift
/// try await runner.run(application(), shutdown: shutdown, logger: logger) { await close() }
/// ```
final class NodeRunner: Sendable {
    private let running = Mutex<ServiceGroup?>(nil)

    func run(
        _ application: some Service,
        shutdown: ShutdownSignal,
        logger: Logger,
        first: [any Service] = [],
        close: () async -> Void
    ) async throws {
        let group = ServiceGroup(
            configuration: .init(
                // Services shut down in reverse order: `first` while the
                // node still serves everything.
                services: [application, ShutdownNotifier(signal: shutdown)] + first,
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        running.withLock { $0 = group }
        do {
            try await group.run()
        } catch {
            await close()
            throw error
        }
        await close()
    }

    /// Shuts a running node down as SIGTERM does.
    func stop() async {
        await running.withLock { $0 }?.triggerGracefulShutdown()
    }

    /// A node's Hummingbird application: `router` served by `server` on the
    /// configured address, reporting the bound port once it listens.
    static func application(
        router: Router<NodeContext>,
        server: HTTPServerBuilder,
        configuration: NodeConfiguration,
        logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void
    ) -> Application<RouterResponder<NodeContext>> {
        Application(
            router: router,
            server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "anchorage"
            ),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }
}
