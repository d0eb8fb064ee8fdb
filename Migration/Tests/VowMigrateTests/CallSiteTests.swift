import VowMigrate
import XCTest

/// The call-site stage's reports: every refusal at its place with its reason, the stages on
/// their own, and nothing converted that the callee has no alternative for.
final class CallSiteTests: XCTestCase {
    private func migrate(_ source: String, _ target: MigrationTarget, _ stage: MigrationStage) -> FileMigration {
        SourceMigrator.migrate(source: source, fileName: "input.swift", options: MigrationOptions(target: target, stage: stage))
    }

    private func refusals(_ migration: FileMigration) -> [String] {
        migration.findings.filter { $0.kind == .callSiteRefused }.map { "\($0.line):\($0.column) \($0.function): \($0.message)" }
    }

    func testEachRefusalIsReportedAtItsPlaceWithItsReason() throws {
        let input = try TestSupport.fixture("call-sites-refused", "input.swift")
        // A promise chain needs the shapes its steps can say; the async form keeps every other
        // callback's code as it is, after constants holding what it would have received.
        let promise = migrate(input, .promise, .all)
        XCTAssertEqual(refusals(promise), [
            "40:37 lookUp(_:): the callback reads `user` as optional, so a `(nil, nil)` answer means something to it",
            "46:30 store(_:): a (Bool, Error?) answer of `(false, nil)` would become a rejection the callback did not have",
            "57:13 open(_:): a switch on Result with `default:` or several patterns in a case",
            "75:9 openAll(): `group.wait()` blocks its thread until every callback has run (forever on the main queue when they call back there); "
                + "move the code after it into `group.notify(queue: .main) { }` right after the loop",
            "105:21 branch(_:): a callback called on some paths only, or before other code",
        ])
        // One call's `[weak self]` callback starting with `guard let self` becomes a chain whose
        // handlers both start with it; an early `return` in the last callback stays in its handler.
        XCTAssertEqual(promise.findings.filter { $0.kind == .callSiteConverted }.map(\.function), ["check()", "guarded(_:)"])
        let async = migrate(input, .async, .all)
        XCTAssertEqual(refusals(async), [
            "75:9 openAll(): `group.wait()` blocks its thread until every callback has run (forever on the main queue when they call back there); "
                + "move the code after it into `group.notify(queue: .main) { }` right after the loop",
        ])
        XCTAssertEqual(async.findings.filter { $0.kind == .callSiteConverted }.map(\.function),
                       ["lookUp(_:)", "store(_:)", "open(_:)", "check()", "guarded(_:)", "branch(_:)"])
    }

    func testTheDeclarationsStageAloneLeavesCallSitesAndSaysNothingAboutThem() throws {
        let input = try TestSupport.fixture("call-sites-issue-examples", "input.swift")
        let migration = migrate(input, .promise, .declarations)
        XCTAssertFalse(migration.findings.contains { $0.kind == .callSiteConverted || $0.kind == .callSiteRefused })
        XCTAssertEqual(migration.findings.filter { $0.kind == .added }.count, 4)
    }

    func testTheCallSiteStageAloneNeedsAlternativesThatExist() throws {
        let input = try TestSupport.fixture("call-sites-issue-examples", "input.swift")
        // Nothing has an alternative yet: every call site is left alone, and no alternative is added.
        let before = migrate(input, .promise, .callSites)
        XCTAssertFalse(before.changed)
        XCTAssertEqual(before.findings.map(\.kind), [.callSiteRefused, .callSiteRefused])
        XCTAssertTrue(before.findings.allSatisfy { $0.message.hasPrefix("the callee has no promise alternative yet") })
        // One step at a time: declarations, then call sites, gives what both in one run give.
        let declarations = migrate(input, .promise, .declarations).output
        let stepByStep = migrate(declarations, .promise, .callSites).output
        XCTAssertEqual(stepByStep, try TestSupport.fixture("call-sites-issue-examples", "promise.swift"))
        let asyncDeclarations = migrate(input, .async, .declarations).output
        XCTAssertEqual(migrate(asyncDeclarations, .async, .callSites).output, try TestSupport.fixture("call-sites-issue-examples", "async.swift"))
    }

