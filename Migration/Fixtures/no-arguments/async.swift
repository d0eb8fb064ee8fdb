import Foundation

final class Analytics: Sendable {
    @available(*, renamed: "flush()")
    func flush(completionHandler: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async {
            completionHandler()
        }
    }

    /// Async alternative to `flush(completionHandler:)`, added by vow-migrate.
    nonisolated(nonsending) func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            flush {
                continuation.resume()
            }
        }
    }
}
