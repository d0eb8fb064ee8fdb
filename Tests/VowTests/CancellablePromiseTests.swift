import Dispatch
import XCTest

@testable import Vow

/// Promises, continuations and combinators that a `CancellationToken` stops (DESIGN.md section 3).
final class CancellablePromiseTests: XCTestCase {

    // MARK: - Producers

    func testAPendingPromiseRejectsAsCancelledOnTheThreadThatCancels() {
        let source = CancellationTokenSource()
        let (promise, seal) = cancellablePending(Int.self, source.token)
        let rejectedOn = Recorder<UInt>()
        promise.catch(on: nil, policy: .allErrors) { _ in rejectedOn.append(currentThreadID) }
        XCTAssertTrue(promise.isPending)

        let cancellingThread = Recorder<UInt>()
        DispatchQueue.global().sync {
            cancellingThread.append(currentThreadID)
            source.cancel()
        }

        XCTAssertEqual(promise.error as? VowError, .cancelled)
        XCTAssertTrue(promise.error?.isCancelled == true)
        XCTAssertEqual(rejectedOn.elements, cancellingThread.elements)
        withExtendedLifetime(seal) {}
    }

    func testTheBodyNeverRunsWhenTheTokenIsAlreadyCancelled() {
        let source = CancellationTokenSource()
        source.cancel()
        let bodyRuns = Counter()

        let promise = Promise<Int>(cancellation: source.token) { _ in bodyRuns.increment() }

        XCTAssertEqual(bodyRuns.value, 0)
        XCTAssertEqual(promise.error as? VowError, .cancelled)
    }

    func testAPromiseThatSettledIsNotChangedByALaterCancel() {
        let source = CancellationTokenSource()
        let promise = Promise<Int>(cancellation: source.token) { seal in seal.fulfill(7) }

        source.cancel()

        XCTAssertEqual(promise.valueIfFulfilled, 7)
    }

    func testANilTokenMakesAnOrdinaryPromise() {
        let promise = Promise<Int>(cancellation: nil) { seal in seal.fulfill(1) }
        let neverCancelled = Promise<Int>(cancellation: CancellationToken.none) { seal in seal.fulfill(2) }

        XCTAssertEqual(promise.valueIfFulfilled, 1)
        XCTAssertEqual(neverCancelled.valueIfFulfilled, 2)
    }

    func testTheBodyKeepsEveryPromiseKitResolveForm() {
        let value = Promise<Int>(cancellation: nil) { seal in seal.resolve(1, nil) }
        let result = Promise<Int>(cancellation: nil) { seal in seal.resolve(Swift.Result<Int, TestError>.success(2)) }
        let thrown = Promise<Int>(cancellation: nil) { _ in throw TestError(code: 3) }

        XCTAssertEqual(value.valueIfFulfilled, 1)
        XCTAssertEqual(result.valueIfFulfilled, 2)
        XCTAssertEqual(thrown.error as? TestError, TestError(code: 3))
    }

    func testALateResultAfterCancellationIsIgnoredWithoutADiagnostic() {
        withConfiguration {
            let diagnostics = Recorder<String>()
            conf.diagnosticHandler = { diagnostics.append("\($0)") }
            let source = CancellationTokenSource()
            var seal: Resolver<Int>?
            let promise = Promise<Int>(cancellation: source.token) { seal = $0 }

            source.cancel()
            seal?.fulfill(1)

            XCTAssertEqual(promise.error as? VowError, .cancelled)
            XCTAssertEqual(diagnostics.elements, [])
        }
    }

    // MARK: - Cleanup

    func testCleanupRunsOnceWhenTheTokenFires() {
        let source = CancellationTokenSource()
        let cleanups = Counter()
        let (promise, seal) = cancellablePending(Int.self, source.token)
        seal.onCancel { cleanups.increment() }

        source.cancel()
        source.cancel()

        XCTAssertEqual(cleanups.value, 1)
        XCTAssertEqual(promise.error as? VowError, .cancelled)
        withExtendedLifetime(seal) {}
    }

