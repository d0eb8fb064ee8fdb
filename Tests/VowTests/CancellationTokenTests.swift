import Dispatch
import XCTest

@testable import Vow

/// The semantics of `CancellationTokenSource`, `CancellationToken` and
/// `CancellationTokenRegistration` (DESIGN.md section 3), one example each.
final class CancellationTokenTests: XCTestCase {
    // MARK: - Running handlers

    func testAHandlerRunsOnceWhenTheSourceIsCancelled() {
        let source = CancellationTokenSource()
        let runs = Locked(0)
        source.token.register { runs.withLock { $0 += 1 } }

        XCTAssertEqual(runs.value, 0)
        source.cancel()

        XCTAssertEqual(runs.value, 1)
        XCTAssertTrue(source.isCancellationRequested)
        XCTAssertTrue(source.token.isCancellationRequested)
    }

    func testCancellingTwiceRunsHandlersOnce() {
        let source = CancellationTokenSource()
        let runs = Locked(0)
        source.token.register { runs.withLock { $0 += 1 } }

        source.cancel()
        source.cancel()

        XCTAssertEqual(runs.value, 1)
    }

    func testHandlersRunInRegistrationOrder() {
        let source = CancellationTokenSource()
        let order = Locked<[Int]>([])
        for index in 0..<100 {
            source.token.register { order.withLock { $0.append(index) } }
        }

        source.cancel()

        XCTAssertEqual(order.value, Array(0..<100))
    }

    func testHandlersRunOnTheThreadThatCancels() {
        let source = CancellationTokenSource()
        let handlerThread = Locked<ThreadIdentity?>(nil)
        source.token.register { handlerThread.withLock { $0 = ThreadIdentity.current } }
        let cancellingThread = Locked<ThreadIdentity?>(nil)

        DispatchQueue.global().sync {
            cancellingThread.withLock { $0 = ThreadIdentity.current }
            source.cancel()
        }

        XCTAssertNotNil(handlerThread.value)
        XCTAssertEqual(handlerThread.value, cancellingThread.value)
    }

    func testCancelReturnsAfterEveryHandlerHasRun() {
        let source = CancellationTokenSource()
        let runs = Locked(0)
        for _ in 0..<10 {
            source.token.register { runs.withLock { $0 += 1 } }
        }

        source.cancel()

        XCTAssertEqual(runs.value, 10)
    }

    // MARK: - Registering after cancellation

    func testARegistrationAfterCancelRunsAtOnceOnTheCallersThread() {
        let source = CancellationTokenSource()
        source.cancel()
        let handlerThread = Locked<ThreadIdentity?>(nil)
        let registeringThread = Locked<ThreadIdentity?>(nil)

        DispatchQueue.global().sync {
            registeringThread.withLock { $0 = ThreadIdentity.current }
            source.token.register { handlerThread.withLock { $0 = ThreadIdentity.current } }
            // Ran before `register` returned.
            XCTAssertNotNil(handlerThread.value)
        }

        XCTAssertEqual(handlerThread.value, registeringThread.value)
    }

    func testAHandlerThatRegistersAnotherHandlerDuringCancelRunsItAtOnce() {
        let source = CancellationTokenSource()
        let order = Locked<[String]>([])
        source.token.register {
            order.withLock { $0.append("first") }
            source.token.register { order.withLock { $0.append("registered by first") } }
            order.withLock { $0.append("first, after registering") }
        }
        source.token.register { order.withLock { $0.append("second") } }

        source.cancel()

        XCTAssertEqual(order.value, ["first", "registered by first", "first, after registering", "second"])
    }

    func testAHandlerThatCallsCancelAgainDoesNotDeadlock() {
        let source = CancellationTokenSource()
        let order = Locked<[String]>([])
        source.token.register {
            source.cancel()
            order.withLock { $0.append("first") }
        }
        source.token.register { order.withLock { $0.append("second") } }

        source.cancel()

        XCTAssertEqual(order.value, ["first", "second"])
    }

    func testATokenIsCancelledWhileItsHandlersRun() {
        let source = CancellationTokenSource()
        let seenFromHandler = Locked<Bool?>(nil)
        source.token.register { seenFromHandler.withLock { $0 = source.token.isCancellationRequested } }

        source.cancel()

        XCTAssertEqual(seenFromHandler.value, true)
    }

    // MARK: - Disposing

    func testDisposingBeforeCancelMeansTheHandlerNeverRuns() {
        let source = CancellationTokenSource()
        let runs = Locked(0)
        let registration = source.token.register { runs.withLock { $0 += 1 } }

        registration.dispose()
        source.cancel()

        XCTAssertEqual(runs.value, 0)
    }

