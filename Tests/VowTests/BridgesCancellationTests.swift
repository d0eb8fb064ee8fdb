import Dispatch
import XCTest

@testable import Vow

/// Cancellation across the bridge, both ways: a token cancels a task (`Promise(cancellation:)`),
/// a task cancels a token (`withCancellationToken`).
final class BridgesCancellationTests: XCTestCase {
    // MARK: - withCancellationToken

    func testWithCancellationTokenReturnsWhatTheBodyReturns() async {
        let value = await withCancellationToken { token in
            token.isCancellationRequested ? 0 : 1
        }

        XCTAssertEqual(value, 1)
    }

    func testWithCancellationTokenRethrowsWhatTheBodyThrows() async {
        await XCTAssertThrowsBridgesError(BridgesTestError(code: 4)) {
            try await withCancellationToken { _ in throw BridgesTestError(code: 4) }
        }
    }

    func testCancellingTheTaskCancelsTheToken() async {
        let (tokenCancelled, markTokenCancelled) = Guarantee<Void>.pending()
        let (registered, markRegistered) = Guarantee<Void>.pending()
        let task = Task {
            await withCancellationToken { token in
                token.register { markTokenCancelled(()) }
                markRegistered(())
                await tokenCancelled.value
                return token.isCancellationRequested
            }
        }
        await registered.value

        task.cancel()

        let tokenWasCancelled = await task.value
        XCTAssertTrue(tokenWasCancelled)
    }

    func testAnAlreadyCancelledTaskHandsTheBodyACancelledToken() async {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await withCancellationToken { token in token.isCancellationRequested }
        }

        let tokenWasCancelled = await task.value

        XCTAssertTrue(tokenWasCancelled)
    }

    func testTheTokenCanNoLongerBeCancelledOnceTheBodyReturns() async {
        let token = await withCancellationToken { token in token }

        XCTAssertFalse(token.canBeCancelled)
    }

    func testTheBodyRunsOnTheCallersActor() async {
        let ranOnMainActor = await runOnMainActor {
            await withCancellationToken { _ in
                dispatchPrecondition(condition: .onQueue(.main))
                return isMainThread
            }
        }

        XCTAssertTrue(ranOnMainActor)
    }

    // MARK: - Both ways through a promise-based middle layer

    func testCancellingAnAsyncHandlerCancelsTheLegacyPromiseWorkItCalls() async {
        // New async handler -> old promise layer (takes a token) -> new async code inside.
        let (workStarted, markWorkStarted) = Guarantee<Void>.pending()
        let innerSawCancellation = BridgesLocked(false)
        func legacyLoad(cancellation: CancellationToken) -> Promise<String> {
            Promise(cancellation: cancellation) {
                markWorkStarted(())
                do {
                    try await Task.sleep(nanoseconds: 3_600_000_000_000)
                } catch {
                    innerSawCancellation.withLock { $0 = true }
                    throw error
                }
                return "loaded"
            }
        }
        let legacyPromise = BridgesLocked<Promise<String>?>(nil)
        let handler = Task {
            try await withCancellationToken { token in
                let promise = legacyLoad(cancellation: token)
                legacyPromise.withLock { $0 = promise }
                return try await promise.value
            }
        }
        await workStarted.value

        handler.cancel()

        let result = await handler.result
        guard case .failure(let error) = result else { return XCTFail("expected cancellation") }
        XCTAssertTrue(error.isCancelled, "\(error)")
        // The legacy promise itself was cancelled through the token, and its task with it.
        let promise = legacyPromise.withLock { $0 }
        await XCTAssertThrowsBridgesError(VowError.cancelled) { try await promise?.value }
        await waitUntil { innerSawCancellation.withLock { $0 } }
    }

    func testManyHandlersCancelledConcurrentlyAllEndAndNoneIsStuck() async {
        // Cancelling at every possible moment: before the token exists, while the promise starts,
        // while it waits. Every handler must end, each with one outcome.
        let handlers = (0..<200).map { index in
            Task { () -> Int in
                try await withCancellationToken { token in
                    try await Promise(cancellation: token) { () async throws -> Int in
                        try await Task.sleep(nanoseconds: 1_000_000)
                        return index
                    }.value
                }
            }
        }
        DispatchQueue.concurrentPerform(iterations: handlers.count) { index in
            if index.isMultiple(of: 2) { handlers[index].cancel() }
        }

        for (index, handler) in handlers.enumerated() {
            switch await handler.result {
            case .success(let value):
                XCTAssertEqual(value, index)
            case .failure(let error):
                XCTAssertTrue(error.isCancelled, "\(error)")
                XCTAssertTrue(index.isMultiple(of: 2), "only cancelled handlers may fail")
            }
        }
    }
}

@MainActor
private func runOnMainActor<T: Sendable>(_ body: @MainActor () async -> T) async -> T {
    await body()
}