    func testCalleesInOtherFilesAreKnownThroughTheWholeTreeIndex() throws {
        let services = """
        import Vow
        final class Api: Sendable {
            func ping(completion: @escaping @Sendable (Error?) -> Void) { completion(nil) }
            func ping() -> Promise<Void> { Promise { seal in ping { seal.resolve($0) } } }
        }
        """
        let screen = """
        import Vow
        final class Screen: @unchecked Sendable {
            let api = Api()
            func show(_ text: String) {}
            func refresh() {
                api.ping { error in
                    if let error { self.show("\\(error)") } else { self.show("pong") }
                }
            }
        }
        """
        let index = MigrationIndex()
            .adding(MigrationIndex.summarize(source: services, fileName: "Api.swift"))
            .adding(MigrationIndex.summarize(source: screen, fileName: "Screen.swift"))
        let migration = SourceMigrator.migrate(source: screen, fileName: "Screen.swift",
                                               options: MigrationOptions(target: .promise, stage: .callSites), index: index)
        XCTAssertEqual(migration.findings.map(\.kind), [.callSiteConverted])
        XCTAssertTrue(migration.output.contains("""
                api.ping().done(on: nil) { _ in
                    self.show("pong")
                }.catch(on: nil, policy: .allErrors) { error in
                    self.show("\\(error)")
                }
        """), migration.output)
        // Without the index the callee is unknown, and the call is not a candidate at all.
        XCTAssertFalse(SourceMigrator.migrate(source: screen, fileName: "Screen.swift",
                                              options: MigrationOptions(target: .promise, stage: .callSites)).changed)
    }

