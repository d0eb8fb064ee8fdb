// Code written against PromiseKit 8, before the switch.
@preconcurrency import Foundation
import PromiseKit

struct Reading: Sendable {
    var value: Int
}

enum MeterError: Error {
    case offline
}

final class Dashboard: @unchecked Sendable {
    /// A property declared as a promise.
    let latest: Promise<Int> = Promise.value(1)
    /// An optional guarantee.
    var warmUp: Guarantee<Void>?

    func load() -> Promise<Int> {
        Promise.value(2)
    }

    func tick() -> Guarantee<Int> {
        Guarantee.value(3)
    }

    func reading() -> Reading {
        Reading(value: 4)
    }

    func peek(_ request: Promise<String>) -> String? {
        // A parameter declared as a promise.
        request.value
    }

    func snapshot() -> [Int?] {
        let started = Promise<Int> { seal in seal.fulfill(5) }
        let made = Promise<Int>(error: MeterError.offline)
        let immediate = Promise<Int>.value(6)
        let guaranteed = Guarantee<Int>.value(7)
        let first = firstly { Promise.value(8) }
        let both = when(fulfilled: [started, immediate])
        let fastest = race(started, immediate)
        let mapped = first.map { $0 + 1 }
        let chained = load().then { Promise.value($0 * 2) }
        let (promise, resolver) = Promise<Int>.pending()
        resolver.fulfill(9)
        let pending = Promise<Int>.pending()
        pending.resolver.fulfill(10)
        return [
            latest.value, self.latest.value, started.value, made.value, immediate.value,
            guaranteed.value, first.value, both.value?.first, fastest.value, mapped.value,
            chained.value, promise.value, pending.promise.value, load().value, self.tick().value,
            Promise.value(11).value,
        ]
    }

    func waitedFor() -> Bool {
        let delay = after(seconds: 0.1)
        let done = load().done { _ in }
        let plain = load().asVoid()
        return delay.value == nil && done.value == nil && plain.value == nil && warmUp?.value != nil
    }

    func moreChains() -> [Int?] {
        let resolved = Guarantee<Int> { resolve in resolve(14) }
        let got = load().get { _ in }
        let compacted = load().compactMap { $0 > 0 ? $0 : nil }
        let recovered = load().recover { _ in Guarantee.value(0) }
        let ensured = load().ensure {}
        let tapped = load().tap { _ in }
        let sequence = firstly {
            load()
        }.then { value in
            Promise.value(value + 1)
        }.map { $0 * 2 }
        return [resolved.value, got.value, compacted.value, recovered.value, ensured.value, tapped.value, sequence.value]
    }

    // Left alone: Vow's async `value`, the static function, calls, and what is not a promise.
    func awaited() async throws -> Int {
        let promise = load()
        let ticked = await tick().value
        return try await promise.value + ticked
    }

    func notPromises() -> [Int] {
        let make: @Sendable (Int) -> Promise<Int> = Promise<Int>.value
        _ = make
        let box = reading()
        var local = Reading(value: 12)
        local.value += 1
        return [box.value, local.value, Reading(value: 13).value, reading().value]
    }

    // Reported: a closure parameter whose type the file does not show.
    func ambiguous(_ readings: [Reading]) -> [Int] {
        readings.map { item in item.value }
    }
}
