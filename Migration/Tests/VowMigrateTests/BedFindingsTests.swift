import Foundation
import VowMigrate
import XCTest

/// What two test beds written from scratch (a courier app's callback code, a PromiseKit banking
/// app) found: output that did not compile, and converted code running on another thread.
final class BedFindingsTests: XCTestCase {
    private func migrate(_ source: String, _ target: MigrationTarget, _ stage: MigrationStage = .all,
                         replace: Bool = false) -> FileMigration {
        var options = MigrationOptions(target: target, stage: stage)
        options.replace = replace
        return SourceMigrator.migrate(source: source, fileName: "Bed.swift", options: options)
    }

    private func refusals(_ migration: FileMigration) -> [String] {
        migration.findings.filter { $0.kind == .callSiteRefused || $0.kind == .skipped }.map { "\($0.line) \($0.message)" }
    }

    /// `func profile() -> Promise<Driver>` beside `var profile: Driver?` is an invalid
    /// redeclaration; `func profile() async throws -> Driver` is not.
    func testAPromiseAlternativeNamedLikeAPropertyOfItsTypeIsSkipped() throws {
        let input = """
            import Dispatch

            struct Driver: Sendable { let name: String }

            final class DriverRepository: @unchecked Sendable {
                private var profile: Driver?

                func profile(completion: @escaping @Sendable (Driver?, Error?) -> Void) {
                    DispatchQueue.global().async { completion(Driver(name: "Sam"), nil) }
                }
            }

            """
        let promise = migrate(input, .promise, .declarations)
        XCTAssertEqual(refusals(promise), ["8 its alternative `profile()` would clash with the property `profile` of the same type (an invalid redeclaration)"])
        XCTAssertFalse(promise.changed)
        let async = migrate(input, .async, .declarations)
        XCTAssertTrue(async.output.contains("func profile() async throws -> Driver"), async.output)
        XCTAssertNil(try TestSupport.typecheck(async.output, as: "Bed.swift", self))
    }

    /// `case .success(var route)` changes its copy, which a handler's parameter could not.
    func testAVarBindingInASwitchOnResultIsNotFlattenedIntoAChain() throws {
        let input = """
            import Dispatch

            struct Route: Sendable { var stops: [String] }

            final class ShiftService: @unchecked Sendable {
                func route(completion: @escaping @Sendable (Result<Route, Error>) -> Void) {
                    DispatchQueue.global().async { completion(.success(Route(stops: ["a"]))) }
                }

                func show() {
                    route { result in
                        switch result {
                        case .success(var route):
                            route.stops.append("depot")
                            print(route.stops)
                        case .failure(let error):
                            print(error)
                        }
                    }
                }
            }

            """
        let promise = migrate(input, .promise)
        XCTAssertFalse(promise.output.contains(".done"), promise.output)
        XCTAssertEqual(promise.findings.filter { $0.kind == .callSiteRefused }.map(\.line), [13])
        XCTAssertNil(try TestSupport.typecheck(promise.output, as: "Bed.swift", self))
    }

    /// A callee answering through `group.notify(queue: .main)` answers on the main queue, as one
    /// answering in `DispatchQueue.main.async { }` does: the task runs on the main actor.
    func testAGroupNotifyingOnTheMainQueueAnswersThere() {
        let input = """
            import Dispatch

            final class Earnings: @unchecked Sendable {
                func total(completion: @escaping @Sendable (Int) -> Void) {
                    let group = DispatchGroup()
                    var sum = 0
                    group.enter()
                    DispatchQueue.global().async {
                        sum += 600
                        group.leave()
                    }
                    group.notify(queue: .main) { completion(sum) }
                }
            }

            final class EarningsModel: @unchecked Sendable {
                let earnings = Earnings()

                func load() {
                    earnings.total { total in
                        print("show total \\(total)")
                    }
                }
            }

            """
        let async = migrate(input, .async)
        XCTAssertTrue(async.output.contains("Task { @MainActor in"), async.output)
    }

