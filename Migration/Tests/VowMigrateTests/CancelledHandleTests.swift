import Foundation
import XCTest

/// Issue 19: a function returning a handle whose type no file of the run declares
/// (element-ios's `join(roomWithId:success:failure:) -> MXHTTPOperation?`, MatrixSDK's type) is
/// skipped, the reason naming `--context`, since the tool cannot see a `cancel()`. A tree that
/// conforms the type to a protocol of its own declaring `cancel()` (`extension MXHTTPOperation:
/// Cancellable {}`) says it has one: the alternatives cancel the handle when their Task (or
/// token) is cancelled. Whether that type is `Sendable` is not known, so the generated code
/// holds a closure cancelling it (`nonisolated(unsafe) let cancelTask = { task?.cancel() }`),
/// which compiles without a warning either way.
final class CancelledHandleTests: XCTestCase {
    /// Declared outside the run (a framework's), compiled with the program only.
    private static let framework = #"""
        import Foundation

        /// Not `Sendable`, as an Objective-C framework's class is not.
        final class HTTPOperation {
            let name: String
            private let onCancel: @Sendable () -> Void

            init(name: String, onCancel: @escaping @Sendable () -> Void) {
                self.name = name
                self.onCancel = onCancel
            }

            func cancel() {
                print("cancelled \(name)")
                onCancel()
            }
        }
        """#

    private static let service = #"""
        import Foundation

        enum RoomError: Error {
            case notFound(String)
        }

        final class Flag: @unchecked Sendable {
            private let lock = NSLock()
            private var raised = false
            func raise() { lock.withLock { raised = true } }
            var isRaised: Bool { lock.withLock { raised } }
        }

        final class RoomService: @unchecked Sendable {
            private let queue = DispatchQueue(label: "rooms")
            private var currentOperation: HTTPOperation?

            /// Answers a moment later, unless cancelled by then (then never).
            @discardableResult
            func join(roomWithId roomId: String, success: @escaping @Sendable () -> Void,
                      failure: @escaping @Sendable (Error) -> Void) -> HTTPOperation? {
                let cancelled = Flag()
                let operation = HTTPOperation(name: roomId) { cancelled.raise() }
                currentOperation = operation
                queue.asyncAfter(deadline: .now() + 0.3) {
                    guard !cancelled.isRaised else { return }
                    if roomId.isEmpty { failure(RoomError.notFound(roomId)) } else { success() }
                }
                return operation
            }

            func leaveScreen() {
                self.currentOperation?.cancel()
            }
        }

        protocol Cancellable {
            func cancel()
        }

        extension HTTPOperation: Cancellable {}
        """#

    private static let main = #"""
        import Foundation

        let service = RoomService()
        let joining = Task {
            do {
                try await service.join(roomWithId: "lobby")
                print("joined lobby")
            } catch {
                print("lobby: \(type(of: error))")
            }
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        joining.cancel()
        await joining.value
        do {
            try await service.join(roomWithId: "garden")
            print("joined garden")
            try await service.join(roomWithId: "")
        } catch {
            print("failed \(error)")
        }
        """#

    func testAHandleTheTreeConformsToItsCancellableProtocolIsCancelledByTheAlternatives() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let root = directory.appendingPathComponent("tree")
        try TestSupport.writeTree([("RoomService.swift", Self.service)], at: root)
        let result = try TestSupport.migrate([root.path, "--to", "async", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("1 candidate: 1 alternative added"), result.standardError)
        let service = try String(contentsOf: root.appendingPathComponent("RoomService.swift"), encoding: .utf8)
        XCTAssertTrue(service.contains("func join(roomWithId roomId: String) async throws {"), service)
        XCTAssertTrue(service.contains("nonisolated(unsafe) let cancelTask = { task?.cancel() }\n"), service)
        XCTAssertTrue(service.contains("answer.store { cancelTask() }"), service)
        let output = try ProgramBuilding.buildAndRun([("HTTPOperation.swift", Self.framework), ("RoomService.swift", service),
                                                      ("main.swift", Self.main)], as: "migrated", in: directory)
        XCTAssertEqual(output, """
            cancelled lobby
            lobby: CancellationError
            joined garden
            failed notFound("")

            """)
        // The promise form cancels it through its cancellation token; whether the type is
        // `Sendable` or not, the form compiles without a warning.
        let promiseRoot = directory.appendingPathComponent("promise")
        try TestSupport.writeTree([("RoomService.swift", Self.service)], at: promiseRoot)
        let sendable = Self.framework.replacingOccurrences(of: "final class HTTPOperation {", with: "final class HTTPOperation: Sendable {")
        try TestSupport.writeTree([("HTTPOperation.swift", sendable)], at: directory)
        let promise = try TestSupport.migrate([promiseRoot.path, "--to", "promise", "--in-place"])
        XCTAssertEqual(promise.status, 0, promise.standardError)
        let promiseService = try String(contentsOf: promiseRoot.appendingPathComponent("RoomService.swift"), encoding: .utf8)
        XCTAssertTrue(promiseService.contains("seal.onCancel { cancelTask() }"), promiseService)
        XCTAssertNil(try TestSupport.typecheckTogether([promiseRoot.appendingPathComponent("RoomService.swift"),
                                                        directory.appendingPathComponent("HTTPOperation.swift")]))
    }

    /// Without the conformance (a call of `cancel()` alone is no proof the tool takes), the skip
    /// points at `--context`.
    func testWithoutTheConformanceTheHandleSkipsTheFunction() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let root = directory.appendingPathComponent("tree")
        let source = Self.service.replacingOccurrences(of: "extension HTTPOperation: Cancellable {}", with: "")
        try TestSupport.writeTree([("RoomService.swift", source)], at: root)
        let result = try TestSupport.migrate([root.path, "--to", "async", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains(
            "`HTTPOperation` is declared in no file of the run: if it has `cancel()`, name its file with `--context PATH`"), result.standardError)
    }
}
