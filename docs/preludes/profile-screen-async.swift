// Hidden prelude for Migration/README.md's async call-site block: the async alternatives
// vow-migrate adds beside `ProfileAPI`'s completion handlers (docs/preludes/profile-screen.swift).
extension ProfileAPI {
    func login(_ user: String) async throws -> String {
        try await login(user).value
    }

    func profile(_ token: String) async throws -> Profile {
        try await profile(token).value
    }
}