    func testDisposingReleasesTheHandlerAtOnce() {
        let source = CancellationTokenSource()
        weak var weakCanary: Canary?
        var registration: CancellationTokenRegistration?
        do {
            let canary = Canary()
            weakCanary = canary
            registration = source.token.register { canary.touch() }
        }
        XCTAssertNotNil(weakCanary)

        registration?.dispose()

        XCTAssertNil(weakCanary)
        withExtendedLifetime(source) {}
    }

    func testDisposingAfterCancelIsHarmless() {
        let source = CancellationTokenSource()
        let runs = Locked(0)
        let registration = source.token.register { runs.withLock { $0 += 1 } }

        source.cancel()
        registration.dispose()
        registration.dispose()

        XCTAssertEqual(runs.value, 1)
    }

    func testDisposingTwiceBeforeCancelIsHarmless() {
        let source = CancellationTokenSource()
        let runs = Locked(0)
        let disposed = source.token.register { runs.withLock { $0 += 1 } }
        source.token.register { runs.withLock { $0 += 10 } }

        disposed.dispose()
        disposed.dispose()
        source.cancel()

        XCTAssertEqual(runs.value, 10)
    }

    func testDroppingTheRegistrationKeepsTheHandler() {
        let source = CancellationTokenSource()
        let runs = Locked(0)
        weak var weakRegistration: CancellationTokenRegistration?
        do {
            let registration = source.token.register { runs.withLock { $0 += 1 } }
            weakRegistration = registration
        }
        XCTAssertNil(weakRegistration)

        source.cancel()

        XCTAssertEqual(runs.value, 1)
    }

    func testAHandlerCanDisposeALaterRegistrationSoItNeverRuns() {
        let source = CancellationTokenSource()
        let order = Locked<[String]>([])
        let later = Locked<CancellationTokenRegistration?>(nil)
        source.token.register {
            order.withLock { $0.append("first") }
            later.value?.dispose()
        }
        later.withLock { $0 = source.token.register { order.withLock { $0.append("second") } } }
        source.token.register { order.withLock { $0.append("third") } }

        source.cancel()

        XCTAssertEqual(order.value, ["first", "third"])
    }

    func testAHandlerCanDisposeItsOwnRegistrationWithoutDeadlock() {
        let source = CancellationTokenSource()
        let own = Locked<CancellationTokenRegistration?>(nil)
        let runs = Locked(0)
        own.withLock {
            $0 = source.token.register {
                own.value?.dispose()
                runs.withLock { $0 += 1 }
            }
        }

        source.cancel()

        XCTAssertEqual(runs.value, 1)
    }

    func testDisposeFromAnotherThreadReturnsOnlyAfterTheRunningHandlerEnds() {
        let source = CancellationTokenSource()
        let handlerStarted = DispatchSemaphore(value: 0)
        let releaseHandler = DispatchSemaphore(value: 0)
        let events = Locked<[String]>([])
        let registration = source.token.register {
            handlerStarted.signal()
            releaseHandler.wait()
            events.withLock { $0.append("handler ended") }
        }
        let cancelled = expectation(description: "cancel returned")
        DispatchQueue.global().async {
            source.cancel()
            cancelled.fulfill()
        }
        handlerStarted.wait()

        let disposed = expectation(description: "dispose returned")
        DispatchQueue.global().async {
            registration.dispose()
            events.withLock { $0.append("dispose returned") }
            disposed.fulfill()
        }
        // Give `dispose` a moment to start waiting; the assertion below holds either way.
        usleep(50_000)
        releaseHandler.signal()

        wait(for: [disposed, cancelled], timeout: 10)
        XCTAssertEqual(events.value, ["handler ended", "dispose returned"])
    }

    // MARK: - Linked sources

    func testCancellingAParentCancelsALinkedSource() {
        let parent = CancellationTokenSource()
        let child = CancellationTokenSource(linkedTo: [parent.token])
        let runs = Locked(0)
        child.token.register { runs.withLock { $0 += 1 } }

        parent.cancel()

        XCTAssertTrue(child.isCancellationRequested)
        XCTAssertEqual(runs.value, 1)
    }

    func testALinkedSourceIsCancelledWhenAnyOfItsParentsIs() {
        let first = CancellationTokenSource()
        let second = CancellationTokenSource()
        let child = CancellationTokenSource(linkedTo: [first.token, .none, second.token])

        second.cancel()

        XCTAssertTrue(child.isCancellationRequested)
        XCTAssertFalse(first.isCancellationRequested)
    }

