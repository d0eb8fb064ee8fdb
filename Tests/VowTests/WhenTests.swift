import Dispatch
import Foundation
import XCTest
@testable import Vow

final class WhenTests: XCTestCase {

    // MARK: - when(fulfilled:) over arrays and sequences

    func testWhenFulfilledGivesTheValuesInInputOrderWhenAllHaveAlreadyFulfilled() {
        let joined = when(fulfilled: [Promise.value(3), Promise.value(1), Promise.value(2)])
        XCTAssertEqual(joined.valueIfFulfilled, [3, 1, 2])
    }

    func testWhenFulfilledOfAnEmptyArrayIsFulfilledWithAnEmptyArray() {
        let joined = when(fulfilled: [Promise<Int>]())
        XCTAssertEqual(joined.valueIfFulfilled, [])
    }

    func testWhenFulfilledWaitsForPendingInputsAndKeepsInputOrder() {
        let (first, firstResolver) = Promise<String>.pending()
        let (third, thirdResolver) = Promise<String>.pending()
        let joined = when(fulfilled: [first, Promise.value("b"), third])
        XCTAssertTrue(joined.isPending)
        thirdResolver.fulfill("c")
        XCTAssertTrue(joined.isPending)
        firstResolver.fulfill("a")
        XCTAssertEqual(joined.valueIfFulfilled, ["a", "b", "c"])
    }

    func testWhenFulfilledKeepsInputOrderWhenInputsSettleOutOfOrderOnManyThreads() {
        let count = 2_000
        let pendings = (0..<count).map { _ in Promise<Int>.pending() }
        let joined = when(fulfilled: pendings.map(\.promise))
        // Settle from many threads at once, in an order unrelated to the input order.
        let order = (0..<count).shuffled()
        DispatchQueue.concurrentPerform(iterations: count) { iteration in
            let index = order[iteration]
            pendings[index].resolver.fulfill(index * 10)
        }
        XCTAssertEqual(try settledResult(of: joined)?.get(), (0..<count).map { $0 * 10 })
    }

    func testWhenFulfilledRejectsWithTheFirstErrorAsSoonAsItHappens() {
        let (first, firstResolver) = Promise<Int>.pending()
        let (second, secondResolver) = Promise<Int>.pending()
        let (third, thirdResolver) = Promise<Int>.pending()
        let joined = when(fulfilled: [first, second, third])
        secondResolver.reject(TestError(code: 2))
        // Rejected at once, although the other inputs are still pending.
        XCTAssertEqual(joined.error as? TestError, TestError(code: 2))
        thirdResolver.reject(TestError(code: 3))
        firstResolver.fulfill(1)
        XCTAssertEqual(joined.error as? TestError, TestError(code: 2))
    }

    func testWhenFulfilledRejectsAtOnceWhenAnInputHasAlreadyRejected() {
        let (pending, resolver) = Promise<Int>.pending()
        let joined = when(fulfilled: [pending, Promise(error: TestError(code: 7)), Promise(error: TestError(code: 8))])
        XCTAssertEqual(joined.error as? TestError, TestError(code: 7))
        resolver.fulfill(0)
    }

    func testWhenFulfilledLetsTheFirstOfManyConcurrentRejectionsWin() {
        let count = 500
        let pendings = (0..<count).map { _ in Promise<Int>.pending() }
        let joined = when(fulfilled: pendings.map(\.promise))
        let winners = Recorder<Int>()
        joined.catch(on: nil) { error in winners.append((error as? TestError)?.code ?? -1) }
        DispatchQueue.concurrentPerform(iterations: count) { index in
            pendings[index].resolver.reject(TestError(code: index))
        }
        guard case .rejected(let error)? = settledResult(of: joined) else {
            return XCTFail("expected a rejection")
        }
        XCTAssertEqual(winners.elements, [(error as? TestError)?.code ?? -2])
    }

