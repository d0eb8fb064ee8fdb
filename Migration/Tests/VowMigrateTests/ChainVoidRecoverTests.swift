import Foundation
import VowMigrate
import XCTest

/// Chain shapes found on a PromiseKit-style app the tool had not seen: the `recover` of a chain of
/// `Void` whose handler answers nothing, a `compactMap` whose value is a call with a trailing
/// closure, a nested chain on a function whose name a completion-handler function shares, and a
/// handler keeping a promise that the run gives an async alternative.
final class ChainVoidRecoverTests: XCTestCase {
    private static let screen = #"""
        import Dispatch
        import Vow

        enum AuthError: Error {
            case offline
        }

        struct Scene: Sendable {
            let name: String
        }

        final class Auth: @unchecked Sendable {
            var plan: [String: Error] = [:]
            var status = ""

            private func answer<T: Sendable>(_ step: String, _ value: T) -> Promise<T> {
                let failure = plan[step]
                return Promise { seal in
                    DispatchQueue.global().async {
                        if let failure { seal.reject(failure) } else { seal.fulfill(value) }
                    }
                }
            }

            func remoteLogout() -> Promise<Void> { answer("remote", ()) }
            func clear() -> Promise<Void> { answer("clear", ()) }
            func scenes() -> Promise<[Scene]> { answer("scenes", [Scene(name: "night"), Scene(name: "day")]) }

            func logout() {
                remoteLogout().recover { error -> Void in
                    print("remote logout failed: \(error)")
                }.then {
                    self.clear()
                }.done {
                    print("logged out")
                    finished()
                }.catch { error in
                    print("logout error: \(error)")
                    finished()
                }
            }

            func signOut() {
                remoteLogout().recover { _ in
                    self.status = "signed out offline"
                }.done {
                    print("signed out: \(self.status)")
                    finished()
                }
            }

            func scene(named name: String) -> Promise<Scene> {
                scenes().compactMap { scenes in
                    scenes.first { $0.name == name }
                }
            }

            func show(_ name: String) {
                scene(named: name).done { scene in
                    print("scene \(scene.name)")
                    finished()
                }.catch { error in
                    print("no scene: \(error)")
                    finished()
                }
            }
        }

        nonisolated(unsafe) var finished: () -> Void = {}

        """#

    private static let driver = #"""
        import Dispatch
        import Foundation
        import Vow

        nonisolated(unsafe) var steps: [(String, [String: Error], (Auth) -> Void)] = [
            ("logout", [:], { $0.logout() }),
            ("logout offline", ["remote": AuthError.offline], { $0.logout() }),
            ("logout cancelled", ["remote": PMKError.cancelled], { $0.logout() }),
            ("logout, clear fails", ["clear": AuthError.offline], { $0.logout() }),
            ("sign out", [:], { $0.signOut() }),
            ("sign out offline", ["remote": AuthError.offline], { $0.signOut() }),
            ("sign out cancelled", ["remote": PMKError.cancelled], { $0.signOut() }),
            ("scene", [:], { $0.show("day") }),
            ("no such scene", [:], { $0.show("dusk") }),
        ]
        nonisolated(unsafe) var auth: Auth?
        func runNext() {
            guard !steps.isEmpty else { exit(0) }
            let (title, plan, body) = steps.removeFirst()
            print("==", title)
            let next = Auth()
            next.plan = plan
            auth = next
            finished = { DispatchQueue.main.async { runNext() } }
            body(next)
        }
        DispatchQueue.main.async { runNext() }
        dispatchMain()

        """#

    func testVoidRecoversAndATrailingClosureCompactMapConvertAndThePrintsStayTheSame() throws {
        let program = try ProgramBuilding.ScreenProgram(screen: Self.screen, driver: Self.driver, in: try TestSupport.temporaryDirectory(self),
                                                        arguments: ["--to", "async", "--stage", "all"])
        let expected = try program.runOriginal()
        XCTAssertEqual(expected, """
            == logout
            logged out
            == logout offline
            remote logout failed: offline
            logged out
            == logout cancelled
            remote logout failed: The asynchronous sequence was cancelled
            logged out
            == logout, clear fails
            logout error: offline
            == sign out
            signed out: 
            == sign out offline
            signed out: signed out offline
            == sign out cancelled
            signed out: signed out offline
            == scene
            scene day
            == no such scene
            no scene: Could not `compactMap<Scene>`: [main.Scene(name: "night"), main.Scene(name: "day")]