    func testCleanupRunsAfterThePromiseIsRejected() {
        let source = CancellationTokenSource()
        let promiseWasRejected = Recorder<Bool>()
        let (promise, seal) = cancellablePending(Int.self, source.token)
        seal.onCancel { promiseWasRejected.append(promise.isRejected) }

        source.cancel()

        XCTAssertEqual(promiseWasRejected.elements, [true])
        withExtendedLifetime(seal) {}
    }

    func testCleanupNeverRunsWhenThePromiseSettlesFirst() {
        let source = CancellationTokenSource()
        let cleanups = Counter()
        let promise = Promise<Int>(cancellation: source.token) { seal in
            seal.onCancel { cleanups.increment() }
            seal.fulfill(1)
        }

        XCTAssertEqual(source.token.storage?.storedHandlerCount, 0, "settling removed every registration")
        source.cancel()

        XCTAssertEqual(cleanups.value, 0)
        XCTAssertEqual(promise.valueIfFulfilled, 1)
    }

    func testCleanupRegisteredAfterCancellationRunsAtOnce() {
        let source = CancellationTokenSource()
        var seal: Resolver<Int>?
        _ = Promise<Int>(cancellation: source.token) { seal = $0 }
        source.cancel()
        let cleanups = Counter()

        seal?.onCancel { cleanups.increment() }

        XCTAssertEqual(cleanups.value, 1)
    }

    func testCleanupRegisteredAfterFulfillmentNeverRuns() {
        let source = CancellationTokenSource()
        var seal: Resolver<Int>?
        _ = Promise<Int>(cancellation: source.token) { seal = $0 }
        seal?.fulfill(1)
        source.cancel()
        let cleanups = Counter()

        seal?.onCancel { cleanups.increment() }

        XCTAssertEqual(cleanups.value, 0)
    }

    func testCleanupOnAResolverWithoutATokenIsReleasedUnrun() {
        let cleanups = Counter()
        let (promise, seal) = Promise<Int>.pending()
        weak var releasedObject: AnyObject?
        do {
            let captured = Counter()
            releasedObject = captured
            seal.onCancel { captured.increment(); cleanups.increment() }
        }

        XCTAssertNil(releasedObject)
        seal.fulfill(1)
        XCTAssertEqual(cleanups.value, 0)
        XCTAssertEqual(promise.valueIfFulfilled, 1)
    }

    func testDisposingARegistrationTheBodyMadeStopsItsCleanup() {
        let source = CancellationTokenSource()
        let cleanups = Counter()
        let (promise, seal) = cancellablePending(Int.self, source.token)
        let registration = source.token.register { cleanups.increment() }
        registration.dispose()

        source.cancel()

        XCTAssertEqual(cleanups.value, 0)
        XCTAssertEqual(promise.error as? VowError, .cancelled)
        withExtendedLifetime(seal) {}
    }

    func testASourceDeallocatedWhilePendingLeavesThePromiseToItsWork() {
        var source: CancellationTokenSource? = CancellationTokenSource()
        let token = source!.token
        var seal: Resolver<Int>?
        let cleanups = Counter()
        let promise = Promise<Int>(cancellation: token) { resolver in
            seal = resolver
            resolver.onCancel { cleanups.increment() }
        }
        XCTAssertEqual(token.storage?.storedHandlerCount, 2)

        source = nil

        XCTAssertEqual(token.storage?.storedHandlerCount, 0, "the handlers were released")
        XCTAssertTrue(promise.isPending)
        seal?.fulfill(3)
        XCTAssertEqual(promise.valueIfFulfilled, 3)
        XCTAssertEqual(cleanups.value, 0)
    }

    // MARK: - Abandonment

    func testCancellingThenDroppingTheResolverLeavesThePromiseCancelled() {
        withConfiguration {
            let diagnostics = Recorder<String>()
            conf.diagnosticHandler = { diagnostics.append("\($0)") }
            let source = CancellationTokenSource()
            var seal: Resolver<Int>?
            let promise = Promise<Int>(cancellation: source.token) { seal = $0 }
            XCTAssertNotNil(seal)

            source.cancel()
            seal = nil

            XCTAssertEqual(promise.error as? VowError, .cancelled)
            XCTAssertEqual(diagnostics.elements, [])
        }
    }