    func testWhenFulfilledObservesEveryInputSoNoRejectionIsReportedAsUnhandled() {
        withConfiguration {
            let unhandled = Recorder<String>()
            conf.unhandledRejectionHandler = { unhandled.append("\($0.error)") }
            do {
                let (late, lateResolver) = Promise<Int>.pending()
                let joined = when(fulfilled: [Promise(error: TestError(code: 1)), late, Promise(error: TestError(code: 2))])
                _ = joined.error
                lateResolver.reject(TestError(code: 3))
            }
            do {
                let (early, earlyResolver) = Promise<Int>.pending()
                let (later, laterResolver) = Promise<Int>.pending()
                let joined = when(fulfilled: [early, later])
                earlyResolver.reject(TestError(code: 4))
                laterResolver.reject(TestError(code: 5))
                _ = joined.error
            }
            // The control: a rejection nobody looks at is reported.
            do {
                _ = Promise<Int>(error: TestError(code: 99))
            }
            XCTAssertEqual(unhandled.elements, ["TestError(code: 99)"])
        }
    }

    func testWhenFulfilledOverTenThousandPromisesSomeSettledSomePending() {
        let count = 10_000
        var promises: [Promise<Int>] = []
        var resolvers: [(Int, Resolver<Int>)] = []
        for index in 0..<count {
            if index % 3 == 0 {
                let (promise, resolver) = Promise<Int>.pending()
                promises.append(promise)
                resolvers.append((index, resolver))
            } else {
                promises.append(.value(index))
            }
        }
        let joined = when(fulfilled: promises)
        let queue = DispatchQueue(label: "when.ten-thousand", attributes: .concurrent)
        for (index, resolver) in resolvers.reversed() {
            queue.async { resolver.fulfill(index) }
        }
        XCTAssertEqual(try settledResult(of: joined)?.get(), Array(0..<count))
    }

    func testWhenFulfilledAcceptsAnySequenceOfThenables() {
        let lazily = (1...4).lazy.map { Promise.value($0 * $0) }
        XCTAssertEqual(when(fulfilled: lazily).valueIfFulfilled, [1, 4, 9, 16])
        let guarantees = AnySequence([Guarantee.value("x"), Guarantee.value("y")])
        XCTAssertEqual(when(fulfilled: guarantees).valueIfFulfilled, ["x", "y"])
    }

    // MARK: - when(fulfilled:) over Void thenables

    func testWhenFulfilledOfVoidPromisesIsAVoidPromise() {
        let (pending, resolver) = Promise<Void>.pending()
        let variadic: Promise<Void> = when(fulfilled: Promise<Void>.value, pending)
        let array: Promise<Void> = when(fulfilled: [pending, Promise<Void>.value])
        XCTAssertTrue(variadic.isPending)
        XCTAssertTrue(array.isPending)
        resolver.fulfill()
        XCTAssertTrue(variadic.isFulfilled)
        XCTAssertTrue(array.isFulfilled)
        XCTAssertTrue(when(fulfilled: [Promise<Void>]()).isFulfilled)
    }

    func testWhenFulfilledOfVoidPromisesRejectsWithTheFirstError() {
        let (pending, resolver) = Promise<Void>.pending()
        let joined: Promise<Void> = when(fulfilled: [pending, Promise(error: TestError(code: 9))])
        XCTAssertEqual(joined.error as? TestError, TestError(code: 9))
        resolver.fulfill()
    }

    // MARK: - when(fulfilled:) over tuples

    func testWhenFulfilledOfTwoToFiveThenablesGivesATupleOfTheirValues() {
        let (late, resolver) = Promise<String>.pending()
        let pair = when(fulfilled: Promise.value(1), late)
        let triple = when(fulfilled: Promise.value(1), Guarantee.value("two"), Promise.value(3.0))
        let quadruple = when(fulfilled: Promise.value(1), Promise.value("2"), Promise.value(true), Promise.value([4]))
        let quintuple = when(
            fulfilled: Promise.value(1), Promise.value("2"), Promise.value(true), Promise.value([4]), Guarantee.value(5.5)
        )
        XCTAssertTrue(pair.isPending)
        resolver.fulfill("late")
        XCTAssertEqual(pair.valueIfFulfilled?.0, 1)
        XCTAssertEqual(pair.valueIfFulfilled?.1, "late")
        XCTAssertEqual(triple.valueIfFulfilled.map { "\($0.0) \($0.1) \($0.2)" }, "1 two 3.0")
        XCTAssertEqual(quadruple.valueIfFulfilled.map { "\($0.0) \($0.1) \($0.2) \($0.3)" }, "1 2 true [4]")
        XCTAssertEqual(quintuple.valueIfFulfilled.map { "\($0.0) \($0.1) \($0.2) \($0.3) \($0.4)" }, "1 2 true [4] 5.5")
    }

