import Dispatch

/// Vow's global settings, PromiseKit's `conf`: the default queues, the default catch policy and
/// the log handler, plus Vow's own diagnostics hooks.
///
/// Every property is guarded by a lock, so it can be read and changed from any thread. Change
/// settings once, early (typically at launch): a chain reads the defaults when it is built.
///
/// ```swift
/// conf.Q = (map: DispatchQueue.global(), return: DispatchQueue.main)
/// conf.catchPolicy = .allErrors
/// conf.logHandler = { event in print(event) }
/// ```
public final class PMKConfiguration: Sendable {
    @usableFromInline
    struct Settings: Sendable {
        @usableFromInline var queues: (map: DispatchQueue?, return: DispatchQueue?) = (DispatchQueue.main, DispatchQueue.main)
        @usableFromInline var catchPolicy = CatchPolicy.allErrorsExceptCancellation
        var logHandler: @Sendable (LogEvent) -> Void = PMKConfiguration.defaultLogHandler
        var diagnosticHandler: @Sendable (Diagnostic) -> Void = PMKConfiguration.defaultDiagnosticHandler
        var unhandledRejectionHandler: @Sendable (UnhandledRejection) -> Void = PMKConfiguration.defaultUnhandledRejectionHandler
    }

    @usableFromInline let settings = LockedState(Settings())

    /// A configuration with PromiseKit's defaults; Vow uses the shared `conf`.
    public init() {}

    /// The default queues: `map` for `then`, `map`, `compactMap`, `recover` and `tap`; `return` for
    /// `done`, `get`, `catch`, `ensure` and `finally`. Both are the main queue, as in PromiseKit.
    /// `nil` runs handlers synchronously on the thread that settles the promise.
    public var Q: (map: DispatchQueue?, return: DispatchQueue?) {
        @inlinable get { settings.withLock { $0.queues } }
        set { settings.withLock { $0.queues = newValue } }
    }

    /// The policy `catch` and `recover` use when none is given: `.allErrorsExceptCancellation`.
    public var catchPolicy: CatchPolicy {
        @inlinable get { settings.withLock { $0.catchPolicy } }
        set { settings.withLock { $0.catchPolicy = newValue } }
    }

    /// Receives PromiseKit's log events. The default prints them.
    public var logHandler: @Sendable (LogEvent) -> Void {
        get { settings.withLock { $0.logHandler } }
        set { settings.withLock { $0.logHandler = newValue } }
    }

    /// Receives Vow's reports of engine misuse (a promise resolved twice, a resolver abandoned).
    /// The default prints them in debug builds and ignores them in release builds.
    public var diagnosticHandler: @Sendable (Diagnostic) -> Void {
        get { settings.withLock { $0.diagnosticHandler } }
        set { settings.withLock { $0.diagnosticHandler = newValue } }
    }

    /// Receives each rejected promise that is deallocated without anything having observed its
    /// error (no `catch`, `recover`, chain, await or inspection), exactly once.
    /// The default prints it, with where the promise was created, in debug builds only.
    public var unhandledRejectionHandler: @Sendable (UnhandledRejection) -> Void {
        get { settings.withLock { $0.unhandledRejectionHandler } }
        set { settings.withLock { $0.unhandledRejectionHandler = newValue } }
    }

    /// Prints each event, as PromiseKit's default does.
    public static let defaultLogHandler: @Sendable (LogEvent) -> Void = { event in
        switch event {
        case .waitOnMainThread:
            print("Vow: warning: `wait()` called on main thread!")
        case .pendingPromiseDeallocated:
            print("Vow: warning: pending promise deallocated")
        case .pendingGuaranteeDeallocated:
            print("Vow: warning: pending guarantee deallocated")
        case .cauterized(let error):
            print("Vow:cauterized-error: \(error)")
        }
    }

    /// Prints each diagnostic in debug builds.
    public static let defaultDiagnosticHandler: @Sendable (Diagnostic) -> Void = { diagnostic in
        #if DEBUG
        print(diagnostic)
        #endif
    }

    /// Prints each unhandled rejection in debug builds.
    public static let defaultUnhandledRejectionHandler: @Sendable (UnhandledRejection) -> Void = { rejection in
        #if DEBUG
        print(rejection)
        #endif
    }

    func log(_ event: LogEvent) {
        logHandler(event)
    }
}

/// Vow's global configuration (PromiseKit's `conf`).
public let conf = PMKConfiguration()
