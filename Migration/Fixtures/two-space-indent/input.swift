import Foundation

struct Song: Sendable {
  let title: String
}

final class Player: Sendable {
  func next(completion: @escaping @Sendable (Song?, Error?) -> Void) {
    completion(Song(title: "A"), nil)
  }
}