    /// In code no actor owns, a new plain task makes the first call on the thread pool: where
    /// the callee checks its thread before it returns (and would trap), the callback is left
    /// alone; in a `UIViewController` subclass the task inherits the main actor.
    func testAPlainTaskDoesNotMoveACalleeThatChecksItsThreadOffIt() throws {
        let input = """
            import Dispatch

            class UIViewController {}

            final class Store: @unchecked Sendable {
                private let queue = DispatchQueue(label: "store")

                func count(completion: @escaping @Sendable (Int) -> Void) {
                    dispatchPrecondition(condition: .onQueue(.main))
                    queue.async { completion(3) }
                }
            }

            final class CountModel: @unchecked Sendable {
                let store = Store()

                func show() {
                    store.count { value in
                        print(value)
                    }
                }
            }

            final class CountViewController: UIViewController, @unchecked Sendable {
                let store = Store()

                func show() {
                    store.count { value in
                        print(value)
                    }
                }
            }

            """
        let async = migrate(input, .async)
        XCTAssertEqual(refusals(async), ["18 the callee checks which thread it runs on before it returns; in a new `Task` here it would run on the "
                                         + "task's thread instead of the caller's (this code is not isolated to the main actor); mark the type "
                                         + "`@MainActor` where it runs on the main queue, or `--to promise` keeps it"])
        XCTAssertTrue(async.output.contains("        Task {\n            let value = await store.count()"), async.output)
    }

    /// `on: conf.Q.return` is the default queue spelled out (an optional `DispatchQueue`).
    func testALinkOnTheDefaultQueueSpelledOutConverts() throws {
        let input = """
            import Vow

            final class Api: Sendable {
                func load() -> Promise<Int> { .value(1) }
            }

            final class Screen: Sendable {
                let api = Api()

                func show() {
                    api.load().done { value in
                        print("value \\(value)")
                    }.catch(on: Vow.conf.Q.return) { error in
                        print("error \\(error)")
                    }
                }
            }

            """
        let async = migrate(input, .async)
        XCTAssertTrue(async.output.contains("Task { @MainActor in"), async.output)
        XCTAssertFalse(async.output.contains("conf.Q.return.async"), async.output)
        XCTAssertNil(try TestSupport.typecheck(async.output, as: "Bed.swift", self))
    }

    /// A guarantee's `map` whose closure throws is a promise: awaited with `try`.
    func testAGuaranteeMappedByAThrowingClosureIsAwaitedWithTry() throws {
        let input = """
            import Vow

            enum E: Error { case offline }

            final class Repo: Sendable {
                func fetch() -> Promise<Int> { Promise(error: E.offline) }
                func cached() -> Guarantee<Int?> { .value(nil) }

                func balance() -> Promise<Int> {
                    return fetch().recover { error -> Promise<Int> in
                        return self.cached().map { cached in
                            guard let cached = cached else { throw error }
                            return cached
                        }
                    }
                }
            }

            """
        let async = migrate(input, .async)
        XCTAssertTrue(async.output.contains("return try await self.cached().map"), async.output)
        XCTAssertNil(try TestSupport.typecheck(async.output, as: "Bed.swift", self))
    }

    /// A chain that is the only statement of a closure whose type returns nothing is not its
    /// answer: `--replace` does not make it `return` a bridge.
    func testAChainAloneInAClosureReturningNothingIsNotReturned() throws {
        let input = """
            import Vow

            final class Engine: Sendable {
                func warmUp() -> Guarantee<Void> {
                    return after(seconds: 0.01)
                }
            }

            func scenario(_ name: String, _ body: (Engine, @escaping @Sendable () -> Void) -> Void) {
                body(Engine()) { print("finished \\(name)") }
            }

            func runAll() {
                scenario("warm up") { engine, finish in
                    engine.warmUp().done {
                        print("warm")
                        finish()
                    }
                }
            }

            """
        let replaced = migrate(input, .async, replace: true)
        XCTAssertFalse(replaced.output.contains("return Guarantee"), replaced.output)
        XCTAssertNil(try TestSupport.typecheck(replaced.output, as: "Bed.swift", self))
    }

