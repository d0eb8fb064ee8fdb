import Foundation

struct Song: Sendable {
	let title: String
}

final class Player: Sendable {
	func next(completion: @escaping @Sendable (Result<Song, Error>) -> Void) {
		completion(.success(Song(title: "A")))
	}
}