    func testWhenFulfilledOfATupleRejectsWithTheFirstError() {
        let (pending, resolver) = Promise<Int>.pending()
        let joined = when(fulfilled: pending, Promise<String>(error: TestError(code: 4)), Promise.value(true))
        XCTAssertEqual(joined.error as? TestError, TestError(code: 4))
        resolver.fulfill(1)
    }

    // MARK: - when(fulfilled:concurrently:)

    func testWhenConcurrentlyPullsOnlyAsManyAsAllowedAndOneMoreForEachFulfillment() {
        let source = PendingPromiseSource(count: 5)
        let joined = when(fulfilled: source.iterator(), concurrently: 2)
        XCTAssertEqual(source.pulled, 2)
        source.fulfill(1, with: 10)
        XCTAssertEqual(source.pulled, 3)
        source.fulfill(0, with: 0)
        XCTAssertEqual(source.pulled, 4)
        source.fulfill(3, with: 30)
        XCTAssertEqual(source.pulled, 5)
        source.fulfill(2, with: 20)
        XCTAssertTrue(joined.isPending)
        source.fulfill(4, with: 40)
        XCTAssertEqual(joined.valueIfFulfilled, [0, 10, 20, 30, 40])
    }

    func testWhenConcurrentlyNeverHasMoreThanTheLimitInFlight() {
        let limit = 3
        let total = 60
        let flight = InFlightMeter()
        var next = 0
        let iterator = AnyIterator<Promise<Int>> {
            guard next < total else { return nil }
            let value = next
            next += 1
            flight.started()
            return DispatchQueue.global().async(.promise) { () -> Int in
                usleep(UInt32.random(in: 0...500))
                flight.finished()
                return value
            }
        }
        let joined = when(fulfilled: iterator, concurrently: limit)
        XCTAssertEqual(try settledResult(of: joined)?.get(), Array(0..<total))
        XCTAssertLessThanOrEqual(flight.maximum, limit)
        XCTAssertGreaterThanOrEqual(flight.maximum, 1)
    }

    func testWhenConcurrentlyRejectsAtTheFirstErrorAndStopsPulling() {
        let source = PendingPromiseSource(count: 6)
        let joined = when(fulfilled: source.iterator(), concurrently: 2)
        source.reject(1, with: TestError(code: 11))
        XCTAssertEqual(joined.error as? TestError, TestError(code: 11))
        source.fulfill(0, with: 0)
        XCTAssertEqual(source.pulled, 2)
    }

    func testWhenConcurrentlyRejectsALimitBelowOneAsBadInput() {
        for limit in [0, -1] {
            let joined = when(fulfilled: [Promise.value(1)].makeIterator(), concurrently: limit)
            guard case PMKError.badInput? = joined.error else {
                return XCTFail("expected PMKError.badInput for \(limit), got \(String(describing: joined.error))")
            }
        }
    }

    func testWhenConcurrentlyOfAnEmptyIteratorIsFulfilledWithAnEmptyArray() {
        let joined = when(fulfilled: [Promise<Int>]().makeIterator(), concurrently: 4)
        XCTAssertEqual(joined.valueIfFulfilled, [])
    }

    func testWhenConcurrentlyHandlesManyAlreadyFulfilledPromisesWithoutRecursion() {
        let promises = (0..<20_000).map { Promise.value($0) }
        let joined = when(fulfilled: promises.makeIterator(), concurrently: 1)
        XCTAssertEqual(joined.valueIfFulfilled, Array(0..<20_000))
    }

    // MARK: - when(resolved:)