    func testDroppingTheResolverThenCancellingLeavesThePromiseAbandoned() {
        withConfiguration {
            conf.diagnosticHandler = { _ in }
            conf.logHandler = { _ in }
            let source = CancellationTokenSource()
            let cleanups = Counter()
            var seal: Resolver<Int>?
            let promise = Promise<Int>(cancellation: source.token) { resolver in
                seal = resolver
                resolver.onCancel { cleanups.increment() }
            }

            XCTAssertNotNil(seal)
            XCTAssertEqual(source.token.storage?.storedHandlerCount, 2)

            seal = nil
            XCTAssertEqual(source.token.storage?.storedHandlerCount, 0, "settling removed the registrations")
            source.cancel()

            XCTAssertEqual(promise.error as? VowError, .abandoned)
            XCTAssertEqual(cleanups.value, 0)
        }
    }

    func testTheTokensRegistrationDoesNotKeepTheResolverAlive() {
        withConfiguration {
            conf.diagnosticHandler = { _ in }
            conf.logHandler = { _ in }
            let source = CancellationTokenSource()
            weak var weakSeal: Resolver<Int>?

            let promise = Promise<Int>(cancellation: source.token) { seal in
                weakSeal = seal
                seal.onCancel {}
            }

            XCTAssertNil(weakSeal)
            XCTAssertEqual(promise.error as? VowError, .abandoned)
            XCTAssertEqual(source.token.storage?.storedHandlerCount, 0)
        }
    }

    // MARK: - Guarantees

    func testACancelledGuaranteeSettlesWithItsValueIfCancelled() {
        let source = CancellationTokenSource()
        var resolve: (@Sendable (Int) -> Void)?
        let guarantee = Guarantee<Int>(cancellation: source.token, valueIfCancelled: -1) { resolve = $0 }

        source.cancel()
        resolve?(5)

        XCTAssertEqual(guarantee.wait(), -1)
        XCTAssertEqual(source.token.storage?.storedHandlerCount, 0)
    }

    func testAGuaranteeWhoseTokenIsAlreadyCancelledNeverRunsItsBody() {
        let source = CancellationTokenSource()
        source.cancel()
        let bodyRuns = Counter()

        let guarantee = Guarantee<Int>(cancellation: source.token, valueIfCancelled: -1) { _ in bodyRuns.increment() }

        XCTAssertEqual(bodyRuns.value, 0)
        XCTAssertEqual(guarantee.wait(), -1)
    }

    func testAGuaranteeThatSettledFirstKeepsItsValueAndItsRegistrationIsRemoved() {
        let source = CancellationTokenSource()
        let guarantee = Guarantee<Int>(cancellation: source.token, valueIfCancelled: -1) { resolve in resolve(4) }

        XCTAssertEqual(source.token.storage?.storedHandlerCount, 0)
        source.cancel()

        XCTAssertEqual(guarantee.wait(), 4)
    }

    // MARK: - Continuations

    func testAContinuationWhoseTokenFiresBeforeItsParentSettlesNeverRuns() {
        let source = CancellationTokenSource()
        let (parent, seal) = Promise<Int>.pending()
        let handlerRuns = Counter()
        let link = parent.then(on: nil, cancellation: source.token) { value -> Promise<Int> in
            handlerRuns.increment()
            return .value(value)
        }

        source.cancel()
        XCTAssertEqual(link.error as? VowError, .cancelled, "the link rejects as soon as the token fires")
        seal.fulfill(1)

        XCTAssertEqual(handlerRuns.value, 0)
        XCTAssertEqual(link.error as? VowError, .cancelled)
        XCTAssertTrue(link.error?.isCancelled == true)
    }

    func testAContinuationWhoseTokenIsAlreadyCancelledRejectsAtOnce() {
        let source = CancellationTokenSource()
        source.cancel()
        let (parent, seal) = Promise<Int>.pending()
        let handlerRuns = Counter()

        let link = parent.map(on: nil, cancellation: source.token) { value -> Int in
            handlerRuns.increment()
            return value
        }

        XCTAssertEqual(link.error as? VowError, .cancelled)
        seal.fulfill(1)
        XCTAssertEqual(handlerRuns.value, 0)
    }

