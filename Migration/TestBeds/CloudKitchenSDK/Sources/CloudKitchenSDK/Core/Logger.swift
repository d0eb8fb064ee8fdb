import Foundation

/// The SDK's log levels, from the chattiest.
public enum LogLevel: Int, Comparable {
    case debug, info, warning, error

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where the SDK's log lines go. Apps plug their own logger in through `Configuration.logger`.
public protocol LogSink: AnyObject {
    func log(_ level: LogLevel, _ message: String)
}

/// Keeps the lines in memory; tests read them back, apps can attach them to bug reports.
public final class MemoryLogSink: LogSink {
    private let lock = NSLock()
    private var storage: [String] = []
    public let minimumLevel: LogLevel

    public init(minimumLevel: LogLevel = .debug) {
        self.minimumLevel = minimumLevel
    }

    public func log(_ level: LogLevel, _ message: String) {
        guard level >= minimumLevel else { return }
        lock.lock()
        storage.append("[\(level)] \(message)")
        lock.unlock()
    }

    /// A snapshot of the lines logged so far.
    public var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// Writes nothing: the default, so an app that does not ask for logs gets none.
final class SilentLogSink: LogSink {
    func log(_ level: LogLevel, _ message: String) {}
}