    func testASourceLinkedToAnAlreadyCancelledParentIsCancelledAtInit() {
        let parent = CancellationTokenSource()
        parent.cancel()

        let child = CancellationTokenSource(linkedTo: [parent.token])

        XCTAssertTrue(child.isCancellationRequested)
        let runs = Locked(0)
        child.token.register { runs.withLock { $0 += 1 } }
        XCTAssertEqual(runs.value, 1)
    }

    func testCancellingALinkedSourceDoesNotCancelItsParent() {
        let parent = CancellationTokenSource()
        let child = CancellationTokenSource(linkedTo: [parent.token])

        child.cancel()

        XCTAssertTrue(child.isCancellationRequested)
        XCTAssertFalse(parent.isCancellationRequested)
    }

    func testDroppingALinkedSourceUnregistersItFromItsParent() {
        let parent = CancellationTokenSource()
        weak var weakChildStorage: CancellationTokenStorage?
        do {
            let child = CancellationTokenSource(linkedTo: [parent.token])
            weakChildStorage = child.token.storage
            XCTAssertEqual(parent.token.storage?.storedHandlerCount, 1)
        }

        XCTAssertEqual(parent.token.storage?.storedHandlerCount, 0)
        XCTAssertNil(weakChildStorage)
        parent.cancel()
    }

    func testLinkedSourcesChainAcrossGenerations() {
        let root = CancellationTokenSource()
        let middle = CancellationTokenSource(linkedTo: [root.token])
        let leaf = CancellationTokenSource(linkedTo: [middle.token])
        let runs = Locked(0)
        leaf.token.register { runs.withLock { $0 += 1 } }

        root.cancel()

        XCTAssertTrue(middle.isCancellationRequested)
        XCTAssertEqual(runs.value, 1)
    }

    // MARK: - Cancelling after a delay

    func testCancelAfterSecondsCancelsOnAGlobalQueue() {
        let source = CancellationTokenSource()
        let cancelled = expectation(description: "handler ran")
        source.token.register { cancelled.fulfill() }

        source.cancel(after: 0.01)

        wait(for: [cancelled], timeout: 10)
        XCTAssertTrue(source.isCancellationRequested)
    }

    func testCancelAfterAnIntervalCancels() {
        let source = CancellationTokenSource()
        let cancelled = expectation(description: "handler ran")
        source.token.register { cancelled.fulfill() }

        source.cancel(after: .milliseconds(10))

        wait(for: [cancelled], timeout: 10)
    }

    func testCancelBeforeTheDelayEndsRunsHandlersOnceAndTheTimerFiresHarmlessly() {
        let source = CancellationTokenSource()
        let runs = Locked(0)
        source.token.register { runs.withLock { $0 += 1 } }

        source.cancel(after: 0.02)
        source.cancel()
        let timerHasFired = expectation(description: "past the delay")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { timerHasFired.fulfill() }
        wait(for: [timerHasFired], timeout: 10)

        XCTAssertEqual(runs.value, 1)
    }

    func testAPendingDelayedCancelOutlivesItsSource() {
        let cancelled = expectation(description: "handler ran")
        let token: CancellationToken
        do {
            let source = CancellationTokenSource()
            token = source.token
            token.register { cancelled.fulfill() }
            source.cancel(after: 0.01)
        }

        wait(for: [cancelled], timeout: 10)
        XCTAssertTrue(token.isCancellationRequested)
    }

    func testALaterDelayReplacesAnEarlierOne() {
        let source = CancellationTokenSource()
        let cancelled = expectation(description: "handler ran")
        source.token.register { cancelled.fulfill() }

        source.cancel(after: 3600)
        source.cancel(after: 0.01)

        wait(for: [cancelled], timeout: 10)
    }

    func testAnInfiniteDelayRemovesThePendingOne() {
        let source = CancellationTokenSource()
        let notCancelled = expectation(description: "handler must not run")
        notCancelled.isInverted = true
        source.token.register { notCancelled.fulfill() }

        source.cancel(after: 0.01)
        source.cancel(after: .never)

        wait(for: [notCancelled], timeout: 0.3)
        XCTAssertFalse(source.isCancellationRequested)
    }

    // MARK: - The `none` token

    func testTheNoneTokenIsNeverCancelledAndReleasesHandlersUnrun() {
        let token = CancellationToken.none
        weak var weakCanary: Canary?
        let registration: CancellationTokenRegistration
        do {
            let canary = Canary()
            weakCanary = canary
            registration = token.register { canary.touch() }
        }

        XCTAssertNil(weakCanary)
        XCTAssertFalse(token.isCancellationRequested)
        XCTAssertFalse(token.canBeCancelled)
        registration.dispose()
    }

