import Foundation
import VowMigrate
import XCTest

/// A completion handler checked by a helper that answers it exactly when it returns nil
/// (`guard let data = filter(response, data, error, callback) else { return }`, an SDK's usual
/// shape), and a cancelled request left unanswered (`if error.code != NSURLErrorCancelled {
/// callback(...) }`), which the alternative of a function returning a cancellable handle answers
/// itself.
final class NilAnsweringHelperTests: XCTestCase {
    /// The SDK: `count(of:callback:)` returns its request, which `cancel()` ends as cancelled; its
    /// answers go through `filter`, which stays silent for a cancelled request.
    private static let catalog = """
        import Foundation

        public enum CatalogError: Error {
            case network(Int)
            case unexpected(Int)
            case parse
        }

        /// A request in flight; `cancel()` ends it as cancelled.
        public final class Request: @unchecked Sendable {
            private let lock = NSLock()
            private var finish: (@Sendable (Data?, Int, Error?) -> Void)?

            init(_ finish: @escaping @Sendable (Data?, Int, Error?) -> Void) {
                self.finish = finish
            }

            public func cancel() {
                let finish = lock.withLock { () -> (@Sendable (Data?, Int, Error?) -> Void)? in
                    defer { self.finish = nil }
                    return self.finish
                }
                finish?(nil, 0, NSError(domain: NSURLErrorDomain, code: NSURLErrorCancelled))
            }

            func answer(_ data: Data?, _ status: Int, _ error: Error?) {
                let finish = lock.withLock { () -> (@Sendable (Data?, Int, Error?) -> Void)? in
                    defer { self.finish = nil }
                    return self.finish
                }
                finish?(data, status, error)
            }
        }

        /// Checks a response; answers `callback` and returns nil when it is not a success.
        func filter<T>(_ status: Int, _ data: Data?, _ error: Error?, _ callback: @escaping @Sendable (Result<T, CatalogError>) -> Void) -> Data? {
            if let error = error as NSError? {
                if error.code != NSURLErrorCancelled {
                    callback(.failure(.network(error.code)))
                }
                return nil
            }
            guard status == 200, let data else {
                callback(.failure(.unexpected(status)))
                return nil
            }
            return data
        }

        public enum Catalog {
            @discardableResult
            public static func count(of path: String, callback: @escaping @Sendable (Result<Int, CatalogError>) -> Void) -> Request {
                Transport.start(path) { data, status, error in
                    guard let data = filter(status, data, error, callback) else { return }
                    guard let count = Int(String(decoding: data, as: UTF8.self)) else {
                        callback(.failure(.parse))
                        return
                    }
                    callback(.success(count))
                }
            }
        }
        """

    /// A transport answering on another thread: `ok` (200, "7"), `bad` (500), `junk` (200, "x"),
    /// `down` (an error), and `hang`, which answers only once cancelled, with `NSURLErrorCancelled`.
    private static let transport = """
        import Foundation

        enum Transport {
            static func start(_ path: String, _ done: @escaping @Sendable (Data?, Int, Error?) -> Void) -> Request {
                let request = Request(done)
                guard path != "hang" else { return request }
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
                    switch path {
                    case "ok": request.answer(Data("7".utf8), 200, nil)
                    case "bad": request.answer(Data(), 500, nil)
                    case "junk": request.answer(Data("x".utf8), 200, nil)
                    default: request.answer(nil, 0, NSError(domain: NSURLErrorDomain, code: NSURLErrorNotConnectedToInternet))
                    }
                }
                return request
            }
        }

        func describe(_ error: Error) -> String {
            if let error = error as? CatalogError { return "\\(error)" }
            return "cancelled \\(type(of: error))"
        }

        // An await or a promise left waiting would hang the program: fail rather than hang.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 30)
            print("timed out")
            exit(1)
        }
        """

    private static let callbackDriver = transport + """

        for path in ["ok", "bad", "junk", "down"] {
            let done = DispatchSemaphore(value: 0)
            Catalog.count(of: path) { result in
                switch result {
                case .success(let count): print("\\(path): \\(count)")
                case .failure(let error): print("\\(path): \\(describe(error))")
                }
                done.signal()
            }
            done.wait()
        }
        print("hang: never answered")
        """

    private static let asyncDriver = transport + """

        for path in ["ok", "bad", "junk", "down"] {
            do {
                print("\\(path): \\(try await Catalog.count(of: path))")
            } catch {
                print("\\(path): \\(describe(error))")
            }
        }
        let waiting = Task { try await Catalog.count(of: "hang") }
        try? await Task.sleep(nanoseconds: 20_000_000)
        waiting.cancel()
        do {
            _ = try await waiting.value
            print("hang: answered")
        } catch {
            print("hang: \\(describe(error))")
        }
        """

