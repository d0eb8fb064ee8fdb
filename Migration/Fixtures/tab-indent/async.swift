import Foundation

struct Song: Sendable {
	let title: String
}

final class Player: Sendable {
	@available(*, renamed: "next()")
	func next(completion: @escaping @Sendable (Result<Song, Error>) -> Void) {
		completion(.success(Song(title: "A")))
	}

	/// Async alternative to `next(completion:)`, added by vow-migrate.
	nonisolated(nonsending) func next() async throws -> Song {
		try await withCheckedThrowingContinuation { continuation in
			next { result in
				continuation.resume(with: result)
			}
		}
	}
}
