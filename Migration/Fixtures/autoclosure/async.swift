import Foundation

final class Logger: Sendable {
    @available(*, renamed: "log(_:)")
    func log(_ message: @autoclosure @Sendable () -> String, completion: @escaping @Sendable (Error?) -> Void) {
        print(message())
        completion(nil)
    }

    /// Async alternative to `log(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func log(_ message: @autoclosure @Sendable () -> String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            log(message()) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }
}
