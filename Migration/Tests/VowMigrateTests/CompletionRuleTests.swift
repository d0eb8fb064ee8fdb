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
