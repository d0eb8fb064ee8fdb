/// The events Vow reports through `conf.logHandler`, with PromiseKit's cases and names, so an
/// exhaustive `switch` written for PromiseKit still compiles. Vow's own, richer reports go to
/// `conf.diagnosticHandler` and `conf.unhandledRejectionHandler`.
public enum LogEvent: Sendable {
    /// `wait()` was called on the main thread (logged first, on every such call, even when the
    /// promise has already settled, as in PromiseKit).
    case waitOnMainThread
    /// A promise was deallocated pending, its resolver gone (`_ = Promise<Int>.pending()`), or
    /// rejected as abandoned with nothing having looked at it (at the end of a chain nobody
    /// watched). Dropping a resolver while the promise lives on is not this event: Vow rejects the
    /// promise with `VowError.abandoned` as soon as anything waits on it, so no awaiter or chain
    /// waits forever, and reports `Diagnostic.abandoned` (Promise+Abandonment.swift).
    case pendingPromiseDeallocated
    /// A guarantee's resolve function was deallocated while the guarantee was pending; a guarantee
    /// cannot reject, so it stays pending.
    case pendingGuaranteeDeallocated
    /// `cauterize()` swallowed this error (logged from `conf.Q.return`, under the catch policy).
    case cauterized(Error)
}

/// Where a promise was created; recorded in debug builds and named in Vow's reports.
public struct CreationSite: Sendable, CustomStringConvertible {
    @usableFromInline let fileID: StaticString
    /// The line in that file.
    public let line: UInt

    /// A site, usually from `#fileID` and `#line`.
    @inlinable
    public init(file: StaticString, line: UInt) {
        self.fileID = file
        self.line = line
    }

    /// The file, as `#fileID` gives it (`Module/File.swift`).
    public var file: String { "\(fileID)" }

    /// `File.swift:line`.
    public var description: String { "\(file):\(line)" }
}

/// A misuse of the engine that Vow noticed and survived. Sent to `conf.diagnosticHandler`.
public enum Diagnostic: Sendable, CustomStringConvertible {
    /// A resolver was asked to settle a promise that was already settled; the later call was
    /// ignored. The associated value says where that promise was created (debug builds only).
    case resolvedTwice(CreationSite?)
    /// A promise's resolver (or the completion handler a callback adapter handed out) was
    /// deallocated while the promise was pending; the promise was rejected with
    /// `VowError.abandoned`, which releases its awaiters and chains. The promise itself may live on.
    case abandoned(CreationSite?)

    /// The report as Vow prints it.
    public var description: String {
        switch self {
        case .resolvedTwice(let site):
            return "Vow: a promise\(Self.createdAt(site)) was resolved more than once; the later result was ignored"
        case .abandoned(let site):
            return "Vow: the resolver of a pending promise\(Self.createdAt(site)) was deallocated without settling it; the promise was rejected with VowError.abandoned"
        }
    }

    static func createdAt(_ site: CreationSite?) -> String {
        site.map { " created at \($0)" } ?? ""
    }
}

/// A rejected promise that was deallocated without anything ever observing its error.
public struct UnhandledRejection: Sendable, CustomStringConvertible {
    /// The error nobody handled.
    public let error: Error
    /// Where the promise was created (debug builds only).
    public let creationSite: CreationSite?

    /// A report of `error`, from a promise created at `creationSite`.
    public init(error: Error, creationSite: CreationSite?) {
        self.error = error
        self.creationSite = creationSite
    }

    /// The report as Vow prints it.
    public var description: String {
        "Vow: unhandled rejection\(Diagnostic.createdAt(creationSite)): \(error)"
    }
}