    /// A split `success:`/`failure:` overload beside a `completion:` one: both alternatives would
    /// be `fetchName(id:)`, an invalid redeclaration; neither gets one.
    func testASplitHandlerOverloadBesideAResultOneGivesNeitherAnAlternative() throws {
        let input = """
            import Dispatch

            public enum ApiError: Error { case failed }

            public final class Api: @unchecked Sendable {
                public init() {}

                public func fetchName(id: Int, completion: @escaping @Sendable (Result<String, ApiError>) -> Void) {
                    DispatchQueue.global().async { completion(.success("n\\(id)")) }
                }

                @available(*, deprecated, renamed: "fetchName(id:completion:)")
                public func fetchName(id: Int, success: @escaping @Sendable (String) -> Void, failure: @escaping @Sendable (ApiError) -> Void) {
                    fetchName(id: id) { result in
                        switch result {
                        case .success(let name): success(name)
                        case .failure(let error): failure(error)
                        }
                    }
                }
            }

            """
        for target in [MigrationTarget.async, .promise] {
            let migration = migrate(input, target, .declarations)
            XCTAssertEqual(migration.findings.filter { $0.kind == .skipped }.count, 2, "\(target): \(migration.findings)")
            XCTAssertFalse(migration.changed, "\(target)")
        }
    }

    /// The generated closure's own names avoid the function's: `resolve(names) { }` inside
    /// `Guarantee { resolve in }` would call the closure's parameter.
    func testAFunctionNamedLikeTheGeneratedResolverKeepsItsCall() throws {
        let input = """
            import Dispatch

            public final class Resolver: @unchecked Sendable {
                public init() {}

                public func resolve(_ names: [String], completion: @escaping @Sendable ([String]) -> Void) {
                    DispatchQueue.global().async { completion(names.filter { !$0.isEmpty }) }
                }
            }

            """
        let promise = migrate(input, .promise, .declarations)
        XCTAssertTrue(promise.output.contains("Guarantee { resolve2 in"), promise.output)
        XCTAssertNil(try TestSupport.typecheck(promise.output, as: "Bed.swift", self))
    }

    /// A protocol requirement's alternative goes into an extension of the protocol, which every
    /// conforming type inherits: where one declares a synchronous function of the alternative's
    /// name, its calls in async code would reach the alternative instead.
    func testARequirementsAlternativeIsNotAddedWhereAConformingTypeDeclaresItsName() throws {
        let input = """
            import Dispatch

            public protocol MessageStore: Sendable {
                func load(id: Int, completion: @escaping @Sendable (Result<Int, Error>) -> Void)
            }

            public final class MemoryStore: MessageStore, @unchecked Sendable {
                public init() {}

                public func load(id: Int, completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
                    DispatchQueue.global().async { completion(.success(id)) }
                }

                public func load(id: Int) -> Int? { id }
            }

            """
        let async = migrate(input, .async, .declarations)
        XCTAssertFalse(async.output.contains("func load(id: Int) async"), async.output)
        XCTAssertTrue(async.findings.contains { $0.kind == .skipped && $0.message.contains("`MemoryStore`, which inherits it, declares `load(id:)`") && $0.message.contains("could reach the inherited alternative") },
                      "\(async.findings)")
    }

