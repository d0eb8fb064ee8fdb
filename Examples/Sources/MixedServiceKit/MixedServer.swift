import Hummingbird

/// How to run the service.
public struct MixedServiceConfiguration: Sendable {
    /// The address to listen on. The example listens on loopback only.
    public var host = "127.0.0.1"
    /// The port to listen on; 0 lets the system pick a free one (the service says which).
    public var port = 8080
    /// How long a request's legacy work may take, in seconds, before it is stopped and answered
    /// with 504.
    public var legacyDeadline = 3.0
    /// How long the legacy backend takes.
    public var backendTiming = BackendTiming()
    /// How long one review source takes to answer.
    public var reviewSourceDelay: Duration = .milliseconds(100)
    /// How many sources the reviews service asks for product 3, the slow one.
    public var slowReviewSources = 100

    public init() {}

    /// The usage line of the program.
    public static let usage = "usage: MixedService [--port N]   (N: 0-65535, default 8080; 0 picks a free port)"

    /// Reads the program's arguments (without the program's name): `--port N` or `--port=N`.
    ///
    /// - Throws: `MixedServiceConfiguration.BadArgument` with a sentence to show the user.
    public static func parse(arguments: [String]) throws -> MixedServiceConfiguration {
        var configuration = MixedServiceConfiguration()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let value: String?
            switch argument {
            case "--port":
                value = remaining.popFirst()
            case _ where argument.hasPrefix("--port="):
                value = String(argument.dropFirst("--port=".count))
            default:
                throw BadArgument(message: "unknown argument '\(argument)'")
            }
            guard let value, let port = Int(value), (0...65_535).contains(port) else {
                throw BadArgument(message: "--port needs a number from 0 to 65535")
            }
            configuration.port = port
        }
        return configuration
    }

    /// An argument the program cannot use.
    public struct BadArgument: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}

/// The service: the legacy backend, the promise repository over it, the async reviews service,
/// and the HTTP application that serves them.
public struct MixedServer: Sendable {
    public let configuration: MixedServiceConfiguration
    /// The promise layer, with its counters (and through it the backend and reviews service).
    public let repository: CatalogRepository
    private let log: ServiceLog

    public init(configuration: MixedServiceConfiguration = MixedServiceConfiguration(), log: ServiceLog) {
        self.configuration = configuration
        self.log = log
        repository = CatalogRepository(
            backend: CatalogBackend(timing: configuration.backendTiming, log: log),
            reviewsService: ReviewsService(
                slowProductSources: configuration.slowReviewSources,
                perSource: configuration.reviewSourceDelay,
                log: log
            ),
            log: log
        )
    }

    /// The Hummingbird application. Run it with `run()` (stops when its Task is cancelled) or
    /// `runService()` (also stops gracefully on SIGINT and SIGTERM).
    ///
    /// - Parameter onListening: Called with the port once the server listens, which tells a caller
    ///   that asked for port 0 which port it got.
    public func makeApplication(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let router = Router(context: CatalogRequestContext.self)
        // Outermost first: the log sees the status the error middleware chose.
        router.add(middleware: RequestLogMiddleware(log: log))
        router.add(middleware: ErrorStatusMiddleware())
        CatalogRoutes(repository: repository, legacyDeadline: configuration.legacyDeadline).add(to: router)

        let log = self.log
        return Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "MixedService"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                log("http    | listening on http://\(configuration.host):\(port)")
                await onListening(port)
            }
        )
    }
}
