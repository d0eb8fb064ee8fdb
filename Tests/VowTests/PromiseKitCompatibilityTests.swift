import Dispatch
import Foundation
import XCTest
import Vow

// Code written the way PromiseKit 8 users write it (default queues, trailing closures, tuple
// destructuring, `Promise.value`, `conf`), compiled against Vow with only the import changed.
// If this file stops compiling, Vow has stopped being a drop-in replacement.

private enum FetchError: Error { case missing }

private func fetchNumber(_ value: Int) -> Promise<Int> {
    return Promise { seal in
        DispatchQueue.global().async {
            value >= 0 ? seal.fulfill(value) : seal.reject(FetchError.missing)
        }
    }
}

private func fetchName() -> Guarantee<String> {
    return Guarantee { resolve in DispatchQueue.global().async { resolve("vow") } }
}

final class PromiseKitCompatibilityTests: XCTestCase {

    func testATypicalChainWithDefaultQueues() {
        let finished = expectation(description: "chain")
        let seen = Recorder<String>()
        firstly {
            fetchNumber(1)
        }.then { number in
            fetchNumber(number + 1)
        }.map { number -> String in
            "\(number)"
        }.get { text in
            seen.append("get \(text)")
        }.done { text in
            seen.append("done \(text)")
        }.ensure {
            seen.append("ensure")
        }.catch { error in
            seen.append("catch \(error)")
        }.finally {
            finished.fulfill()
        }
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(seen.elements, ["get 2", "done 2", "ensure"])
    }

    func testPendingTuplesAndResolverConventions() {
        let (promise, seal) = Promise<Int>.pending()
        let pending = Promise<String>.pending()
        let guaranteePending = Guarantee<Int>.pending()
        seal.resolve(3, nil)
        pending.resolver.fulfill("x")
        guaranteePending.resolve(4)
        XCTAssertEqual(promise.valueIfFulfilled, 3)
        XCTAssertEqual(pending.promise.valueIfFulfilled, "x")
        XCTAssertEqual(guaranteePending.guarantee.valueIfFulfilled, 4)
    }

    func testWhenRaceAfterAndFriends() {
        let finished = expectation(description: "combinators")
        let seen = Recorder<String>()
        when(fulfilled: fetchNumber(1), fetchNumber(2)).then { first, second -> Promise<[Int]> in
            seen.append("pair \(first + second)")
            return when(fulfilled: [fetchNumber(3), fetchNumber(4)])
        }.then { numbers -> Guarantee<[Result<Int>]> in
            seen.append("array \(numbers)")
            return when(resolved: [fetchNumber(5), fetchNumber(-1)])
        }.then { results -> Promise<Int> in
            let fulfilled = results.compactMap { result -> Int? in
                if case .fulfilled(let value) = result { return value }
                return nil
            }
            seen.append("resolved \(fulfilled)")
            return race(fetchNumber(6), after(seconds: 5).map { 0 })
        }.then { winner -> Guarantee<Void> in
            seen.append("race \(winner)")
            return after(.milliseconds(1))
        }.done {
            seen.append("after")
        }.catch { error in
            seen.append("catch \(error)")
        }.finally {
            finished.fulfill()
        }
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(seen.elements, ["pair 3", "array [3, 4]", "resolved [5]", "race 6", "after"])
    }

    func testSequenceHelpersRecoverAndTap() {
        let finished = expectation(description: "helpers")
        let seen = Recorder<String>()
        // Two statements: one expression of a dozen single-expression closures with literals and
        // string interpolation is more than Swift's type checker will solve, with PromiseKit too.
        let sorted = Promise.value([3, 1, 2])
            .mapValues { $0 * 10 }
            .flatMapValues { [$0, $0 + 1] }
            .compactMapValues { $0 > 11 ? $0 : nil }
            .filterValues { $0 != 20 }
            .sortedValues()
        sorted
            .thenMap { fetchNumber($0) }
            .tap { result in seen.append("tap \(result.isFulfilled)") }
            .firstValue
            .recover { _ in Promise.value(-1) }
            .done { seen.append("first \($0)") }
            .catch { _ in }
            .finally { finished.fulfill() }
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(seen.elements, ["tap true", "first 21"])
    }

    func testGuaranteeChainsAndDispatchAsync() {
        let finished = expectation(description: "guarantees")
        let seen = Recorder<String>()
        fetchName().map { $0.uppercased() }.then { name in
            DispatchQueue.global().async(.promise) { name + "!" }
        }.done { text in
            seen.append(text)
            finished.fulfill()
        }
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(seen.elements, ["VOW!"])
    }

    func testConfigurationAndLogEventsAsPromiseKitSpellsThem() {
        let savedQueues = conf.Q
        let savedPolicy = conf.catchPolicy
        let savedLog = conf.logHandler
        defer {
            conf.Q = savedQueues
            conf.catchPolicy = savedPolicy
            conf.logHandler = savedLog
        }
        conf.Q = (map: DispatchQueue.global(), return: DispatchQueue.main)
        conf.Q.map = nil
        conf.catchPolicy = .allErrors
        let events = Recorder<String>()
        let logged = expectation(description: "cauterized, on conf.Q.return")
        conf.logHandler = { event in
            switch event {
            case .waitOnMainThread: events.append("wait")
            case .pendingPromiseDeallocated: events.append("pending")
            case .pendingGuaranteeDeallocated: events.append("guarantee")
            case .cauterized(let error): events.append("cauterized \(error)"); logged.fulfill()
            }
        }
        Promise<Int>(error: FetchError.missing).cauterize()
        wait(for: [logged], timeout: 10)
        XCTAssertEqual(events.elements, ["cauterized missing"])
        XCTAssertNil(conf.Q.map)
    }

    func testErrorsAndCancellationAsPromiseKitSpellsThem() throws {
        struct UserCancelled: CancellableError { var isCancelled: Bool { true } }
        XCTAssertTrue(UserCancelled().isCancelled)
        XCTAssertTrue(PMKError.cancelled.isCancelled)
        let errors: [PMKError] = [.invalidCallingConvention, .returnedSelf, .badInput, .cancelled, .emptySequence, .noWinner, .compactMap(1, Int.self)]
        XCTAssertEqual(errors.count, 7)
        XCTAssertThrowsError(try fetchNumber(-1).wait())
        XCTAssertEqual(try fetchNumber(7).wait(), 7)
        XCTAssertEqual(fetchName().wait(), "vow")
        XCTAssertTrue(Promise<Int>(error: FetchError.missing).isRejected)
        XCTAssertTrue(Promise().isFulfilled)
    }
}
