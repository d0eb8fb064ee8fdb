import Foundation
import VowMigrate
import XCTest

/// `let (promise, seal) = Promise<T>.pending()`, settled by a callback, then `return promise`:
/// a promise the function makes (not one it kept, which callers would share), so `--replace`
/// converts the function, which awaits that promise. The program prints the same for each answer.
final class PendingPromiseTests: XCTestCase {
    private static let source = #"""
        import Dispatch
        import Vow

        enum MotionError: Error {
            case unauthorized, noData
        }

        final class Motion: @unchecked Sendable {
            var authorized = true
            var answer: Int?

            func query(on queue: DispatchQueue, _ handler: @escaping @Sendable (Int?, Error?) -> Void) {
                let answer = answer
                queue.async { handler(answer, nil) }
            }
        }

        final class Sensor: @unchecked Sendable {
            let motion = Motion()
            var shown: [String] = []

            func latestActivity() -> Promise<Int> {
                guard motion.authorized else {
                    return .init(error: MotionError.unauthorized)
                }
                let (promise, seal) = Promise<Int>.pending()
                let queue = DispatchQueue.main
                motion.query(on: queue) { activity, error in
                    if let activity = activity {
                        seal.fulfill(activity)
                    } else if let error = error {
                        seal.reject(error)
                    } else {
                        seal.reject(MotionError.noData)
                    }
                }
                return promise
            }

            func latestSteps() -> Promise<Int> {
                let pending = Promise<Int>.pending()
                motion.query(on: .main) { steps, _ in
                    pending.resolver.fulfill((steps ?? 0) * 100)
                }
                return pending.promise
            }

            func report(_ finished: @escaping @Sendable () -> Void) {
                latestActivity().then { activity in
                    self.latestSteps().map { steps in "activity \(activity), steps \(steps)" }
                }.done { text in
                    print(text)
                    finished()
                }.catch { error in
                    print("failed: \(error)")
                    finished()
                }
            }
        }

        """#

    private static let driver = #"""
        import Dispatch
        import Foundation

        let answers: [(Bool, Int?)] = [(true, 3), (true, nil), (false, 1)]
        nonisolated(unsafe) var next = 0
        nonisolated(unsafe) var sensor = Sensor()

        @MainActor func runNext() {
            guard next < answers.count else { exit(0) }
            let (authorized, answer) = answers[next]
            next += 1
            sensor = Sensor()
            sensor.motion.authorized = authorized
            sensor.motion.answer = answer
            sensor.report { DispatchQueue.main.async { runNext() } }
        }

        DispatchQueue.main.async { runNext() }
        dispatchMain()

        """#

    private func run(_ code: String, _ name: String) throws -> String {
        try ProgramBuilding.buildAndRun([("Sensor.swift", code), ("main.swift", Self.driver)], as: name, in: try TestSupport.temporaryDirectory(self))
    }

    func testAPendingPromiseSettledByACallbackIsMadeHereAndTheFunctionBecomesAsync() throws {
        let expected = try run(Self.source, "original")
        XCTAssertEqual(expected, """
            activity 3, steps 300
            failed: noData
            failed: unauthorized

            """)
        let migration = SourceMigrator.migrate(source: Self.source, fileName: "Sensor.swift",
                                               options: MigrationOptions(target: .async, replace: true, stage: .all))
        // The callbacks settling the promises stay as they are: code after them (the `return`)
        // ran before them, which awaiting them would change.
        XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteRefused }.map(\.function), ["latestActivity()", "latestSteps()"])
        XCTAssertTrue(migration.findings.filter { $0.kind == .callSiteRefused }.allSatisfy { $0.message.hasPrefix("code after the call runs before its callback") })
        XCTAssertTrue(migration.output.contains("@MainActor func latestActivity() async throws -> Int {"), migration.output)
        XCTAssertTrue(migration.output.contains("@MainActor func latestSteps() async throws -> Int {"), migration.output)
        XCTAssertTrue(migration.output.contains("return try await promise.value"), migration.output)
        XCTAssertTrue(migration.output.contains("return try await pending.promise.value"), migration.output)
        XCTAssertEqual(try run(migration.output, "migrated"), expected)
    }
}