    private static let promiseDriver = "import Vow\n" + transport + """

        for path in ["ok", "bad", "junk", "down"] {
            do {
                print("\\(path): \\(try await Catalog.count(of: path).value)")
            } catch {
                print("\\(path): \\(describe(error))")
            }
        }
        let source = CancellationTokenSource()
        let waiting = Catalog.count(of: "hang", cancellation: source.token)
        try? await Task.sleep(nanoseconds: 20_000_000)
        source.cancel()
        do {
            _ = try await waiting.value
            print("hang: answered")
        } catch {
            print("hang: \\(error.isCancelled ? "cancelled" : describe(error))")
        }
        """

    func testAHandleFunctionAnsweredThroughAFilteringHelperGetsBothAlternativesThatKeepEveryAnswer() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let original = try ProgramBuilding.buildAndRun([("Catalog.swift", Self.catalog), ("main.swift", Self.callbackDriver)],
                                                       as: "original", in: directory)
        XCTAssertEqual(original, """
            ok: 7
            bad: unexpected(500)
            junk: parse
            down: network(-1009)
            hang: never answered

            """)
        for target in [MigrationTarget.async, .promise] {
            let migration = SourceMigrator.migrate(source: Self.catalog, fileName: "Catalog.swift", options: MigrationOptions(target: target))
            let added = migration.findings.filter { $0.kind == .added }.map(\.function)
            XCTAssertEqual(added, ["count(of:callback:)"], "\(target): \(migration.findings)")
            let driver = target == .async ? Self.asyncDriver : Self.promiseDriver
            let output = try ProgramBuilding.buildAndRun([("Catalog.swift", migration.output), ("main.swift", driver)],
                                                         as: "\(target)", in: directory)
            // Every answer as the callback had it; a cancelled request, which the callback never
            // heard of, ends the await (or the promise) as cancelled instead of leaving it waiting.
            XCTAssertEqual(output, """
                ok: 7
                bad: unexpected(500)
                junk: parse
                down: network(-1009)
                hang: \(target == .async ? "cancelled CancellationError" : "cancelled")

                """, "\(target)")
        }
    }

    private func verdicts(_ source: String, _ target: MigrationTarget) -> [String: Finding.Kind] {
        let migration = SourceMigrator.migrate(source: source, fileName: "Catalog.swift", options: MigrationOptions(target: target))
        return Dictionary(migration.findings.map { ($0.function, $0.kind) }, uniquingKeysWith: { first, _ in first })
    }

    func testACancelledRequestCountsAsAnsweredOnlyForAFunctionReturningItsHandleInAFileImportingFoundation() {
        // No Foundation: the async form could not lock to answer the cancellation itself.
        let withoutFoundation = Self.catalog.replacingOccurrences(of: "import Foundation\n", with: "")
        // No handle: nothing the alternative could cancel, so no cancellation it could answer.
        let withoutHandle = Self.catalog
            .replacingOccurrences(of: "@escaping @Sendable (Result<Int, CatalogError>) -> Void) -> Request {\n        Transport.start",
                                  with: "@escaping @Sendable (Result<Int, CatalogError>) -> Void) {\n        _ = Transport.start")
        XCTAssertNotEqual(withoutHandle, Self.catalog)
        for target in [MigrationTarget.async, .promise] {
            XCTAssertEqual(verdicts(Self.catalog, target)["count(of:callback:)"], .added, "\(target)")
            XCTAssertEqual(verdicts(withoutFoundation, target)["count(of:callback:)"], .skipped, "\(target)")
            XCTAssertEqual(verdicts(withoutHandle, target)["count(of:callback:)"], .skipped, "\(target)")
        }
    }

    func testAHelperThatAnswersOnEveryNilPathServesAFunctionWithoutAHandle() {
        // Without the cancellation branch, the helper answers whenever it returns nil.
        let answering = Self.catalog
            .replacingOccurrences(of: "if error.code != NSURLErrorCancelled {\n            callback(.failure(.network(error.code)))\n        }",
                                  with: "callback(.failure(.network(error.code)))")
            .replacingOccurrences(of: "@escaping @Sendable (Result<Int, CatalogError>) -> Void) -> Request {\n        Transport.start",
                                  with: "@escaping @Sendable (Result<Int, CatalogError>) -> Void) {\n        _ = Transport.start")
        XCTAssertFalse(answering.contains("if error.code != NSURLErrorCancelled"))
        XCTAssertEqual(verdicts(answering, .async)["count(of:callback:)"], .added)
        // One that also answers on a path returning data would answer twice.
        let twice = answering.replacingOccurrences(of: "    return data\n}", with: "    callback(.failure(.parse))\n    return data\n}")
        XCTAssertNotEqual(twice, answering)
        XCTAssertEqual(verdicts(twice, .async)["count(of:callback:)"], .skipped)
        // One that returns nil on a path without answering would leave the caller waiting.
        let silent = answering.replacingOccurrences(of: "        callback(.failure(.unexpected(status)))\n        return nil",
                                                    with: "        return nil")
        XCTAssertNotEqual(silent, answering)
        XCTAssertEqual(verdicts(silent, .async)["count(of:callback:)"], .skipped)
    }
}