    func testAnExistingPromiseChainBecomesATaskOnTheMainActorAndAHandlerOnAnotherQueueStillRunsThere() throws {
        let input = try TestSupport.fixture("call-sites-promise-chains", "input.swift")
        let migration = migrate(input, .async, .callSites)
        XCTAssertEqual(migration.findings.map(\.kind), [.callSiteConverted, .callSiteConverted])
        XCTAssertEqual(refusals(migration), [])
        XCTAssertTrue(migration.output.contains("""
                        await DispatchQueue.global().async(.promise) {
                            self.show(token)
                        }.value
        """), migration.output)
        // The promise form leaves promise chains as they are.
        XCTAssertFalse(migrate(input, .promise, .callSites).changed)
    }
    func testChainConstructsConvertAndTheRestIsRefusedEachWithItsReason() throws {
        let input = try TestSupport.fixture("call-sites-chain-constructs", "input.swift")
        let migration = migrate(input, .async, .callSites)
        XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteConverted }.map(\.function), [
            "recovering(_:)", "recoveringToAValue(_:)", "recoveringByThrowing(_:)", "spinning(_:)",
            "ensuringInTheMiddle(_:)", "ensuringBeforeDone(_:)", "counting(_:)", "saving(_:)", "both(_:)", "onTheSettlingThread(_:)",
            "ensuringThen(_:)", "casting(_:)", "recoveringWithAType(_:)", "guarding(_:)", "shorthand(_:)", "onlyOnTheSettlingThread(_:)", "failingTyped()", "cauterizing(_:)", "unownedly(_:)", "nestingAChain(_:)", "nestingBeforeFinally(_:)",
            "nestingInTheCatch(_:)", "nestingInTheCatchReadingTheOuterError(_:)", "withoutACatch(_:)",
        ])
        XCTAssertEqual(refusals(migration), [
            "172:29 tappingTheResult(_:): a `tap` handler that reads the `Result`",
            "182:42 recoveringAmbiguously(_:): a `recover` handler ending in a call: syntax cannot tell a promise (cancellations passed on) from the `Void` form (cancellations seen); write its return type",
            "192:36 compactMappingUntyped(_:): a `compactMap` whose result type syntax does not show (the `PMKError.compactMap` it throws names it): write `-> T?` on its handler",
            "244:17 declaringTwice(_:): two chain handlers declare `name`, which straight-line code would declare twice",
            "254:16 readingAnOuterName(_:): a chain handler reads `token`, which an earlier handler's value would hide in straight-line code",
            "262:30 withFlags(_:): a chain link with `flags: .barrier`: only `on:` the main queue and `policy:` are converted",
            "296:66 shorthandTuple(_:): a chain handler using `$1`, or `$0` both in it and in a closure inside it",
            "315:29 mappingOnTheMainQueue(_:): a chain with handlers `on: nil` and a `map` on the main queue: one task cannot run both where they ran",
            "327:9 failingUntyped(): its first promise, `Promise(error: LoadError.offline)`, takes its type from the links after it; "
                + "write its type (`Promise<Value>(error: ...)`) to convert it",
            "368:17 mixingCaptures(_:): a chain that captures `self` weakly in some handlers and unowned in others",
        ])
        // The fixture's output is that of `--stage all`, whose declarations stage gives the chains'
        // promise-returning functions async alternatives, which the chains then await directly.
        XCTAssertEqual(migrate(input, .async, .all).output, try TestSupport.fixture("call-sites-chain-constructs", "async.swift"))
        // What each construct became, where a regression would change the meaning.
        XCTAssertTrue(migration.output.contains("""
                            } catch {
                                // `recover` passed cancellations on (its default policy).
                                if error.isCancelled { throw error }
                                self.show("using the cache after \\(error)")
                                return try await api.cachedProfile().value
        """))
        XCTAssertTrue(migration.output.contains("guard let value = Int(text) else { throw PMKError.compactMap(text, Int.self) }"))
        XCTAssertTrue(migration.output.contains("let (token, profile) = try await tokenPromise.value"))
        XCTAssertTrue(migration.output.contains("guard let text = value as? String else { throw PMKError.compactMap(value, String.self) }"))
        // A recover with a return type is the promise form even for `.value(x)`: cancellations pass it.
        XCTAssertTrue(migration.output.contains("""
                                if error.isCancelled { throw error }
                                return "guest"
        """))
        XCTAssertFalse(migrate(input, .promise, .callSites).changed)
    }
    func testAFunctionReturningAPromiseBecomesAsyncUnderReplaceAndItsCallsChangeWithIt() throws {
        let name = "replace-call-sites-promise-functions"
        let input = try TestSupport.fixture(name, "input.swift")
        let options = MigrationOptions(target: .async, replace: true, stage: .callSites)
        let migration = SourceMigrator.migrate(source: input, fileName: "input.swift", options: options)
        XCTAssertEqual(migration.output, try TestSupport.fixture(name, "async.swift"))
        XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteConverted }.map(\.function),
                       ["login(_:)", "profile(_:)", "profileName(_:)", "touch(_:)", "token(_:)", "printToken()", "weakly(_:)", "title(_:)",
                        "tick(after:)",
                        // A resolver settled twice or handed on: the promise made as before, awaited.
                        "twice()", "handedOn()",
                        "count(from:)", "label(after:)",
                        // `ping(_:)` returns the alias `Completion`; `initial(of:)` a chain ending `compactMap`, `get`.
                        "ping(_:)", "initial(of:)", "greet(_:)", "greet(_:)",
                        // A last `then` answering in several places; a guarantee's last `recover`; a guarantee's
                        // chain ending in `done`; a `then` answering with a chain; `$0` named.
                        "open(_:)", "name(_:)", "fallback()", "show(_:)", "initials(_:)", "shout(_:)", "handle(_:)", "traced(_:)", "opened(_:)",
                        // Each function, then its chains used as values on calls made async (and
                        // `pick`'s on a constant given its promise below), then `cauterize()`s.
                        "tokens(_:)", "tokens(_:)", "mirrored(_:)", "mirrored(_:)", "pick(_:loud:)", "pick(_:loud:)",
                        "remember(_:)", "remember(_:)", "remember(_:)", "forget(_:)",
                        // A last `map` returning or throwing on every branch.
                        "length(_:)"])
        // Kept promise functions (a chain that goes into the bridge, `ReturnedChainTests`),
        // located in the file as it was, before its calls changed.
        XCTAssertEqual(refusals(migration), [
            "55:29 weakly(_:): a `[weak self]` handler, which straight-line code in a method cannot keep",
        ])
        XCTAssertTrue(migration.output.contains("""
                @MainActor func handedOn() async throws -> Int {
                    return try await Promise { seal in
                        settle(seal: seal)
                    }.value
                }
            """), migration.output)
        let token = try XCTUnwrap(migration.findings.first { $0.function == "token(_:)" && $0.kind == .callSiteConverted })
        XCTAssertEqual(token.message, "converted a function returning a promise to `async throws -> String`, its chain straight-line code "
                       + "on the main actor, where its handlers ran; its 1 call in the tree changed with it (0 awaited directly, "
                       + "1 using the promise wrapped in `Promise.immediate { ... }`, which starts it at once as before)")
        // Without --replace, or in promise form, or in the declarations stage, such functions stay.
        for options in [MigrationOptions(target: .async, stage: .all), MigrationOptions(target: .promise, replace: true, stage: .all),
                        MigrationOptions(target: .async, replace: true)] {
            let output = SourceMigrator.migrate(source: input, fileName: "input.swift", options: options).output
            for function in ["profileName(_ user: String) -> Promise<String>", "touch(_ user: String) -> Promise<Void>",
                             "title(_ user: String) -> Promise<String>"] {
                XCTAssertTrue(output.contains("func " + function + " {"), "\(options): \(function)")
            }
        }
        // The promise form and the declarations stage leave chains alone too.
        for options in [MigrationOptions(target: .promise, replace: true, stage: .all), MigrationOptions(target: .async, replace: true)] {
            XCTAssertFalse(SourceMigrator.migrate(source: input, fileName: "input.swift", options: options).changed)
        }
    }
    func testAChainOnAMethodOfSelfIsNotAChainOnThePromiseSelfIs() throws {
        // `self.load(1)` makes a promise; only `self.map { }` in an extension of a promise type
        // starts on `self`, which other chains may share.
        let input = """
        import Dispatch
        import Vow
        final class Screen: @unchecked Sendable {
            var text = ""
            func load(_ id: Int) -> Promise<Int> { .value(id) }
            func refresh() {
                DispatchQueue.main.async {
                    self.load(1).done { value in
                        self.text = "\\(value)"
                    }.cauterize()
                }
            }
        }
        extension Promise {
            func logged() {
                self.map { $0 }.done { _ in }.cauterize()
            }
        }
        """
        let migration = migrate(input, .async, .callSites)
        XCTAssertTrue(migration.output.contains("""
                    let valuePromise = self.load(1)
                    Task { @MainActor in
                        do {
                            let value = try await valuePromise.value
        """), migration.output)
        XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteRefused }.map { "\($0.function): \($0.message)" }, [
            "logged(): its first promise is `self`, the promise this method is called on, which other chains may wait on too: "
                + "their links take turns on the main queue, which one task's straight-line code would not",
        ])
    }
    func testTwoChainsInOneFunctionDeclareDistinctPromisesAndCommentsBetweenLinksStay() throws {
        let input = """
        import Vow
        final class Screen: @unchecked Sendable {
            func show(_ text: String) {}
            func token() -> Promise<String> { .value("t") }
            func open() {
                let tokenPromise = 1
                token().done { token in
                    self.show(token)
                }.catch { error in
                    self.show("\\(error)")
                }
                // Last: an `on: nil` chain followed by code would be left alone (its handlers ran first).
                token().done(on: nil) { token in
                    self.show(token)
                }
                // Every error, cancellations too.
                .catch(on: nil, policy: .allErrors) { error in
                    self.show("\\(error) \\(tokenPromise)")
                }
            }
        }
        """
        let migration = migrate(input, .async, .callSites)
        XCTAssertEqual(migration.findings.map(\.kind), [.callSiteConverted, .callSiteConverted])
        XCTAssertTrue(migration.output.contains("let tokenPromise2 = token()\n        Task { @MainActor in\n"), migration.output)
        XCTAssertTrue(migration.output.contains("let tokenPromise3 = token()\n        Task {\n"), migration.output)
        XCTAssertTrue(migration.output.contains("} catch {\n                // Every error, cancellations too.\n                self.show("), migration.output)
    }

    func testAHandlerAnnotatingAGenericCalleesValueTypeKeepsItInBothForms() throws {
        let input = """
        enum Missing: Error { case document }

        final class Store: Sendable {
            func fetch<T: Sendable>(path: String, completion: @escaping @Sendable (Result<T, Error>) -> Void) {
                completion(.failure(Missing.document))
            }
        }

        final class Screen: @unchecked Sendable {
            let store = Store()
            func show(_ text: String) {}
            func open() {
                store.fetch(path: "/a") { (result: Result<[String: String], Error>) in
                    switch result {
                    case .success(let fields):
                        self.show("\\(fields.count)")
                    case .failure(let error):
                        self.show("\\(error)")
                    }
                }
            }
        }

        """
        // The annotation is all that tells `fetch` its `T`: the converted call keeps it.
        let expected: [MigrationTarget: String] = [
            .promise: "(store.fetch(path: \"/a\") as Promise<[String: String]>).done(on: nil) { fields in",
            .async: "let fields: [String: String] = try await store.fetch(path: \"/a\")",
        ]
        let directory = try TestSupport.temporaryDirectory(self)
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target, .all)
            XCTAssertEqual(refusals(migration), [], "\(target)")
            XCTAssertTrue(migration.output.contains(expected[target]!), "\(target):\n\(migration.output)")
            let file = directory.appendingPathComponent("\(target).swift")
            try migration.output.write(to: file, atomically: true, encoding: .utf8)
            if let diagnostics = try TestSupport.typecheckTogether([file]) {
                XCTFail("\(target) does not typecheck:\n\(diagnostics)\n\(migration.output)")
            }
        }
    }

    /// `client.request(.trail, as: Trail.self) { result in ... }` for `request<Value>(_:as type:
    /// Value.Type, completion: (Result<Value, APIError>) -> Void)`: the metatype argument says
    /// what `Value` is, so the constant holding what the callback received is spelled with it
    /// (`let result: Result<Trail, APIError>`) rather than refused for naming `Value`.
    func testAMetatypeArgumentSpellsTheCalleesGenericParameterForTheCallbacksConstants() throws {
        let input = """
        import Dispatch

        enum APIError: Error { case offline }
        struct Trail: Decodable, Sendable { let name: String }

        final class Client: Sendable {
            func request<Value: Decodable & Sendable>(_ path: String, as type: Value.Type,
                                                      completion: @escaping @Sendable (Result<Value, APIError>) -> Void) {
                DispatchQueue.main.async { completion(.failure(.offline)) }
            }
        }

        final class Screen: @unchecked Sendable {
            let client = Client()
            func show(_ text: String) {}
            func open() {
                client.request("/trails/1", as: Trail.self) { result in
                    self.show("answered")
                    switch result {
                    case .success(let trail): self.show(trail.name)
                    case .failure(let error): self.show("\\(error)")
                    }
                }
            }
            func openAll() {
                client.request("/trails", as: [Trail].self) { result in
                    self.show("answered")
                    if case .success(let trails) = result { self.show("\\(trails.count)") }
                }
            }
        }

        """
        let migration = migrate(input, .async, .all)
        XCTAssertEqual(refusals(migration), [])
        for line in ["let result: Result<Trail, APIError>\n", "let result: Result<[Trail], APIError>\n"] {
            XCTAssertTrue(migration.output.contains(line), line + migration.output)
        }
        let file = try TestSupport.temporaryDirectory(self).appendingPathComponent("async.swift")
        try migration.output.write(to: file, atomically: true, encoding: .utf8)
        if let diagnostics = try TestSupport.typecheckTogether([file]) {
            XCTFail("does not typecheck:\n\(diagnostics)\n\(migration.output)")
        }
    }

    func testTheAsyncFormLeavesACallbackThatHandsItsHandlerToAFunctionWithAnAsyncAlternative() throws {
        let input = """
        final class Cache: @unchecked Sendable {
            func load(completion: @escaping @Sendable (Result<String, Error>) -> Void) { completion(.success("x")) }
            func save(_ value: String, retries: Int = 1, completion: @escaping @Sendable (Error?) -> Void) { completion(nil) }
            func report(_ error: Error?) {}

            func pull(completion: @escaping @Sendable (Error?) -> Void) {
                load { result in
                    switch result {
                    case .success(let value):
                        self.save(value, completion: completion)
                    case .failure(let error):
                        completion(error)
                    }
                }
            }

            func push() {
                load { result in
                    switch result {
                    case .success(let value):
                        self.save(value, completion: self.report)
                    case .failure(let error):
                        self.report(error)
                    }
                }
            }
        }

        """
        // In async code the compiler flags a call of a function marked `renamed:` to its async
        // alternative (defaulted `retries` left out or not). And a callback answering the
        // function's own handler off the main queue stays: in a `Task` its callers' code would
        // run on the task's thread.
        let async = migrate(input, .async, .all)
        XCTAssertEqual(refusals(async), [
            "10:46 pull(completion:): the callback hands its answer on to `completion`, this function's own handler, on the queue the callee "
                + "answers on: in a `Task` its callers' code would run on the task's thread instead (and only after this function returns); "
                + "converted when every call of the function in the tree is converted too, which a run over one file of 1 MB or more "
                + "does not decide; hand it on inside `DispatchQueue.main.async { }`, or `--to promise` keeps both",
            "21:17 push(): the callback's code calls `save` with a completion handler, which the compiler flags in async code (it has an async alternative)",
        ])
        // A promise chain's handlers are not async code.
        let promise = migrate(input, .promise, .all)
        XCTAssertEqual(promise.findings.filter { $0.kind == .callSiteConverted }.map(\.function), ["pull(completion:)", "push()"])
        let file = try TestSupport.temporaryDirectory(self).appendingPathComponent("promise.swift")
        try promise.output.write(to: file, atomically: true, encoding: .utf8)
        if let diagnostics = try TestSupport.typecheckTogether([file]) {
            XCTFail("promise form does not typecheck:\n\(diagnostics)\n\(promise.output)")
        }
    }
}

