import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
  /// The completion-handler function that answered so, as Swift names it.
  let function: String
}

struct Song: Sendable {
  let title: String
}

final class Player: Sendable {
  @available(*, renamed: "next()")
  func next(completion: @escaping @Sendable (Song?, Error?) -> Void) {
    completion(Song(title: "A"), nil)
  }

  /// Async alternative to `next(completion:)`, added by vow-migrate.
  nonisolated(nonsending) func next() async throws -> Song {
    try await withCheckedThrowingContinuation { continuation in
      next { value, error in
        if let error {
          continuation.resume(throwing: error)
        } else if let value {
          continuation.resume(returning: value)
        } else {
          continuation.resume(throwing: NeitherValueNorError(function: "next(completion:)"))
        }
      }
    }
  }
}