            """)
        let (result, code) = try program.migrate()
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardError.contains("call site left alone"), result.standardError)
        // The guarantee form: no cancellation passed on, nothing awaited of what it answers.
        XCTAssertFalse(code.contains("isCancelled { throw"), code)
        XCTAssertTrue(code.contains("guard let value = (scenes.first { $0.name == name }) else"), code)
        XCTAssertEqual(try program.runMigrated(), expected)
        XCTAssertEqual(try program.checkAgain().status, 0)
    }

    /// `vm.load()` where a completion-handler function `load(completion:)` of another type gives a
    /// guarantee alternative and this type's `load()` returns a promise: awaited with `try`. A
    /// handler keeping the promise of a function gaining an async alternative
    /// (`let confirmation = awaitConfirmation()`) is left alone: in async code the call would
    /// reach the alternative.
    func testANamesakeGuaranteeDoesNotDropTryAndAKeptPromiseOfAFunctionGainingAnAlternativeIsLeftAlone() throws {
        let input = """
            import Vow

            final class Dashboard: @unchecked Sendable {
                func load(completion: @escaping @Sendable () -> Void) {
                    completion()
                }
            }

            final class Room: @unchecked Sendable {
                var rows = 0
                func load() -> Promise<Void> { .value(()) }
            }

            final class Pairing: @unchecked Sendable {
                func rooms() -> Promise<[Int]> { .value([1]) }
                func awaitConfirmation() -> Promise<String> { .value("ok") }
                func register(_ code: String) -> Promise<Int> { .value(code.count) }

                func open(completion: @escaping @Sendable (String) -> Void) {
                    rooms().done { rooms in
                        let room = Room()
                        room.load().done {
                            completion("room \\(room.rows)")
                        }.catch { error in
                            completion("room failed")
                        }
                    }.catch { error in
                        completion("rooms failed")
                    }
                }

                func pair() {
                    rooms().then { rooms -> Promise<Int> in
                        let confirmation = self.awaitConfirmation()
                        print("confirm \\(rooms.count)")
                        return confirmation.then { code in self.register(code) }
                    }.done { count in
                        print(count)
                    }.catch { error in
                        print(error)
                    }
                }
            }

            """
        let result = SourceMigrator.migrate(source: input, fileName: "Pairing.swift", options: MigrationOptions(target: .async, stage: .all))
        XCTAssertTrue(result.output.contains("_ = try await room.load().value"), result.output)
        XCTAssertTrue(result.findings.contains { $0.kind == .callSiteRefused && $0.line == 34
                && $0.message.contains("keeps the promise of `awaitConfirmation` without naming its type") }, "\(result.findings)")
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Pairing.swift", self))
    }

    /// `ensureThen { write().recover { _ in () } }`: the handler's chain ends in the guarantee form
    /// of the `Void` recover, so its straight-line code answers a `Guarantee`, as `ensureThen`
    /// requires (a `Promise` bridge did not compile).
    func testAVoidRecoverEndingAChainAGuaranteeIsRequiredOfAnswersAGuarantee() throws {
        let input = """
            import Vow

            final class Auth: @unchecked Sendable {
                var text = ""

                func logout() -> Promise<Void> { .value(()) }
                func write(_ key: String) -> Promise<Void> { .value(()) }

                func signOut() -> Promise<Void> {
                    return logout().ensureThen {
                        self.write("cache").recover { _ in () }
                    }.done {
                        self.text = "Signed out"
                    }
                }
            }

            """
        let result = SourceMigrator.migrate(source: input, fileName: "Auth.swift", options: MigrationOptions(target: .async, replace: true, stage: .all))
        XCTAssertTrue(result.output.contains("return Guarantee { @MainActor @Sendable in"), result.output)
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Auth.swift", self))
    }
}
