import Foundation
import Vow

struct Song: Sendable {
  let title: String
}

final class Player: Sendable {
  func next(completion: @escaping @Sendable (Song?, Error?) -> Void) {
    completion(Song(title: "A"), nil)
  }

  /// Promise-based alternative to `next(completion:)`, added by vow-migrate.
  func next() -> Promise<Song> {
    Promise { seal in
      next { value, error in
        seal.resolve(value, error)
      }
    }
  }
}