    func testAContinuationQueuedBeforeTheTokenFiresIsSkipped() {
        let source = CancellationTokenSource()
        let queue = DispatchQueue(label: "blocked")
        let unblock = DispatchSemaphore(value: 0)
        queue.async { unblock.wait() }
        let handlerRuns = Counter()

        let link = Promise.value(1).done(on: queue, cancellation: source.token) { _ in handlerRuns.increment() }
        source.cancel()
        unblock.signal()
        queue.sync {}

        XCTAssertEqual(handlerRuns.value, 0)
        XCTAssertEqual(link.error as? VowError, .cancelled)
    }

    func testEveryContinuationIsSkippedOnceItsTokenFired() {
        let source = CancellationTokenSource()
        source.cancel()
        let token = source.token
        let handlerRuns = Counter()
        let ran: @Sendable () -> Void = { handlerRuns.increment() }
        let parent = Promise.value(1)
        let failed = Promise<Int>(error: TestError())
        let failedVoid = Promise<Void>(error: TestError())

        let links: [Promise<Void>] = [
            parent.then(on: nil, cancellation: token) { _ in ran(); return Promise() },
            parent.map(on: nil, cancellation: token) { _ in ran() },
            parent.compactMap(on: nil, cancellation: token) { _ in ran(); return () },
            parent.done(on: nil, cancellation: token) { _ in ran() },
            parent.get(on: nil, cancellation: token) { _ in ran() }.asVoid(),
            failed.recover(on: nil, cancellation: token) { _ in ran(); return Promise.value(1) }.asVoid(),
            failedVoid.recover(on: nil, cancellation: token) { _ in ran() },
            Guarantee.value(1).map(on: nil, cancellation: token) { _ in ran() },
        ]

        XCTAssertEqual(handlerRuns.value, 0)
        for link in links {
            XCTAssertEqual(link.error as? VowError, .cancelled)
        }
    }

    func testContinuationsRunNormallyWhileTheTokenHasNotFired() throws {
        let source = CancellationTokenSource()
        let token = source.token
        let seen = Recorder<Int>()

        let value = try Promise.value(2)
            .then(on: nil, cancellation: token) { Promise.value($0 + 1) }
            .map(on: nil, cancellation: token) { $0 * 10 }
            .compactMap(on: nil, cancellation: token) { Optional($0 + 1) }
            .get(on: nil, cancellation: token) { seen.append($0) }
            .wait()
        let recovered = try Promise<Int>(error: TestError())
            .recover(on: nil, cancellation: token) { _ in Promise.value(9) }
            .wait()

        XCTAssertEqual(value, 31)
        XCTAssertEqual(seen.elements, [31])
        XCTAssertEqual(recovered, 9)
        XCTAssertEqual(token.storage?.storedHandlerCount, 0)
    }

    func testARejectionPassesThroughACancellableLink() {
        let source = CancellationTokenSource()
        let link = Promise<Int>(error: TestError(code: 2)).map(on: nil, cancellation: source.token) { $0 }

        XCTAssertEqual(link.error as? TestError, TestError(code: 2))
    }

    func testALinkWaitingForThePromiseItsHandlerReturnedRejectsWhenTheTokenFires() {
        let source = CancellationTokenSource()
        let (inner, innerSeal) = Promise<Int>.pending()
        let link = Promise.value(1).then(on: nil, cancellation: source.token) { _ in inner }

        source.cancel()
        innerSeal.fulfill(5)

        XCTAssertEqual(link.error as? VowError, .cancelled)
    }

    func testALinkedSourceCancelsAWholeChain() {
        let screen = CancellationTokenSource()
        let request = CancellationTokenSource(linkedTo: [screen.token])
        let (parent, seal) = Promise<Int>.pending()
        let handlerRuns = Counter()
        let end = parent
            .map(on: nil, cancellation: request.token) { value -> Int in handlerRuns.increment(); return value }
            .then(on: nil, cancellation: request.token) { value -> Promise<Int> in handlerRuns.increment(); return .value(value) }
            .done(on: nil, cancellation: request.token) { _ in handlerRuns.increment() }

        screen.cancel()
        seal.fulfill(1)

        XCTAssertEqual(handlerRuns.value, 0)
        XCTAssertEqual(end.error as? VowError, .cancelled)
        XCTAssertEqual(request.token.storage?.storedHandlerCount, 0)
    }