    func testTokensAreEqualWhenTheyComeFromTheSameSource() {
        let source = CancellationTokenSource()
        let other = CancellationTokenSource()

        XCTAssertEqual(source.token, source.token)
        XCTAssertNotEqual(source.token, other.token)
        XCTAssertNotEqual(source.token, .none)
        XCTAssertEqual(CancellationToken.none, .none)
        XCTAssertEqual(Set([source.token, source.token, other.token, .none]).count, 3)
        XCTAssertTrue(source.token.canBeCancelled)
    }

    // MARK: - Deallocating the source

    func testDeallocatingTheSourceReleasesItsHandlersUnrun() {
        weak var weakCanary: Canary?
        let token: CancellationToken
        do {
            let source = CancellationTokenSource()
            token = source.token
            let canary = Canary()
            weakCanary = canary
            token.register { canary.touch() }
            XCTAssertNotNil(weakCanary)
        }

        XCTAssertNil(weakCanary)
        XCTAssertFalse(token.isCancellationRequested)
        XCTAssertFalse(token.canBeCancelled)
    }

    func testRegisteringOnATokenWhoseSourceIsGoneReleasesTheHandlerUnrun() {
        let token = CancellationTokenSource().token
        let runs = Locked(0)
        weak var weakCanary: Canary?
        do {
            let canary = Canary()
            weakCanary = canary
            token.register {
                canary.touch()
                runs.withLock { $0 += 1 }
            }
        }

        XCTAssertNil(weakCanary)
        XCTAssertEqual(runs.value, 0)
    }

    func testATokenOfACancelledSourceStaysCancelledAfterTheSourceIsGone() {
        let token: CancellationToken
        do {
            let source = CancellationTokenSource()
            source.cancel()
            token = source.token
        }

        XCTAssertTrue(token.isCancellationRequested)
        XCTAssertTrue(token.canBeCancelled)
    }

    func testHandlersAreReleasedAfterTheyRun() {
        let source = CancellationTokenSource()
        weak var weakCanary: Canary?
        do {
            let canary = Canary()
            weakCanary = canary
            source.token.register { canary.touch() }
        }

        source.cancel()

        XCTAssertNil(weakCanary)
    }

    // MARK: - Engine-facing keys

    func testAKeyRemovesItsHandlerBeforeCancelAndSaysSo() {
        let source = CancellationTokenSource()
        let runs = Locked(0)
        let key = source.token.addHandler { runs.withLock { $0 += 1 } }

        XCTAssertTrue(key.removeHandler())
        XCTAssertFalse(key.removeHandler())
        source.cancel()

        XCTAssertEqual(runs.value, 0)
    }

    func testAKeyReportsThatItsHandlerAlreadyRan() {
        let source = CancellationTokenSource()
        let runs = Locked(0)
        let key = source.token.addHandler { runs.withLock { $0 += 1 } }

        source.cancel()

        XCTAssertFalse(key.removeHandler())
        XCTAssertEqual(runs.value, 1)
    }

    func testAddingAHandlerToACancelledTokenRunsItAtOnceAndGivesAnInertKey() {
        let source = CancellationTokenSource()
        source.cancel()
        let runs = Locked(0)

        let key = source.token.addHandler { runs.withLock { $0 += 1 } }

        XCTAssertEqual(runs.value, 1)
        XCTAssertNil(key.storage)
        XCTAssertFalse(key.removeHandler())
    }

    func testAKeyKeepsAliveOnlyWhatItsHandlerCaptures() {
        let source = CancellationTokenSource()
        weak var weakCanary: Canary?
        let key: CancellationHandlerKey
        do {
            let canary = Canary()
            weakCanary = canary
            key = source.token.addHandler { [weak canary] in canary?.touch() }
        }
        XCTAssertNil(weakCanary)

        XCTAssertTrue(key.removeHandler())
        XCTAssertEqual(source.token.storage?.storedHandlerCount, 0)
    }

    // MARK: - Races

