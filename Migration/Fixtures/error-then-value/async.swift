// Copyright header: this comment stays at the top, above the added import.

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

struct Row: Sendable {
    let id: Int
}

final class Database: Sendable {
    @available(*, renamed: "query(_:)")
    func query(_ sql: String, callback: @escaping @Sendable (Error?, [Row]?) -> Void) {
        callback(nil, [Row(id: 1)])
    }

    /// Async alternative to `query(_:callback:)`, added by vow-migrate.
    nonisolated(nonsending) func query(_ sql: String) async throws -> [Row] {
        try await withCheckedThrowingContinuation { continuation in
            query(sql) { error, value in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "query(_:callback:)"))
                }
            }
        }
    }
}