    func testCatchSkipsACancelledChainByDefaultAndFinallyStillRuns() {
        let source = CancellationTokenSource()
        let caught = Recorder<String>()
        let finished = Counter()
        let (producer, seal) = cancellablePending(Int.self, source.token)
        let chain = producer
            .map(on: nil) { $0 + 1 }
            .done(on: nil, cancellation: source.token) { _ in caught.append("done") }

        chain.catch(on: nil) { caught.append("default policy: \($0)") }.finally(on: nil) { finished.increment() }
        chain.catch(on: nil, policy: .allErrors) { caught.append("all errors: \($0)") }
        source.cancel()

        XCTAssertEqual(caught.elements, ["all errors: \(VowError.cancelled)"])
        XCTAssertEqual(finished.value, 1)
        withExtendedLifetime(seal) {}
    }

    func testACancelledChainIsNotReportedAsAnUnhandledRejection() {
        withConfiguration {
            let reports = Recorder<String>()
            conf.unhandledRejectionHandler = { reports.append("\($0)") }
            let source = CancellationTokenSource()
            do {
                let (producer, seal) = cancellablePending(Int.self, source.token)
                _ = producer.map(on: nil, cancellation: source.token) { $0 }
                source.cancel()
                withExtendedLifetime(seal) {}
            }

            XCTAssertEqual(reports.elements, [])
        }
    }

    func testACancellableLinkStillReportsAnUnhandledRejection() {
        withConfiguration {
            let reports = Recorder<String>()
            conf.unhandledRejectionHandler = { reports.append("\($0.error)") }
            let source = CancellationTokenSource()
            do {
                _ = Promise<Int>(error: TestError(code: 8)).map(on: nil, cancellation: source.token) { $0 }
            }

            XCTAssertEqual(reports.elements, ["\(TestError(code: 8))"])
        }
    }

    // MARK: - Overloads

    func testCallsWithoutATokenPickThePromiseKitMethodsAndCallsWithOnePickTheCancellableOnes() {
        let source = CancellationTokenSource()
        source.cancel()
        let token = source.token
        let promise = Promise.value(1)

        let plain = promise.then(on: nil) { Promise.value($0) }
        let withToken = promise.then(on: nil, cancellation: token) { Promise.value($0) }
        let withNilToken = promise.map(on: nil, cancellation: nil) { $0 }
        let defaultQueue: Promise<Int> = promise.then { Promise.value($0) }
        let defaultQueueWithToken: Promise<Int> = promise.then(cancellation: token) { Promise.value($0) }

        XCTAssertEqual(plain.valueIfFulfilled, 1)
        XCTAssertEqual(withToken.error as? VowError, .cancelled)
        XCTAssertEqual(withNilToken.valueIfFulfilled, 1)
        XCTAssertEqual(defaultQueueWithToken.error as? VowError, .cancelled)
        XCTAssertTrue(defaultQueue.isPending, "the default queue is the main queue, not drained here")
    }

    @MainActor
    func testOnMainStillGivesMainActorClosuresWithAndWithoutAToken() async throws {
        let screen = CancellableScreen()
        let source = CancellationTokenSource()

        screen.load(cancellation: source.token)
        for _ in 0..<1_000 where screen.titles.count < 2 {
            try await Task.sleep(nanoseconds: 5_000_000)
        }

        XCTAssertEqual(screen.titles.sorted(), ["plain 1", "with token 1"])
    }

    // MARK: - Combinators

