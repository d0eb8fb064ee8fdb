// Hidden prelude for code blocks: the model type the examples pass around.
struct User: Sendable {
    let id: Int
    let name: String
}
