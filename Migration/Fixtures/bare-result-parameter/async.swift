import Foundation

final class Pipeline: Sendable {
    @available(*, renamed: "run(retry:)")
    func run(retry: @escaping @Sendable (Result<Int, Error>) -> Bool, completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
        completion(.success(1))
    }

    /// Async alternative to `run(retry:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func run(retry: @escaping @Sendable (Result<Int, Error>) -> Bool) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            run(retry: retry) { result in
                continuation.resume(with: result)
            }
        }
    }
}