    /// `http.request(...)` with `http: HTTPClient`, whose `request` implements
    /// `HTTPClientProtocol`'s with a defaulted parameter more (and, its body shows, may end a path
    /// without answering, the requirement says nothing): the compiler picks the class's own
    /// function, so the call is not ambiguous. Through the protocol, dispatch may land on any
    /// conformer's: still refused there.
    func testTheReceiversOwnFunctionIsPickedOverTheRequirementItImplements() throws {
        let root = try TestSupport.temporaryDirectory(self)
        try """
            import Foundation

            typealias DataCompletion = (Data?, Error?) -> Void

            final class RequestToken {
                var isCancelled = false
                func cancel() { isCancelled = true }
            }

            final class Backend {
                let queue = DispatchQueue(label: "backend")
                func serve(_ endpoint: String, cancelled: @escaping () -> Bool, answer: @escaping (Data?, Int, Error?) -> Void) {
                    queue.async { cancelled() ? answer(nil, 0, URLError(.cancelled)) : answer(Data(endpoint.utf8), 200, nil) }
                }
            }

            protocol HTTPClientProtocol: AnyObject {
                func request(_ endpoint: String, body: Data?, completion: @escaping DataCompletion) -> RequestToken
            }

            final class HTTPClient: HTTPClientProtocol {
                let backend = Backend()

                @discardableResult
                func request(_ endpoint: String, body: Data? = nil, completion: @escaping DataCompletion) -> RequestToken {
                    let token = RequestToken()
                    backend.serve(endpoint, cancelled: { token.isCancelled }) { data, status, error in
                        if let error = error {
                            completion(nil, error)
                            return
                        }
                        completion(data, nil)
                    }
                    return token
                }
            }
            """.write(to: root.appendingPathComponent("Client.swift"), atomically: true, encoding: .utf8)
        try """
            import Foundation

            final class Auth {
                let http: HTTPClient
                init(http: HTTPClient) { self.http = http }

                func login(name: String) {
                    http.request("login", body: Data(name.utf8)) { data, error in
                        if let error = error {
                            print("failed \\(error)")
                            return
                        }
                        print("logged in \\(data?.count ?? 0)")
                    }
                }

                func ping(through client: HTTPClientProtocol) {
                    client.request("ping", body: nil) { data, error in
                        print("pinged \\(data?.count ?? 0) \\(error == nil)")
                    }
                }
            }
            """.write(to: root.appendingPathComponent("Auth.swift"), atomically: true, encoding: .utf8)
        let run = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardError.contains("Auth.swift:8:9: note: converted 1 callback to `try await`"), run.standardError)
        XCTAssertFalse(run.standardError.contains("Auth.swift:8:9: call site left alone"), run.standardError)
        XCTAssertTrue(run.standardError.contains("several functions named `request` take these labels; the callee is ambiguous"), run.standardError)
    }

    /// A `main.swift`'s top-level code, its closures too, is not converted: each call of a
    /// completion-handler function and each chain there is reported, none passed over silently.
    func testCallsAndChainsInTopLevelCodeAreReported() throws {
        let root = try TestSupport.temporaryDirectory(self)
        try """
            import Dispatch
            import Vow

            final class Api {
                func load() -> Promise<Int> { .value(1) }
                func ping(completion: @escaping (Error?) -> Void) { DispatchQueue.global().async { completion(nil) } }
            }

            """.write(to: root.appendingPathComponent("Api.swift"), atomically: true, encoding: .utf8)
        try """
            import Foundation
            import Vow

            func scenario(_ name: String, _ body: () -> Void) { body() }

            func showValue(_ api: Api) {
                api.load().done { value in
                    print("value \\(value)")
                }.catch { error in
                    print("error \\(error)")
                }
            }

            Api().load().done { value in
                print("top-level \\(value)")
            }.catch { error in
                print("error \\(error)")
            }
            scenario("ping") {
                Api().ping { error in
                    print("pinged \\(error == nil)")
                }
            }
            showValue(Api())
            RunLoop.main.run(until: Date().addingTimeInterval(0.1))

            """.write(to: root.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let reason = "call site left alone in `top-level code`: the call is in the file's top-level code, which is not converted; move it into a function to convert it"
        let async = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all"])
        XCTAssertEqual(async.status, 0, async.standardError)
        XCTAssertTrue(async.standardError.contains("main.swift:7:5: note: converted a promise chain"), async.standardError)
        XCTAssertTrue(async.standardError.contains("main.swift:14:1: \(reason)"), async.standardError)
        XCTAssertTrue(async.standardError.contains("main.swift:20:5: \(reason)"), async.standardError)
        XCTAssertTrue(async.standardError.contains("1 call site converted, 2 left alone"), async.standardError)
        // The promise form has no chain to convert; the callback call is reported.
        let promise = try TestSupport.migrate([root.path, "--to", "promise", "--stage", "all"])
        XCTAssertFalse(promise.standardError.contains("main.swift:14:1:"), promise.standardError)
        XCTAssertTrue(promise.standardError.contains("main.swift:20:5: \(reason)"), promise.standardError)
    }

    /// A callee whose handler is optional and defaulted (`save(_:forKey:completion: ((Error?) ->
    /// Void)? = nil)`), called inside another callback, converts as it does at the top of a
    /// pyramid: the awaited call needs no default argument, so it reaches the alternative (in a
    /// loop of calls too, where a child task awaits it). Migrated with `--stage all` in both forms, the program prints the same.
    func testADefaultedHandlersCallInsideACallbackConverts() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let app = root.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try """
            import Foundation

            struct Failed: Error {}
            let storeQueue = DispatchQueue(label: "store")
            let copied = DispatchSemaphore(value: 0)

            final class Store: @unchecked Sendable {
                var failing: Set<String> = []

                func save(_ text: String, forKey key: String, completion: ((Error?) -> Void)? = nil) {
                    let fails = failing.contains(key)
                    storeQueue.async {
                        print("stored \\(key)")
                        completion?(fails ? Failed() : nil)
                    }
                }

                func load(_ key: String, completion: @escaping (String?, Error?) -> Void) {
                    let fails = failing.contains(key)
                    storeQueue.async { fails ? completion(nil, Failed()) : completion("text of \\(key)", nil) }
                }
            }

            final class Notes: @unchecked Sendable {
                let store: Store
                init(store: Store) { self.store = store }

                func copy(_ key: String, to other: String) {
                    store.load(key) { text, error in
                        if let error = error {
                            print("load failed \\(error)")
                            copied.signal()
                            return
                        }
                        self.store.save(text ?? "", forKey: other) { error in
                            print(error == nil ? "copied \\(key)" : "copy failed \\(error!)")
                            copied.signal()
                        }
                    }
                }
            }

            """.write(to: app.appendingPathComponent("Notes.swift"), atomically: true, encoding: .utf8)
        let main = root.appendingPathComponent("main.swift")
        try """
            import Dispatch

            for failing in [[], ["a"], ["b"]] {
                let store = Store()
                store.failing = Set(failing)
                Notes(store: store).copy("a", to: "b")
                copied.wait()
            }

            """.write(to: main, atomically: true, encoding: .utf8)
        let expected = try ProgramBuilding.buildAndRun([app.appendingPathComponent("Notes.swift"), main], binary: root.appendingPathComponent("original"),
                                                       flags: ["-swift-version", "5"])
        XCTAssertEqual(expected, "copied a\nstored b\nload failed Failed()\nstored b\ncopy failed Failed()\n".replacingOccurrences(of: "copied a\nstored b\n", with: "stored b\ncopied a\n"))
        let copy = root.appendingPathComponent("async")
        try FileManager.default.copyItem(at: app, to: copy)
        let run = try TestSupport.migrate([copy.path, "--to", "async", "--stage", "all", "--in-place"])
        XCTAssertTrue(run.standardError.contains("1 call site converted, 0 left alone"), run.standardError)
        let notes = try String(contentsOf: copy.appendingPathComponent("Notes.swift"), encoding: .utf8)
        XCTAssertTrue(notes.contains("try await self.store.save(text ?? \"\", forKey: other)"), notes)
        let output = try ProgramBuilding.buildAndRun([copy.appendingPathComponent("Notes.swift"), main], binary: root.appendingPathComponent("async-program"), flags: ["-swift-version", "5"])
        XCTAssertEqual(output, expected)
    }

    /// A link given a function by name (`.finally(finish)`, `.catch(self.report)`) was not read as
    /// a chain: passed over silently. It is reported now, the same chain written with closures
    /// converts.
    func testAChainWithAHandlerGivenByNameIsReported() throws {
        let input = """
            import Vow

            final class Api {
                func load() -> Promise<Int> { .value(1) }
            }

            final class Screen {
                let api = Api()

                func report(_ error: Error) { print("error \\(error)") }

                func show(finish: @escaping () -> Void) {
                    api.load().done { value in
                        print("value \\(value)")
                    }.catch { error in
                        print("error \\(error)")
                    }.finally(finish)
                }

                func showAgain() {
                    api.load().done { value in
                        print("value \\(value)")
                    }.catch(report)
                }

                func showOnce(finish: @escaping () -> Void) {
                    api.load().done { value in
                        print("value \\(value)")
                    }.catch { error in
                        print("error \\(error)")
                    }.finally {
                        finish()
                    }
                }
            }

            """
        let async = migrate(input, .async)
        XCTAssertEqual(refusals(async), [
            "17 a `finally` given a function by name (`finish`) instead of a closure; write a closure calling it to convert the chain",
            "23 a `catch` given a function by name (`report`) instead of a closure; write a closure calling it to convert the chain",
        ])
        XCTAssertEqual(async.findings.filter { $0.kind == .callSiteConverted }.map(\.line), [27])
    }

    /// NetNewsWire's CloudKit zone: `database.save(zone) { record, error in }` is CloudKit's
    /// `save`, whose callback takes two values; the tree's own `save`s answer one `Result`, which
    /// such a closure could not take. Not a call of the tree's, so not "ambiguous" either.
    func testAClosureFittingNoneOfTheTreesFunctionsOfThatNameIsNotACallOfThem() throws {
        let input = """
            import Foundation

            final class Record {}
            final class Subscription {}

            protocol Zone {
                var database: Database? { get }
            }

            extension Zone {
                func save(_ record: Record, completion: @escaping (Result<Void, Error>) -> Void) {
                    DispatchQueue.main.async { completion(.success(())) }
                }
                func save(_ subscription: Subscription, completion: @escaping (Result<Subscription, Error>) -> Void) {
                    DispatchQueue.main.async { completion(.success(subscription)) }
                }
                func createZone(completion: @escaping (Result<Void, Error>) -> Void) {
                    guard let database = database else {
                        completion(.failure(URLError(.badURL)))
                        return
                    }
                    database.save(Record()) { (record, error) in
                        DispatchQueue.main.async {
                            if let error = error { completion(.failure(error)) } else { completion(.success(())) }
                        }
                    }
                }
            }

            """
        let migration = migrate(input, .async)
        let callSites = migration.findings.filter { $0.kind == .callSiteRefused || $0.kind == .callSiteConverted }
        XCTAssertFalse(callSites.contains { $0.message.contains("ambiguous") }, callSites.map(\.message).joined(separator: "\n"))
        XCTAssertEqual(callSites.filter { $0.line == 22 }.map(\.message), [])
        XCTAssertEqual(migration.findings.filter { $0.kind == .added }.count, 3)
    }

    /// wikipedia-ios's fetchers answer JSON as `[String: Any]?`: `Promise<[String: Any]>` does not
    /// compile in Swift 6 mode (a promise's value is `Sendable`), so only the async form adds one.
    func testAValueOfAnSDKTypeThatIsNotSendableGetsNoPromiseInSwift6Mode() throws {
        let input = """
            import Foundation

            public final class Fetcher: Sendable {
                public func get(_ url: URL, completion: @escaping @Sendable ([String: Any]?, Error?) -> Void) {
                    DispatchQueue.global().async { completion(["url": url.absoluteString], nil) }
                }
                public func object(completion: @escaping @Sendable (NSDictionary?, Error?) -> Void) {
                    DispatchQueue.global().async { completion(NSDictionary(), nil) }
                }
                public func count(completion: @escaping @Sendable ([String: any Sendable]?, Error?) -> Void) {
                    DispatchQueue.global().async { completion([:], nil) }
                }
            }

            """
        XCTAssertEqual(refusals(migrate(input, .promise, .declarations)), [
            "4 its value type holds `Any`, an existential that is not `Sendable`, and a promise carries only "
                + "`Sendable` values; use --to async, or answer a `Sendable` type",
            "7 its value type holds `NSDictionary`, an SDK class that is not `Sendable`, and a promise "
                + "carries only `Sendable` values; use --to async, or answer a `Sendable` type",
        ])
        XCTAssertEqual(migrate(input, .async, .declarations).findings.filter { $0.kind == .added }.count, 3)
        var five = MigrationOptions(target: .promise, stage: .declarations)
        five.languageMode = .v5
        XCTAssertEqual(SourceMigrator.migrate(source: input, fileName: "Bed.swift", options: five).findings.filter { $0.kind == .added }.count, 3)
    }

    /// wikipedia-ios's `@discardableResult func performDecodableMediaWikiAPIGET(...) -> CancellationKey?`:
    /// its author lets callers drop the key, so the alternatives drop it too (and say so by not
    /// cancelling); without `@discardableResult`, the value is the caller's business and the
    /// function is skipped as before. Both forms build and answer as the original.
    func testADiscardableReturnedValueIsDroppedByTheAlternatives() throws {
        let input = """
            import Foundation

            public typealias CancellationKey = String

            public final class Fetcher: Sendable {
                @discardableResult
                public func get(_ path: String, completion: @escaping @Sendable (Result<Int, Error>) -> Void) -> CancellationKey? {
                    let key = UUID().uuidString
                    DispatchQueue.global().async { completion(path.isEmpty ? .failure(URLError(.badURL)) : .success(path.count)) }
                    return key
                }
                public func image(_ path: String, completion: @escaping @Sendable (Result<Int, Error>) -> Void) -> CancellationKey? {
                    DispatchQueue.global().async { completion(.success(path.count)) }
                    return path
                }
            }

            """
        let driver = """
            import Foundation
            import Vow

            let fetcher = Fetcher()
            print(try await VALUE)
            do { _ = try await FAILURE } catch { print("error", (error as? URLError)?.code == .badURL) }

            """
        let root = try TestSupport.temporaryDirectory(self)
        for (target, value, failure) in [(MigrationTarget.async, "fetcher.get(\"abc\")", "fetcher.get(\"\")"),
                                         (.promise, "fetcher.get(\"abc\").value", "fetcher.get(\"\").value")] {
            let migration = migrate(input, target, .declarations)
            XCTAssertEqual(refusals(migration), [
                "12 it returns `CancellationKey?` besides calling its handler; only a cancellable handle "
                    + "(a type with `cancel()`) maps onto a cancellation token",
            ], "\(target)")
            let main = driver.replacingOccurrences(of: "VALUE", with: value).replacingOccurrences(of: "FAILURE", with: failure)
            let output = try ProgramBuilding.buildAndRun([("Fetcher.swift", migration.output), ("main.swift", main)], as: "\(target)", in: root)
            XCTAssertEqual(output, "3\nerror true\n", "\(target)")
        }
        var replace = MigrationOptions(target: .async, stage: .declarations)
        replace.replace = true
        let replaced = SourceMigrator.migrate(source: input, fileName: "Bed.swift", options: replace)
        XCTAssertTrue(replaced.findings.contains { $0.message.contains("it returns `CancellationKey?` besides calling its handler; --replace keeps such functions") },
                      replaced.findings.map(\.message).joined(separator: "\n"))
    }
}
