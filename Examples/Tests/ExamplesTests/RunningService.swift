import ExampleSupport
import Hummingbird
import MixedServiceKit
import ServiceLifecycle

/// A MixedService running on 127.0.0.1, on a port the system picked, for one test.
struct RunningService: Sendable {
    let client: LoopbackHTTPClient
    let repository: CatalogRepository
    /// Every line the service logged, in order.
    let log: Transcript

    /// What is pending or in flight in the legacy layers right now.
    var status: LegacyStatus {
        LegacyStatus(of: repository)
    }

    /// Waits (checking every few milliseconds, at most `timeout`) until nothing is pending or in
    /// flight, and returns the status then. A backend call stopped through its token completes at
    /// the backend's next step, a moment after its promise rejected: hence the wait.
    func statusOnceIdle(timeout: Duration = .seconds(10)) async -> LegacyStatus {
        let deadline = ContinuousClock.now + timeout
        while !status.isIdle, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return status
    }

    /// Waits until `condition` holds, checking every few milliseconds, for at most `timeout`.
    ///
    /// - Returns: Whether it held.
    @discardableResult
    func waitUntil(timeout: Duration = .seconds(10), _ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() {
                return true
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }
}

extension MixedServiceConfiguration {
    /// Quick legacy layers, and a deadline no test reaches unless it means to.
    static var forTests: MixedServiceConfiguration {
        var configuration = MixedServiceConfiguration()
        configuration.legacyDeadline = 30
        configuration.backendTiming = BackendTiming(
            lookup: .milliseconds(5),
            auditShelf: .milliseconds(20),
            lockedRecordRetry: .milliseconds(10)
        )
        configuration.reviewSourceDelay = .milliseconds(5)
        configuration.slowReviewSources = 2_000
        return configuration
    }
}

struct ServiceDidNotStart: Error {}

struct TimeLimitExceeded: Error {
    let limit: Duration
}

/// Starts a MixedService on 127.0.0.1 port 0, runs `body` against it, and stops the service
/// gracefully (as Ctrl-C stops the program).
///
/// Bounded: if `body` has not finished within `timeLimit`, it is cancelled and this throws
/// `TimeLimitExceeded`; if the service then takes more than 10 seconds to stop, it is cancelled.
/// A broken service fails the test instead of hanging the suite.
func withRunningService<Value: Sendable>(
    _ configuration: MixedServiceConfiguration = .forTests,
    timeLimit: Duration = .seconds(60),
    _ body: @escaping @Sendable (RunningService) async throws -> Value
) async throws -> Value {
    var configuration = configuration
    configuration.port = 0
    let log = Transcript(echo: false)
    let server = MixedServer(configuration: configuration, log: ServiceLog { log.say($0) })
    let (ports, portsContinuation) = AsyncStream.makeStream(of: Int.self)
    let application = server.makeApplication { port in
        portsContinuation.yield(port)
        portsContinuation.finish()
    }
    let serviceGroup = ServiceGroup(configuration: .init(services: [application], logger: application.logger))

    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            // If the server cannot start, the port stream ends empty instead of waiting forever.
            defer { portsContinuation.finish() }
            try await serviceGroup.run()
        }
        var portIterator = ports.makeAsyncIterator()
        guard let port = await portIterator.next() else {
            group.cancelAll()
            throw ServiceDidNotStart()
        }
        let service = RunningService(client: LoopbackHTTPClient(port: port), repository: server.repository, log: log)
        let outcome = await Result { try await withTimeLimit(timeLimit) { try await body(service) } }

        await serviceGroup.triggerGracefulShutdown()
        group.addTask {
            try await Task.sleep(for: .seconds(10))
            throw TimeLimitExceeded(limit: .seconds(10))
        }
        // The server stopping ends the wait; the 10-second timer ending it first fails it.
        defer { group.cancelAll() }
        try await group.next()
        return try outcome.get()
    }
}

/// Runs `body`, cancelling it and throwing `TimeLimitExceeded` if it takes longer than `limit`.
func withTimeLimit<Value: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
    try await withThrowingTaskGroup(of: Value.self) { group in
        group.addTask(operation: body)
        group.addTask {
            try await Task.sleep(for: limit)
            throw TimeLimitExceeded(limit: limit)
        }
        defer { group.cancelAll() }
        // Whichever finishes first: the body's value, or the timer's error.
        return try await group.next()!
    }
}

extension Result where Failure == any Error {
    /// The outcome of `body`, thrown or returned.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