extension CallSiteTests {
    /// A `Result<T, NetworkError>` callback whose failure branch hands `error` on as a
    /// `NetworkError` cannot become a `catch`, which gets `any Error`; one that only prints it
    /// can. RevenueCat's `OfferingsManager` names its own nested `Error`, which counts as such a type.
    func testAFailureBranchReadingATypedErrorAsItsTypeIsMatchedAsThatTypeInPromiseFormAndLeftAloneWhereTheAsyncAlternativeThrowsAnyError() throws {
        let input = """
            import Foundation

            enum NetworkError: Error { case offline }

            final class Loader: @unchecked Sendable {
                enum Error: Swift.Error { case stale }

                func show(_ error: NetworkError) {}
                func show(_ value: Int) {}
                func log(_ error: Error) {}

                func load(completion: @escaping @Sendable (Result<Int, NetworkError>) -> Void) {
                    completion(.success(1))
                }

                func cached(completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
                    completion(.success(1))
                }

                func refresh() {
                    load { result in
                        switch result {
                        case .success(let value):
                            self.show(value)
                        case .failure(let error):
                            self.show(error)
                        }
                    }
                }

                func reload() {
                    cached { result in
                        switch result {
                        case .success(let value):
                            self.show(value)
                        case .failure(let error):
                            self.log(error)
                        }
                    }
                }

                func report() {
                    load { result in
                        switch result {
                        case .success(let value):
                            self.show(value)
                        case .failure(let error):
                            print("failed: \\(error.localizedDescription)", error)
                        }
                    }
                }
            }

            """
        // The async alternative of `load` throws `NetworkError` (`throws(NetworkError)`), so the
        // async form keeps the callback's `Result<Int, NetworkError>`; `cached`'s throws `any Error`.
        // The promise form's `catch` matches the error as the callee's type, all the alternative rejects with.
        let expected: [MigrationTarget: (refused: [String], converted: [String])] = [
            .promise: ([], ["refresh()", "reload()", "report()"]),
            .async: ([
                "32:9 reload(): the callback's `Result` fails with `Loader.Error`, but the async alternative throws `any Error`; "
                    + "convert this call by hand (`error as? Loader.Error`)",
            ], ["refresh()", "report()"]),
        ]
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target, .all)
            XCTAssertEqual(refusals(migration), expected[target]!.refused, "\(target)")
            XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteConverted }.map(\.function), expected[target]!.converted, "\(target)")
            let file = try TestSupport.temporaryDirectory(self).appendingPathComponent("\(target).swift")
            try migration.output.write(to: file, atomically: true, encoding: .utf8)
            XCTAssertNil(try TestSupport.typecheckTogether([file]), "\(target)")
        }
        XCTAssertTrue(migrate(input, .async, .all).output.contains("do throws(NetworkError) {"))
        let promise = migrate(input, .promise, .all).output
        XCTAssertTrue(promise.contains("case let error as NetworkError:") && promise.contains("case let error as Loader.Error:"), promise)
    }
}