    func testWhenCancelsTheRestAfterTheFirstRejection() {
        let source = CancellationTokenSource()
        let cleanups = Counter()
        let (first, firstSeal) = cancellablePending(Int.self, source.token)
        let (last, lastSeal) = cancellablePending(Int.self, source.token)
        firstSeal.onCancel { cleanups.increment() }
        lastSeal.onCancel { cleanups.increment() }
        let (failing, failingSeal) = Promise<Int>.pending()
        let sourceWasCancelledWhenCaught = Recorder<Bool>()

        let all = when(fulfilled: [first, failing, last], cancelling: source)
        all.catch(on: nil) { _ in sourceWasCancelledWhenCaught.append(source.isCancellationRequested) }
        failingSeal.reject(TestError(code: 1))

        XCTAssertEqual(all.error as? TestError, TestError(code: 1))
        XCTAssertEqual(sourceWasCancelledWhenCaught.elements, [true])
        XCTAssertEqual(first.error as? VowError, .cancelled)
        XCTAssertEqual(last.error as? VowError, .cancelled)
        XCTAssertEqual(cleanups.value, 2)
        withExtendedLifetime((firstSeal, lastSeal)) {}
    }

    func testWhenThatFulfillsLeavesTheSourceAlone() {
        let source = CancellationTokenSource()

        let all = when(fulfilled: [Promise.value(1), Promise.value(2)], cancelling: source)

        XCTAssertEqual(all.valueIfFulfilled, [1, 2])
        XCTAssertFalse(source.isCancellationRequested)
    }

    func testRaceCancelsTheLosersOnceOneSettles() {
        let source = CancellationTokenSource()
        let cleanups = Counter()
        let (winner, winnerSeal) = cancellablePending(Int.self, source.token)
        let (loser, loserSeal) = cancellablePending(Int.self, source.token)
        winnerSeal.onCancel { cleanups.increment() }
        loserSeal.onCancel { cleanups.increment() }
        let loserLink = loser.map(on: nil, cancellation: source.token) { $0 }

        let first = race([winner, loserLink], cancelling: source)
        winnerSeal.fulfill(1)

        XCTAssertEqual(first.valueIfFulfilled, 1)
        XCTAssertTrue(source.isCancellationRequested)
        XCTAssertEqual(loser.error as? VowError, .cancelled)
        XCTAssertEqual(loserLink.error as? VowError, .cancelled)
        XCTAssertEqual(cleanups.value, 1, "only the loser was cancelled while pending")
        withExtendedLifetime(loserSeal) {}
    }

    func testRaceWithARejectionFirstStillCancelsTheLosers() {
        let source = CancellationTokenSource()
        let (loser, loserSeal) = cancellablePending(Int.self, source.token)

        let first = race(Promise<Int>(error: TestError(code: 4)), loser, cancelling: source)

        XCTAssertEqual(first.error as? TestError, TestError(code: 4))
        XCTAssertEqual(loser.error as? VowError, .cancelled)
        withExtendedLifetime(loserSeal) {}
    }

    func testRaceFulfilledCancelsTheOthersOnlyOnceOneFulfills() {
        let source = CancellationTokenSource()
        let (failing, failingSeal) = Promise<Int>.pending()
        let (winner, winnerSeal) = Promise<Int>.pending()
        let (loser, loserSeal) = cancellablePending(Int.self, source.token)

        let first = race(fulfilled: [failing, winner, loser], cancelling: source)
        failingSeal.reject(TestError())
        XCTAssertFalse(source.isCancellationRequested, "a rejection is not a winner")
        winnerSeal.fulfill(2)

        XCTAssertEqual(first.valueIfFulfilled, 2)
        XCTAssertEqual(loser.error as? VowError, .cancelled)
        withExtendedLifetime(loserSeal) {}
    }

    func testCancellingCombinatorsDoNotCountAsHandlingTheirResult() {
        let source = CancellationTokenSource()

        let all = when(fulfilled: [Promise<Int>(error: TestError())], cancelling: source)
        let first = race([Promise<Int>(error: TestError())], cancelling: CancellationTokenSource())

        XCTAssertNotNil(all.box.unobservedValue(), "an unhandled rejection is still reported")
        XCTAssertNotNil(first.box.unobservedValue(), "an unhandled rejection is still reported")
        XCTAssertTrue(source.isCancellationRequested)
    }

    // MARK: - Registration hygiene

