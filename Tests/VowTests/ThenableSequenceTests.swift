import Dispatch
import Foundation
import XCTest
@testable import Vow

private struct Person: Sendable, Equatable {
    var name: String
    var age: Int?
    var isStudent = false
}

private let people = [
    Person(name: "Max", age: nil),
    Person(name: "Roman", age: 26),
    Person(name: "John", age: 23, isStudent: true),
]

final class ThenableSequenceTests: XCTestCase {

    // MARK: - Promises of sequences

    func testMapValuesTransformsEveryElementInOrder() {
        XCTAssertEqual(Promise.value([1, 2, 3]).mapValues(on: nil) { $0 * 2 }.valueIfFulfilled, [2, 4, 6])
        XCTAssertEqual(Promise.value(people).mapValues(on: nil, \.name).valueIfFulfilled, ["Max", "Roman", "John"])
    }

    func testMapValuesRejectsWhenTheTransformThrows() {
        let result = Promise.value([1, 2]).mapValues(on: nil) { value -> Int in
            if value == 2 { throw TestError(code: 2) }
            return value
        }
        XCTAssertEqual(result.error as? TestError, TestError(code: 2))
    }

    func testFlatMapValuesConcatenatesTheSequences() {
        let result = Promise.value([1, 2, 3]).flatMapValues(on: nil) { [$0, $0] }
        XCTAssertEqual(result.valueIfFulfilled, [1, 1, 2, 2, 3, 3])
    }

    func testCompactMapValuesDropsTheNils() {
        XCTAssertEqual(Promise.value(["1", "2", "a", "3"]).compactMapValues(on: nil) { Int($0) }.valueIfFulfilled, [1, 2, 3])
        XCTAssertEqual(Promise.value(people).compactMapValues(on: nil, \.age).valueIfFulfilled, [26, 23])
    }

    func testThenMapWaitsForEveryThenableAndKeepsElementOrder() {
        let pendings = (0..<3).map { _ in Promise<Int>.pending() }
        let result = Promise.value([0, 1, 2]).thenMap(on: nil) { pendings[$0].promise }
        pendings[2].resolver.fulfill(20)
        pendings[0].resolver.fulfill(0)
        XCTAssertTrue(result.isPending)
        pendings[1].resolver.fulfill(10)
        XCTAssertEqual(result.valueIfFulfilled, [0, 10, 20])
    }

    func testThenMapRejectsWithTheFirstError() {
        let result = Promise.value([1, 2, 3]).thenMap(on: nil) { value -> Promise<Int> in
            value == 2 ? Promise(error: TestError(code: value)) : .value(value)
        }
        XCTAssertEqual(result.error as? TestError, TestError(code: 2))
    }

    func testThenFlatMapConcatenatesTheValuesOfTheThenables() {
        let result = Promise.value([1, 2, 3]).thenFlatMap(on: nil) { Promise.value([$0, $0 * 10]) }
        XCTAssertEqual(result.valueIfFulfilled, [1, 10, 2, 20, 3, 30])
    }

    func testFilterValuesKeepsTheIncludedElementsInOrder() {
        XCTAssertEqual(Promise.value([1, 2, 3, 4]).filterValues(on: nil) { $0.isMultiple(of: 2) }.valueIfFulfilled, [2, 4])
        XCTAssertEqual(Promise.value(people).filterValues(on: nil, \.isStudent).valueIfFulfilled, [people[2]])
    }

    func testFirstValueIsTheFirstElementOrRejectsWithEmptySequence() {
        XCTAssertEqual(Promise.value([7, 8, 9]).firstValue.valueIfFulfilled, 7)
        guard case PMKError.emptySequence? = Promise.value([Int]()).firstValue.error else {
            return XCTFail("expected PMKError.emptySequence")
        }
    }

    func testFirstValueWhereIsTheFirstElementThatPassesOrRejectsWithEmptySequence() {
        XCTAssertEqual(Promise.value([1, 4, 6]).firstValue(on: nil) { $0 > 3 }.valueIfFulfilled, 4)
        guard case PMKError.emptySequence? = Promise.value([1, 2]).firstValue(on: nil, where: { $0 > 3 }).error else {
            return XCTFail("expected PMKError.emptySequence")
        }
    }

    func testLastValueIsTheLastElementOrRejectsWithEmptySequence() {
        XCTAssertEqual(Promise.value([7, 8, 9]).lastValue.valueIfFulfilled, 9)
        // A collection that is not bidirectional works too.
        XCTAssertEqual(Promise.value(Set([5])).lastValue.valueIfFulfilled, 5)
        guard case PMKError.emptySequence? = Promise.value([String]()).lastValue.error else {
            return XCTFail("expected PMKError.emptySequence")
        }
    }

    func testSortedValuesSortsAscending() {
        XCTAssertEqual(Promise.value([5, 2, 3, 4, 1]).sortedValues(on: nil).valueIfFulfilled, [1, 2, 3, 4, 5])
    }