extension CallSiteTests {
    /// wikipedia-ios: `WMFAuthenticationManager` nests an `enum Error`, and `Fetcher`'s
    /// `Result<T, Error>` handlers mean Swift's: another type's nested `Error` is not theirs.
    /// A subclass of a type nesting one does mean that one, as Swift finds it.
    func testANestedErrorOfAnotherTypeIsNotTheErrorOfAResultHandler() throws {
        let input = """
            import Foundation

            final class AuthManager {
                enum Error: LocalizedError { case noToken }
            }

            class Base: @unchecked Sendable {
                enum Error: Swift.Error { case stale }
            }

            final class Fetcher: @unchecked Sendable {
                func get(completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
                    DispatchQueue.global().async { completion(.success(1)) }
                }
                func show(_ value: Int) {}
                func log(_ error: Error) {}

                func load() {
                    get { result in
                        switch result {
                        case .success(let value): self.show(value)
                        case .failure(let error): self.log(error)
                        }
                    }
                }
            }

            final class Sub: Base, @unchecked Sendable {
                func cached(completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
                    DispatchQueue.global().async { completion(.failure(.stale)) }
                }
                func log(_ error: Error) {}

                func reload() {
                    cached { result in
                        switch result {
                        case .success: break
                        case .failure(let error): self.log(error)
                        }
                    }
                }
            }

            """
        let migration = migrate(input, .async, .all)
        XCTAssertEqual(refusals(migration), [
            "35:9 reload(): the callback's `Result` fails with `Base.Error`, but the async alternative throws `any Error`; "
                + "convert this call by hand (`error as? Base.Error`)",
        ])
        XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteConverted }.map(\.function), ["load()"])
        let file = try TestSupport.temporaryDirectory(self).appendingPathComponent("async.swift")
        try migration.output.write(to: file, atomically: true, encoding: .utf8)
        XCTAssertNil(try TestSupport.typecheckTogether([file]))
    }

    /// The same for `(Error?)` and `(T?, Error?)` callbacks whose error parameter has its own type.
    func testAnErrorParameterOfItsOwnTypeReadAsThatTypeConvertsInBothForms() throws {
        let input = """
            import Foundation

            enum NetworkError: Error { case offline }

            final class Loader: @unchecked Sendable {
                func show(_ error: NetworkError) {}
                func show(_ value: Int) {}

                func load(completion: @escaping @Sendable (Int?, NetworkError?) -> Void) {
                    completion(1, nil)
                }

                func ping(completion: @escaping @Sendable (NetworkError?) -> Void) {
                    completion(nil)
                }

                func refresh() {
                    load { value, error in
                        if let error = error {
                            self.show(error)
                            return
                        }
                        self.show(value!)
                    }
                }

                func check() {
                    ping { error in
                        if let error {
                            print("offline: \\(error)")
                        } else {
                            self.show(0)
                        }
                    }
                }
            }

            """
        // The async form's constant `error: NetworkError?` holds what the alternative threw, as the
        // callee's type; the promise form's `catch` matches the error as that type.
        let expected: [MigrationTarget: (refused: [String], converted: [String])] = [
            .promise: ([], ["refresh()", "check()"]),
            .async: ([], ["refresh()", "check()"]),
        ]
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target, .all)
            XCTAssertEqual(refusals(migration), expected[target]!.refused, "\(target)")
            XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteConverted }.map(\.function), expected[target]!.converted, "\(target)")
            let file = try TestSupport.temporaryDirectory(self).appendingPathComponent("\(target).swift")
            try migration.output.write(to: file, atomically: true, encoding: .utf8)
            XCTAssertNil(try TestSupport.typecheckTogether([file]), "\(target)")
        }
        XCTAssertTrue(migrate(input, .async, .all).output.contains("? nil : caught as? NetworkError"))
        XCTAssertTrue(migrate(input, .promise, .all).output.contains("case let error as NetworkError:"))
    }
}
