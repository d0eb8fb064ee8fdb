import Foundation

/// The handler of `ItemService.fetch(id:completion:)`, declared away from its users.
typealias FetchCompletion = @Sendable (Result<Item, Error>) -> Void

enum Catalog {
    /// A generic alias in a namespace, used as `Catalog.Completion<[Item]>`.
    typealias Completion<Value> = @Sendable (Result<Value, Error>) -> Void
}
