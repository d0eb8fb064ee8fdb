import VowMigrate
import XCTest

/// What counts as a completion handler: a closure called once at the end, not a callback handed
/// a way to answer, not a framework's delegate method, not a parameter whose name merely contains
/// a completion word.
final class CompletionRuleTests: XCTestCase {
    private func findings(_ source: String, _ target: MigrationTarget = .async) -> [Finding] {
        SourceMigrator.migrate(source: source, fileName: "Rule.swift", options: .init(target: target)).findings
    }

    func testAClosureWhoseParametersIncludeAClosureIsNotACompletionHandler() {
        let source = """
            final class Client {
                func start(authentication: @escaping (String, @escaping (Bool) -> Void) -> Void) {}
            }
            """
        let found = findings(source)
        XCTAssertEqual(found.map(\.kind), [.rejected])
        XCTAssertTrue(found[0].message.contains("receives a closure of its own"), found[0].message)
    }

    func testAWordInsideAnotherWordDoesNotNameACompletion() {
        // `authentication` contains `then`, `abandoned` contains `done`: neither is a completion.
        let source = """
            final class Client {
                func start(authentication: ((String) -> Void)? = nil, abandoned: ((Int) -> Void)? = nil) {}
                func load(thenDo: @escaping (Int) -> Void) { thenDo(1) }
            }
            """
        let found = findings(source)
        XCTAssertEqual(found.map(\.kind), [.rejected, .added])
        XCTAssertEqual(found.map(\.function), ["start(authentication:abandoned:)", "load(thenDo:)"])
    }

    func testAMethodOfAFrameworkCallbackProtocolNothingCallsIsNotTheAppsAPI() {
        // `Authenticator` is declared outside the tree (an HTTP library's), and no code of the
        // tree calls `refresh`: the library does.
        let source = """
            final class TokenAuthenticator: Authenticator {
                func refresh(_ credential: String, for session: Int, completion: @escaping (Result<String, Error>) -> Void) {
                    completion(.success(credential))
                }
            }
            """
        let found = findings(source)
        XCTAssertEqual(found.map(\.kind), [.rejected])
        XCTAssertTrue(found[0].message.contains("requirement of `Authenticator`, declared outside the tree"), found[0].message)
    }

    /// The system calls a SiriKit intent handler's and a widget provider's methods; a call of
    /// another `handle` with other labels in the tree does not make them the app's API.
    func testSystemCalledHandlersOfIntentsAndWidgetsAreNotTheAppsAPI() {
        let source = """
            final class PerformActionIntentHandler: NSObject, PerformActionIntentHandling {
                func handle(intent: PerformActionIntent, completion: @escaping (PerformActionIntentResponse) -> Void) {
                    completion(PerformActionIntentResponse())
                }
            }

            struct Provider: TimelineProvider {
                func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                    completion(Timeline(entries: [], policy: .never))
                }
            }

            final class Responses {
                func handle(request: Int, result: @escaping (Int) -> Void) { result(request) }
                func run() { handle(request: 1) { _ in } }
            }
            """
        let found = findings(source)
        XCTAssertEqual(found.map(\.kind), [.rejected, .rejected, .added])
        XCTAssertTrue(found[0].message.contains("requirement of `PerformActionIntentHandling`, declared outside the tree"), found[0].message)
        XCTAssertTrue(found[1].message.contains("requirement of `TimelineProvider`, declared outside the tree"), found[1].message)
    }

    func testTheSameMethodCalledByTheAppIsACandidate() {
        let source = """
            final class TokenAuthenticator: Authenticator {
                func refresh(_ credential: String, for session: Int, completion: @escaping (Result<String, Error>) -> Void) {
                    completion(.success(credential))
                }
                func renew() { refresh("old", for: 1) { _ in } }
            }
            """
        XCTAssertEqual(findings(source).map(\.kind), [.added])
    }

    func testAPublicMethodOfATypeConformingToAFrameworkDelegateIsTheSDKsAPI() {
        // An SDK's client is a `URLSessionDelegate` too; its public API is called from outside.
        let source = """
            public final class Client: NSObject, URLSessionDelegate {
                public func fetch(_ path: String, completion: @escaping (Result<String, Error>) -> Void) {
                    completion(.success(path))
                }
            }
            """
        XCTAssertEqual(findings(source).map(\.kind), [.added])
    }

    func testADelegateNamedMethodOfAProtocolDeclaredInTheTreeIsACandidate() {
        let source = """
            protocol PlayerDelegate: AnyObject {}
            final class Player {}
            final class Screen: PlayerDelegate {
                func player(_ player: Player, didFinish completion: @escaping (Error?) -> Void) { completion(nil) }
            }
            """
        XCTAssertEqual(findings(source).map(\.kind), [.added])
    }
}
