import Foundation
import Vow

struct Song: Sendable {
	let title: String
}

final class Player: Sendable {
	func next(completion: @escaping @Sendable (Swift.Result<Song, Error>) -> Void) {
		completion(.success(Song(title: "A")))
	}

	/// Promise-based alternative to `next(completion:)`, added by vow-migrate.
	func next() -> Promise<Song> {
		Promise { seal in
			next { result in
				seal.resolve(result)
			}
		}
	}
}