    func testWhenResolvedGivesEveryResultInInputOrderAndNeverRejects() {
        let (late, resolver) = Promise<Int>.pending()
        let joined = when(resolved: Promise.value(1), late, Promise(error: TestError(code: 2)))
        XCTAssertTrue(joined.isPending)
        resolver.reject(TestError(code: 3))
        guard let results = joined.valueIfFulfilled, results.count == 3 else {
            return XCTFail("expected three results, got \(String(describing: joined.valueIfFulfilled))")
        }
        XCTAssertEqual(try results[0].get(), 1)
        XCTAssertEqual(results[1].error as? TestError, TestError(code: 3))
        XCTAssertEqual(results[2].error as? TestError, TestError(code: 2))
    }

    func testWhenResolvedOfAnEmptyArrayIsAnEmptyArray() {
        XCTAssertEqual(when(resolved: [Promise<Int>]()).valueIfFulfilled?.count, 0)
    }

    func testWhenResolvedKeepsInputOrderWhenInputsSettleOnManyThreads() {
        let count = 1_000
        let pendings = (0..<count).map { _ in Promise<Int>.pending() }
        let joined = when(resolved: pendings.map(\.promise))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            if index.isMultiple(of: 2) {
                pendings[index].resolver.fulfill(index)
            } else {
                pendings[index].resolver.reject(TestError(code: index))
            }
        }
        let summary = settledGuaranteeValue(of: joined)?.map { result -> Int in
            switch result {
            case .fulfilled(let value): return value
            case .rejected(let error): return -((error as? TestError)?.code ?? 0)
            }
        }
        XCTAssertEqual(summary, (0..<count).map { $0.isMultiple(of: 2) ? $0 : -$0 })
    }

    func testWhenResolvedCountsEveryRejectionAsHandled() {
        withConfiguration {
            let unhandled = Recorder<String>()
            conf.unhandledRejectionHandler = { unhandled.append("\($0.error)") }
            do {
                let joined = when(resolved: [Promise<Int>(error: TestError(code: 1)), Promise(error: TestError(code: 2))])
                XCTAssertEqual(joined.valueIfFulfilled?.count, 2)
            }
            do {
                _ = Promise<Int>(error: TestError(code: 99))
            }
            XCTAssertEqual(unhandled.elements, ["TestError(code: 99)"])
        }
    }

    func testWhenResolvedConcurrentlyWaitsForAllAndKeepsPullOrder() {
        let source = PendingPromiseSource(count: 4)
        let joined = when(resolved: source.iterator(), concurrently: 2)
        XCTAssertEqual(source.pulled, 2)
        source.reject(0, with: TestError(code: 0))
        XCTAssertEqual(source.pulled, 3)
        source.fulfill(2, with: 2)
        source.fulfill(1, with: 1)
        source.reject(3, with: TestError(code: 3))
        guard let results = joined.valueIfFulfilled else { return XCTFail("expected results") }
        XCTAssertEqual(results.map { $0.isFulfilled }, [false, true, true, false])
        XCTAssertEqual(try results[1].get(), 1)
        XCTAssertEqual(try results[2].get(), 2)
        let bad = when(resolved: [Promise.value(1)].makeIterator(), concurrently: 0)
        guard case .rejected(PMKError.badInput)? = bad.valueIfFulfilled?.first, bad.valueIfFulfilled?.count == 1 else {
            return XCTFail("expected a single PMKError.badInput")
        }
    }

    // MARK: - when(guarantees:)

    func testWhenGuaranteesOfVoidWaitsForAll() {
        let (first, resolveFirst) = Guarantee<Void>.pending()
        let (second, resolveSecond) = Guarantee<Void>.pending()
        let variadic: Guarantee<Void> = when(first, second)
        let array: Guarantee<Void> = when(guarantees: [first, second])
        resolveSecond(())
        XCTAssertTrue(variadic.isPending)
        XCTAssertTrue(array.isPending)
        resolveFirst(())
        XCTAssertFalse(variadic.isPending)
        XCTAssertFalse(array.isPending)
        XCTAssertFalse(when(guarantees: [Guarantee<Void>]()).isPending)
    }

    func testWhenGuaranteesGivesTheValuesInInputOrder() {
        let (late, resolve) = Guarantee<Int>.pending()
        let array = when(guarantees: [late, Guarantee.value(2), Guarantee.value(3)])
        let variadic = when(Guarantee.value(0), late)
        resolve(1)
        XCTAssertEqual(array.valueIfFulfilled, [1, 2, 3])
        XCTAssertEqual(variadic.valueIfFulfilled, [0, 1])
        XCTAssertEqual(when(guarantees: [Guarantee<Int>]()).valueIfFulfilled, [])
    }

    func testWhenGuaranteesOfTwoToFiveGivesATuple() {
        let (late, resolve) = Guarantee<String>.pending()
        let pair = when(guarantees: Guarantee.value(1), late)
        let triple = when(guarantees: Guarantee.value(1), Guarantee.value("2"), Guarantee.value(true))
        let quadruple = when(guarantees: Guarantee.value(1), Guarantee.value("2"), Guarantee.value(true), Guarantee.value(4.0))
        let quintuple = when(
            guarantees: Guarantee.value(1), Guarantee.value("2"), Guarantee.value(true), Guarantee.value(4.0), Guarantee.value([5])
        )
        XCTAssertTrue(pair.isPending)
        resolve("one")
        XCTAssertEqual(pair.valueIfFulfilled.map { "\($0.0) \($0.1)" }, "1 one")
        XCTAssertEqual(triple.valueIfFulfilled.map { "\($0.0) \($0.1) \($0.2)" }, "1 2 true")
        XCTAssertEqual(quadruple.valueIfFulfilled.map { "\($0.0) \($0.1) \($0.2) \($0.3)" }, "1 2 true 4.0")
        XCTAssertEqual(quintuple.valueIfFulfilled.map { "\($0.0) \($0.1) \($0.2) \($0.3) \($0.4)" }, "1 2 true 4.0 [5]")
    }
}

