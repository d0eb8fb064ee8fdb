import Dispatch
import XCTest
import Vow

// The README's examples, verbatim, so that they always compile and do what the README says.
// Only `legacyFetchUser` (the callback API being wrapped) is supplied here.

private func legacyFetchUser(id: Int, completion: @escaping @Sendable (User?, Error?) -> Void) {
    DispatchQueue.global().async {
        id > 0 ? completion(User(id: id, name: "Ada"), nil) : completion(nil, TestError(code: id))
    }
}

// MARK: - README: Quick start

struct User: Sendable { let id: Int; let name: String }

// Wrap a callback API once...
func fetchUser(id: Int) -> Promise<User> {
    Promise { seal in
        legacyFetchUser(id: id) { user, error in seal.resolve(user, error) }
    }
}

private func quickStartChain() {
    // ...chain it the PromiseKit way (handlers run on the main queue unless told otherwise)...
    fetchUser(id: 1)
        .map(on: nil) { $0.name.uppercased() }
        .done(on: .global()) { print("Hello, \($0)") }
        .catch(on: .global()) { print("Failed: \($0)") }
}

// ...or await it from async code.
func greeting() async throws -> String {
    let user = try await fetchUser(id: 1).value
    return "Hello, \(user.name)"
}

@MainActor final class ProfileScreen {
    var title = ""
    func load() {
        fetchUser(id: 1)
            .done(on: .mainActor) { user in self.title = user.name }
            .catch(on: .mainActor) { error in self.title = "Error: \(error)" }
    }
}

// MARK: -

final class ReadmeExamplesTests: XCTestCase {

    func testTheQuickStartChainRuns() throws {
        quickStartChain()
        XCTAssertEqual(try fetchUser(id: 1).map(on: nil) { $0.name.uppercased() }.wait(), "ADA")
        XCTAssertThrowsError(try fetchUser(id: -1).wait()) { XCTAssertEqual($0 as? TestError, TestError(code: -1)) }
    }

    func testGreetingAwaitsThePromise() async throws {
        let text = try await greeting()
        XCTAssertEqual(text, "Hello, Ada")
    }

    @MainActor
    func testOnMainGivesAMainActorClosureThatUpdatesTheScreen() async throws {
        let screen = ProfileScreen()
        screen.load()
        for _ in 0..<1_000 where screen.title.isEmpty {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        XCTAssertEqual(screen.title, "Ada")
    }
}
