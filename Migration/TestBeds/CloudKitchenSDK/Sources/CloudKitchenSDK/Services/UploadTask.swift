import Foundation

/// A photo upload in flight: its progress, and a way to stop it.
public final class UploadTask: Cancellable {
    private let token = CancellationToken()
    private let lock = NSLock()
    private var sentBytes = 0
    public let totalBytes: Int

    init(totalBytes: Int) {
        self.totalBytes = totalBytes
    }

    /// From 0 to 1.
    public var fractionCompleted: Double {
        lock.lock()
        defer { lock.unlock() }
        return totalBytes == 0 ? 1 : Double(sentBytes) / Double(totalBytes)
    }

    public var isCancelled: Bool { token.isCancelled }

    public func cancel() {
        token.cancel()
    }

    func add(sent bytes: Int) -> Double {
        lock.lock()
        sentBytes += bytes
        let fraction = totalBytes == 0 ? 1 : Double(sentBytes) / Double(totalBytes)
        lock.unlock()
        return fraction
    }

    func onCancel(_ handler: @escaping () -> Void) {
        token.onCancel(handler)
    }
}