    func testManySettledCancellableLinksLeaveNoHandlerOnALongLivedToken() {
        let source = CancellationTokenSource()
        let token = source.token
        let (root, seal) = Promise<Int>.pending()
        var pendingLinks: [Promise<Int>] = []
        for index in 0..<100_000 {
            if index.isMultiple(of: 2) {
                _ = Promise.value(index).map(on: nil, cancellation: token) { $0 }
            } else {
                pendingLinks.append(root.map(on: nil, cancellation: token) { $0 })
            }
        }
        XCTAssertEqual(token.storage?.storedHandlerCount, 50_000, "one per pending link")

        seal.fulfill(1)

        XCTAssertEqual(token.storage?.storedHandlerCount, 0)
        XCTAssertTrue(pendingLinks.allSatisfy { $0.valueIfFulfilled == 1 })
    }

    func testManySettledCancellablePromisesLeaveNoHandlerOnALongLivedToken() {
        let source = CancellationTokenSource()
        for index in 0..<10_000 {
            _ = Promise<Int>(cancellation: source.token) { seal in
                seal.onCancel {}
                seal.fulfill(index)
            }
        }

        XCTAssertEqual(source.token.storage?.storedHandlerCount, 0)
    }

    // MARK: - Races

    func testCancelRacingFulfillFromManyThreadsHasExactlyOneOutcome() {
        withConfiguration {
            conf.diagnosticHandler = { diagnostic in XCTFail("unexpected \(diagnostic)") }
            let count = 4_000
            let sources = (0..<count).map { _ in CancellationTokenSource() }
            let cleanups = (0..<count).map { _ in Counter() }
            let handlerRuns = (0..<count).map { _ in Counter() }
            let seals = Recorder<(Int, Resolver<Int>)>()
            let promises = (0..<count).map { index in
                Promise<Int>(cancellation: sources[index].token) { seal in
                    seals.append((index, seal))
                    seal.onCancel { cleanups[index].increment() }
                }
            }
            let resolvers = Dictionary(uniqueKeysWithValues: seals.elements)
            for (index, promise) in promises.enumerated() {
                promise.pipe { _ in handlerRuns[index].increment() }
            }

            let observerRuns = (0..<count).map { _ in Counter() }

            // Three threads walk the same promises in the same order, so each promise is cancelled,
            // fulfilled and observed at nearly the same moment.
            DispatchQueue.concurrentPerform(iterations: 3) { role in
                for index in 0..<count {
                    switch role {
                    case 0: sources[index].cancel()
                    case 1: resolvers[index]?.fulfill(index)
                    default: promises[index].pipe { _ in observerRuns[index].increment() }
                    }
                }
            }

            var cancelledCount = 0
            for index in 0..<count {
                XCTAssertEqual(handlerRuns[index].value, 1)
                XCTAssertEqual(observerRuns[index].value, 1)
                switch promises[index].result {
                case .fulfilled(let value)?:
                    XCTAssertEqual(value, index)
                    XCTAssertEqual(cleanups[index].value, 0)
                case .rejected(let error)?:
                    XCTAssertEqual(error as? VowError, .cancelled)
                    XCTAssertEqual(cleanups[index].value, 1)
                    cancelledCount += 1
                case nil:
                    XCTFail("promise \(index) is still pending")
                }
                XCTAssertEqual(sources[index].token.storage?.storedHandlerCount, 0)
            }
            // Both outcomes should occur; not asserted, since scheduling decides.
            _ = cancelledCount
        }
    }

    func testCancelRacingAParentFromManyThreadsRunsEachContinuationAtMostOnce() {
        let count = 4_000
        let sources = (0..<count).map { _ in CancellationTokenSource() }
        let parents = (0..<count).map { _ in Promise<Int>.pending() }
        let handlerRuns = (0..<count).map { _ in Counter() }
        let settlements = (0..<count).map { _ in Counter() }
        let links = (0..<count).map { index in
            parents[index].promise.map(on: nil, cancellation: sources[index].token) { value -> Int in
                handlerRuns[index].increment()
                return value
            }
        }
        for (index, link) in links.enumerated() {
            link.pipe { _ in settlements[index].increment() }
        }

        DispatchQueue.concurrentPerform(iterations: 2) { role in
            for index in 0..<count {
                if role == 0 {
                    sources[index].cancel()
                } else {
                    parents[index].resolver.fulfill(index)
                }
            }
        }

        for index in 0..<count {
            XCTAssertEqual(settlements[index].value, 1)
            XCTAssertLessThanOrEqual(handlerRuns[index].value, 1)
            switch links[index].result {
            case .fulfilled(let value)?:
                XCTAssertEqual(value, index)
                XCTAssertEqual(handlerRuns[index].value, 1)
            case .rejected(let error)?:
                XCTAssertEqual(error as? VowError, .cancelled)
            case nil:
                XCTFail("link \(index) is still pending")
            }
            XCTAssertEqual(sources[index].token.storage?.storedHandlerCount, 0)
        }
    }

