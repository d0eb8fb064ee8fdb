import Foundation

/// How an app sets the SDK up. A class, as in the SDK's first releases: apps keep one and
/// tweak it before `CloudKitchen.connect`.
public final class Configuration {
    /// The platform's API root.
    public var baseURL: URL
    /// Identifies the app to the platform.
    public var apiKey: String
    /// Seconds before a request is given up.
    public var timeout: TimeInterval
    /// Attempts for a request that fails with a transient error, the first one included.
    public var maximumAttempts: Int
    /// Seconds a cached GET response is served without asking the server.
    public var cacheLifetime: TimeInterval
    /// Operations the sync engine runs at once.
    public var syncConcurrency: Int
    public var logger: LogSink

    public init(
        baseURL: URL = URL(string: "https://api.cloudkitchen.example/v2")!,
        apiKey: String,
        timeout: TimeInterval = 30,
        maximumAttempts: Int = 3,
        cacheLifetime: TimeInterval = 300,
        syncConcurrency: Int = 1,
        logger: LogSink? = nil
    ) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.timeout = timeout
        self.maximumAttempts = maximumAttempts
        self.cacheLifetime = cacheLifetime
        self.syncConcurrency = syncConcurrency
        self.logger = logger ?? SilentLogSink()
    }

    /// Checks the values an app can get wrong, before anything is sent.
    func validate() -> SDKError? {
        if apiKey.isEmpty { return .invalidArgument("apiKey is empty") }
        if maximumAttempts < 1 { return .invalidArgument("maximumAttempts must be at least 1") }
        if syncConcurrency < 1 { return .invalidArgument("syncConcurrency must be at least 1") }
        return nil
    }
}