    func testRejectionsPassThroughWithoutRunningTheTransforms() {
        let calls = Counter()
        let rejected = Promise<[Int]>(error: TestError(code: 5))
        let results: [Promise<Void>] = [
            rejected.mapValues(on: nil) { calls.increment(); return $0 }.asVoid(),
            rejected.thenMap(on: nil) { value -> Promise<Int> in calls.increment(); return .value(value) }.asVoid(),
            rejected.filterValues(on: nil) { _ in calls.increment(); return true }.asVoid(),
            rejected.firstValue.asVoid(),
            rejected.lastValue.asVoid(),
            rejected.sortedValues(on: nil).asVoid(),
        ]
        XCTAssertEqual(calls.value, 0)
        XCTAssertEqual(results.map { ($0.error as? TestError)?.code }, Array(repeating: 5, count: results.count))
    }

    func testTransformsRunOnTheGivenQueue() {
        let queue = makeLabelledQueue("sequence.queue")
        let labels = Recorder<String?>()
        let result = Promise.value([3, 1, 2])
            .mapValues(on: queue) { value -> Int in labels.append(currentQueueLabel); return value }
            .sortedValues(on: queue)
        XCTAssertEqual(try settledResult(of: result)?.get(), [1, 2, 3])
        XCTAssertEqual(Set(labels.elements.map { $0 ?? "none" }), ["sequence.queue"])
    }

    func testTheDefaultQueueIsConfQMap() throws {
        try withConfiguration {
            let queue = makeLabelledQueue("sequence.default")
            conf.Q = (map: queue, return: nil)
            let label = Recorder<String?>()
            let result = Promise.value([1]).mapValues { value -> Int in label.append(currentQueueLabel); return value }
            XCTAssertEqual(try settledResult(of: result)?.get(), [1])
            XCTAssertEqual(label.elements, ["sequence.default"])
        }
    }

    // MARK: - Guarantees of sequences

    func testGuaranteeSequenceMethodsReturnGuaranteesForNonThrowingTransforms() {
        let numbers = Guarantee.value([3, 1, 2])
        let mapped: Guarantee<[Int]> = numbers.mapValues(on: nil) { $0 * 2 }
        let flatMapped: Guarantee<[Int]> = numbers.flatMapValues(on: nil) { [$0, $0] }
        let compactMapped: Guarantee<[Int]> = Guarantee.value(["1", "x"]).compactMapValues(on: nil) { Int($0) }
        let filtered: Guarantee<[Int]> = numbers.filterValues(on: nil) { $0 > 1 }
        let sorted: Guarantee<[Int]> = numbers.sortedValues(on: nil)
        let sortedDescending: Guarantee<[Int]> = numbers.sortedValues(on: nil) { $0 > $1 }
        XCTAssertEqual(mapped.valueIfFulfilled, [6, 2, 4])
        XCTAssertEqual(flatMapped.valueIfFulfilled, [3, 3, 1, 1, 2, 2])
        XCTAssertEqual(compactMapped.valueIfFulfilled, [1])
        XCTAssertEqual(filtered.valueIfFulfilled, [3, 2])
        XCTAssertEqual(sorted.valueIfFulfilled, [1, 2, 3])
        XCTAssertEqual(sortedDescending.valueIfFulfilled, [3, 2, 1])
    }

    func testGuaranteeSequenceMethodsTakeKeyPathLiteralsAndReturnGuarantees() {
        let guaranteed = Guarantee.value(people)
        let names: Guarantee<[String]> = guaranteed.mapValues(on: nil, \.name)
        let ages: Guarantee<[Int]> = guaranteed.compactMapValues(on: nil, \.age)
        let students: Guarantee<[Person]> = guaranteed.filterValues(on: nil, \.isStudent)
        XCTAssertEqual(names.valueIfFulfilled, ["Max", "Roman", "John"])
        XCTAssertEqual(ages.valueIfFulfilled, [26, 23])
        XCTAssertEqual(students.valueIfFulfilled, [people[2]])
    }

    func testGuaranteeThenMapAndThenFlatMapWaitForEveryGuarantee() {
        let (late, resolve) = Guarantee<Int>.pending()
        let mapped: Guarantee<[Int]> = Guarantee.value([0, 1]).thenMap(on: nil) { $0 == 0 ? late : .value(1) }
        let flatMapped: Guarantee<[Int]> = Guarantee.value([1, 2]).thenFlatMap(on: nil) { .value([$0, -$0]) }
        XCTAssertTrue(mapped.isPending)
        resolve(0)
        XCTAssertEqual(mapped.valueIfFulfilled, [0, 1])
        XCTAssertEqual(flatMapped.valueIfFulfilled, [1, -1, 2, -2])
    }

    func testGuaranteeWithAThrowingTransformGivesAPromise() {
        let result: Promise<[Int]> = Guarantee.value([1, 2]).mapValues(on: nil) { value throws -> Int in
            if value == 2 { throw TestError(code: 2) }
            return value
        }
        XCTAssertEqual(result.error as? TestError, TestError(code: 2))
        let first: Promise<Int> = Guarantee.value([Int]()).firstValue
        guard case PMKError.emptySequence? = first.error else {
            return XCTFail("expected PMKError.emptySequence")
        }
    }
}