    func testCancelRacingResolveFromManyThreadsSettlesEachGuaranteeOnce() {
        withConfiguration {
            conf.diagnosticHandler = { diagnostic in XCTFail("unexpected \(diagnostic)") }
            let count = 4_000
            let sources = (0..<count).map { _ in CancellationTokenSource() }
            let resolves = Recorder<(Int, @Sendable (Int) -> Void)>()
            let guarantees = (0..<count).map { index in
                Guarantee<Int>(cancellation: sources[index].token, valueIfCancelled: -1) { resolve in
                    resolves.append((index, resolve))
                }
            }
            let resolveFunctions = Dictionary(uniqueKeysWithValues: resolves.elements)
            let handlerRuns = (0..<count).map { _ in Counter() }
            for (index, guarantee) in guarantees.enumerated() {
                guarantee.done(on: nil) { _ in handlerRuns[index].increment() }
            }

            DispatchQueue.concurrentPerform(iterations: 2) { role in
                for index in 0..<count {
                    if role == 0 {
                        sources[index].cancel()
                    } else {
                        resolveFunctions[index]?(index)
                    }
                }
            }

            for index in 0..<count {
                XCTAssertEqual(handlerRuns[index].value, 1)
                XCTAssertTrue([-1, index].contains(guarantees[index].wait()))
                XCTAssertEqual(sources[index].token.storage?.storedHandlerCount, 0)
            }
        }
    }

    func testCleanupRegisteredWhileAnotherThreadCancelsRunsExactlyOnce() {
        for _ in 0..<500 {
            let source = CancellationTokenSource()
            let cleanups = Counter()
            var seal: Resolver<Int>?
            let promise = Promise<Int>(cancellation: source.token) { seal = $0 }
            let resolver = seal!
            seal = nil

            DispatchQueue.concurrentPerform(iterations: 2) { step in
                if step == 0 {
                    source.cancel()
                } else {
                    resolver.onCancel { cleanups.increment() }
                }
            }

            XCTAssertEqual(promise.error as? VowError, .cancelled)
            XCTAssertEqual(cleanups.value, 1)
        }
    }
}

/// A pending promise that `token` can cancel, and its resolver (which the caller must keep alive,
/// or the promise is abandoned).
private func cancellablePending<T: Sendable>(
    _: T.Type,
    _ token: CancellationToken
) -> (promise: Promise<T>, resolver: Resolver<T>) {
    let resolver = Recorder<Resolver<T>>()
    let promise = Promise<T>(cancellation: token) { resolver.append($0) }
    return (promise, resolver.elements[0])
}

/// A screen whose handlers touch main-actor state, given `on: .mainActor` with and without a token.
@MainActor
private final class CancellableScreen {
    var titles: [String] = []

    func load(cancellation token: CancellationToken) {
        Promise.value(1)
            .done { @MainActor value in self.titles.append("plain \(value)") }
            .cauterize()
        Promise.value(1)
            .done(on: .mainActor, cancellation: token) { value in self.titles.append("with token \(value)") }
            .cauterize()
        _ = Promise.value(1).map(on: .mainActor, cancellation: token) { value in self.titles.count + value }
        _ = Promise.value(1).get(on: .mainActor, cancellation: token) { _ in _ = self.titles }
        _ = Promise.value(1).then(on: .mainActor, cancellation: token) { _ in Promise.value(self.titles.count) }
    }
}