// MARK: - Helpers shared by the combinator tests

/// Waits (up to a generous timeout) for `promise` to settle, without needing any queue drained.
func settledResult<T>(of promise: Promise<T>, timeout: Double = 30) -> Result<T>? {
    let settled = DispatchSemaphore(value: 0)
    promise.pipe { _ in settled.signal() }
    guard settled.wait(timeout: .now() + timeout) == .success else { return nil }
    return promise.result
}

/// Waits (up to a generous timeout) for `guarantee` to settle.
func settledGuaranteeValue<T>(of guarantee: Guarantee<T>, timeout: Double = 30) -> T? {
    let settled = DispatchSemaphore(value: 0)
    guarantee.done(on: nil) { _ in settled.signal() }
    guard settled.wait(timeout: .now() + timeout) == .success else { return nil }
    return guarantee.valueIfFulfilled
}

/// Promises that a test settles by index, handed out through an iterator that counts its pulls.
final class PendingPromiseSource: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private let pendings: [(promise: Promise<Int>, resolver: Resolver<Int>)]
    private var pulledCount = 0

    init(count: Int) {
        pendings = (0..<count).map { _ in Promise<Int>.pending() }
    }

    var pulled: Int {
        lock.lock(); defer { lock.unlock() }
        return pulledCount
    }

    func iterator() -> AnyIterator<Promise<Int>> {
        AnyIterator { [self] in
            lock.lock(); defer { lock.unlock() }
            guard pulledCount < pendings.count else { return nil }
            pulledCount += 1
            return pendings[pulledCount - 1].promise
        }
    }

    func fulfill(_ index: Int, with value: Int) {
        pendings[index].resolver.fulfill(value)
    }

    func reject(_ index: Int, with error: Error) {
        pendings[index].resolver.reject(error)
    }
}

/// Counts work in flight and remembers the most there ever was at once.
final class InFlightMeter: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var current = 0
    private var highest = 0

    func started() {
        lock.lock(); defer { lock.unlock() }
        current += 1
        highest = max(highest, current)
    }

    func finished() {
        lock.lock(); defer { lock.unlock() }
        current -= 1
    }

    var maximum: Int {
        lock.lock(); defer { lock.unlock() }
        return highest
    }
}

extension Result {
    /// The error of a rejected result.
    var error: Error? {
        if case .rejected(let error) = self { return error }
        return nil
    }
}
