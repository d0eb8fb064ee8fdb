import Foundation
import Vow

struct Song: Sendable {
  let title: String
}

final class Player: Sendable {
  @available(*, renamed: "next()")
  func next(completion: @escaping @Sendable (Song?, Error?) -> Void) {
    completion(Song(title: "A"), nil)
  }

  /// Async alternative to `next(completion:)`, added by vow-migrate.
  func next() async throws -> Song {
    try await withCheckedThrowingContinuation { continuation in
      next { value, error in
        if let error {
          continuation.resume(throwing: error)
        } else if let value {
          continuation.resume(returning: value)
        } else {
          continuation.resume(throwing: PMKError.invalidCallingConvention)
        }
      }
    }
  }
}