    func testConcurrentRegistrationsDisposalsAndCancelsRunEachHandlerExactlyOnceOrNever() {
        let iterations = 8
        let handlersPerIteration = 1_000
        let source = CancellationTokenSource()
        let runCounts = Locked([Int](repeating: 0, count: iterations * handlersPerIteration))
        let removedBeforeRunning = Locked(Set<Int>())

        DispatchQueue.concurrentPerform(iterations: iterations) { iteration in
            for index in 0..<handlersPerIteration {
                let handlerNumber = iteration * handlersPerIteration + index
                let key = source.token.addHandler { runCounts.withLock { $0[handlerNumber] += 1 } }
                if index.isMultiple(of: 3), key.removeHandler() {
                    removedBeforeRunning.withLock { _ = $0.insert(handlerNumber) }
                }
                if iteration == 1, index == handlersPerIteration / 2 {
                    source.cancel()
                }
            }
            source.cancel()
        }

        let removed = removedBeforeRunning.value
        for (handlerNumber, runs) in runCounts.value.enumerated() {
            XCTAssertEqual(runs, removed.contains(handlerNumber) ? 0 : 1, "handler \(handlerNumber)")
        }
        XCTAssertFalse(removed.isEmpty)
    }

    func testConcurrentPublicRegistrationsAndDisposalsWithACancelRunEachKeptHandlerExactlyOnce() {
        let iterations = 8
        let handlersPerIteration = 1_000
        let source = CancellationTokenSource()
        let runCounts = Locked([Int](repeating: 0, count: iterations * handlersPerIteration))
        let disposed = Locked(Set<Int>())

        DispatchQueue.concurrentPerform(iterations: iterations + 1) { iteration in
            guard iteration < iterations else {
                source.cancel()
                return
            }
            for index in 0..<handlersPerIteration {
                let handlerNumber = iteration * handlersPerIteration + index
                let registration = source.token.register { runCounts.withLock { $0[handlerNumber] += 1 } }
                if index.isMultiple(of: 2) {
                    registration.dispose()
                    disposed.withLock { _ = $0.insert(handlerNumber) }
                }
            }
        }

        let disposedHandlers = disposed.value
        for (handlerNumber, runs) in runCounts.value.enumerated() {
            if disposedHandlers.contains(handlerNumber) {
                XCTAssertLessThanOrEqual(runs, 1, "disposed handler \(handlerNumber)")
            } else {
                XCTAssertEqual(runs, 1, "kept handler \(handlerNumber)")
            }
        }
    }

    func testManyThreadsCancellingAtOnceRunEachHandlerExactlyOnce() {
        for _ in 0..<100 {
            let source = CancellationTokenSource()
            let runCounts = Locked([Int](repeating: 0, count: 50))
            for handlerNumber in 0..<50 {
                source.token.register { runCounts.withLock { $0[handlerNumber] += 1 } }
            }

            DispatchQueue.concurrentPerform(iterations: 8) { _ in source.cancel() }

            XCTAssertEqual(runCounts.value, [Int](repeating: 1, count: 50))
        }
    }

    func testDisposeRacingCancelNeverLetsAHandlerRunAfterDisposeReturns() {
        for _ in 0..<200 {
            let source = CancellationTokenSource()
            let disposeReturned = Locked(false)
            let ranAfterDispose = Locked(false)
            let registration = source.token.register {
                if disposeReturned.value { ranAfterDispose.withLock { $0 = true } }
            }

            DispatchQueue.concurrentPerform(iterations: 2) { iteration in
                if iteration == 0 {
                    source.cancel()
                } else {
                    registration.dispose()
                    disposeReturned.withLock { $0 = true }
                }
            }

            XCTAssertFalse(ranAfterDispose.value)
        }
    }

    func testLinkedSourcesCreatedAndDroppedWhileTheParentCancels() {
        for _ in 0..<50 {
            let parent = CancellationTokenSource()
            let childrenCancelled = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 9) { iteration in
                guard iteration > 0 else {
                    parent.cancel()
                    return
                }
                for _ in 0..<100 {
                    let child = CancellationTokenSource(linkedTo: [parent.token])
                    child.token.register { childrenCancelled.withLock { $0 += 1 } }
                }
            }

            XCTAssertTrue(parent.isCancellationRequested)
            XCTAssertEqual(parent.token.storage?.storedHandlerCount, 0)
            XCTAssertLessThanOrEqual(childrenCancelled.value, 800)
        }
    }
}

// MARK: - Helpers

/// A value shared by test threads, reachable only under a lock.
private final class Locked<Value: Sendable>: Sendable {
    private let lock: LockedState<Value>

    init(_ value: Value) {
        lock = LockedState(value)
    }

    var value: Value {
        lock.withLock { $0 }
    }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&$0) }
    }
}

/// An object whose deallocation a test observes through a weak reference.
private final class Canary: Sendable {
    func touch() {}
}
