import Dispatch
import Foundation
import XCTest
import Vow

// The README's examples, run, so that they do what the README says. `scripts/docs --check`
// typechecks the README's blocks themselves and fails unless every line of each appears here, in
// the same order (the blocks are marked `mirror Tests/VowTests/ReadmeExamplesTests.swift`): this
// file may wrap them in functions and add assertions, but cannot drift from the text.
// Only `legacyFetchUser` (the callback API being wrapped) and `Transfer` are supplied here.

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

// MARK: - README: Cancellation

/// A stand-in for a transfer API with a `stop()`: completes after a short delay unless stopped.
private final class Transfer: @unchecked Sendable {
    // @unchecked: `stopped` is only touched under `lock`.
    private let lock = NSLock()
    private var stopped = false

    init(_ name: String, completion: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { [self] in
            lock.lock(); let wasStopped = stopped; lock.unlock()
            if !wasStopped { completion() }
        }
    }

    func stop() {
        lock.lock(); stopped = true; lock.unlock()
    }

    var isStopped: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }
}

private let transfers = Recorder<Transfer>()

func download(_ name: String, cancellation token: CancellationToken) -> Promise<String> {
    Promise(cancellation: token) { seal in
        let transfer = Transfer(name) { seal.fulfill("downloaded \(name)") }
        transfers.append(transfer)
        seal.onCancel { transfer.stop() }      // runs only if cancelled while pending
    }
}

private func cancellationExample() -> Promise<String> {
    let source = CancellationTokenSource()
    let file = download("report.pdf", cancellation: source.token)
    source.cancel()                                 // `file` rejects with VowError.cancelled
    return file
}

// MARK: - README: Promises and async/await, both ways

private func bothWays() async throws -> [String] {
    var seen: [String] = []
    // A promise, awaited: no main queue needed; cancelling the awaiting Task releases just this awaiter.
    let user = try await fetchUser(id: 1).value
    seen.append(user.name)

    // Async code as a promise: the body runs in a Task the promise owns.
    func fetchGreeting() -> Promise<String> {
        Promise { try await greeting() }
    }
    seen.append(try await fetchGreeting().value)

    // A Task's cancellation as a token, for promise-based code underneath.
    let name = try await withCancellationToken { token in
        try await download("avatar.png", cancellation: token).value
    }
    seen.append(name)

    // A callback API as an async call, through a checked continuation.
    let ada = try await withCallback { done in legacyFetchUser(id: 1, completion: done) }
    seen.append(ada.name)

    // Many promises as an AsyncSequence, in the order they settle.
    for try await user in [fetchUser(id: 1), fetchUser(id: 2)].values {
        print(user.name)
        seen.append(user.name)
    }
    return seen
}

// MARK: -

final class ReadmeExamplesTests: XCTestCase {

    func testTheCancellationExampleRejectsAndStopsTheTransfer() {
        let file = cancellationExample()
        XCTAssertEqual(file.error as? VowError, .cancelled)
        XCTAssertTrue(transfers.elements.last?.isStopped ?? false)
    }

    func testTheBothWaysExamplesRun() async throws {
        let seen = try await bothWays()
        XCTAssertEqual(seen, ["Ada", "Hello, Ada", "downloaded avatar.png", "Ada", "Ada", "Ada"])
    }

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
