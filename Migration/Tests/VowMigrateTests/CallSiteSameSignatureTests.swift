import Foundation
import VowMigrate
import XCTest

/// Several functions taking a call's name and labels: a protocol requirement and the conforming
/// type's implementation with the same signature are one callee for the call-site stage (the
/// call converts the same whichever the compiler picks, and both gain the alternative); functions
/// whose handlers differ, or of which only one gains an alternative, leave the call ambiguous
/// unless the receiver's type tells them apart (a call through the protocol may still reach the
/// conforming type's implementation).
final class CallSiteSameSignatureTests: XCTestCase {
    private func migrate(_ source: String, _ target: MigrationTarget, fileName: String = "input.swift",
                         index: MigrationIndex? = nil) -> FileMigration {
        SourceMigrator.migrate(source: source, fileName: fileName, options: MigrationOptions(target: target, stage: .all), index: index)
    }

    private func refusals(_ migration: FileMigration) -> [String] {
        migration.findings.filter { $0.kind == .callSiteRefused }.map { "\($0.line):\($0.column) \($0.function): \($0.message)" }
    }

    private func refusalReasons(_ migration: FileMigration) -> [String] {
        migration.findings.filter { $0.kind == .callSiteRefused }.map { "\($0.function): \($0.message)" }
    }

    /// A transport protocol, its implementation with the very same `send`, and a screen calling
    /// `send` through the protocol type and through the concrete type.
    private static func transport(implementation body: String, besides member: String = "") -> String {
        """
        protocol Transport: Sendable {
            func send(_ path: String, completion: @escaping @Sendable (Result<String, Error>) -> Void)
        }

        final class MemoryTransport: Transport {
            func send(_ path: String, completion: @escaping @Sendable (Result<String, Error>) -> Void) {
        \(body)
            }
        \(member)
        }
        """
    }

    private static let screen = """
        final class Screen: @unchecked Sendable {
            let transport: any Transport = MemoryTransport()
            let memory = MemoryTransport()

            func show(_ text: String) {}

            func throughTheProtocol() {
                transport.send("/a") { result in
                    switch result {
                    case .success(let text):
                        self.show(text)
                    case .failure(let error):
                        self.show("\\(error)")
                    }
                }
            }

            func onTheConcreteType() {
                memory.send("/b") { result in
                    switch result {
                    case .success(let text):
                        self.show(text)
                    case .failure(let error):
                        self.show("\\(error)")
                    }
                }
            }
        }
        """

    private static let sendsOnce = "        completion(.success(\"sent \\(path)\"))"
    private static let sendsTwice = "        completion(.success(\"cached\"))\n        completion(.success(\"sent \\(path)\"))"

    func testARequirementAndItsImplementationWithTheSameSignatureAreOneCalleeThroughEitherType() throws {
        let input = Self.transport(implementation: Self.sendsOnce) + "\n\n" + Self.screen + "\n"
        let expected: [MigrationTarget: [String]] = [
            .promise: [
                """
                        transport.send("/a").done(on: nil) { text in
                            self.show(text)
                        }.catch(on: nil, policy: .allErrors) { error in
                """,
                """
                        memory.send("/b").done(on: nil) { text in
                            self.show(text)
                        }.catch(on: nil, policy: .allErrors) { error in
                """,
            ],
            .async: [
                "                let text = try await transport.send(\"/a\")\n                self.show(text)\n",
                "                let text = try await memory.send(\"/b\")\n                self.show(text)\n",
            ],
        ]
        let directory = try TestSupport.temporaryDirectory(self)
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target)
            // Both the requirement (in a protocol extension) and the implementation gain the alternative.
            XCTAssertEqual(migration.findings.filter { $0.kind == .added }.map(\.line), [2, 6], "\(target)")
            XCTAssertTrue(migration.output.contains("extension Transport {"), "\(target)")
            XCTAssertEqual(refusals(migration), [], "\(target)")
            XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteConverted }.map(\.function),
                           ["throughTheProtocol()", "onTheConcreteType()"], "\(target)")
            for text in expected[target] ?? [] {
                XCTAssertTrue(migration.output.contains(text), "\(target): missing\n\(text)\nin\n\(migration.output)")
            }
            // The converted calls compile against both alternatives: the protocol extension's
            // through `any Transport`, the class's own on `MemoryTransport`.
            let file = directory.appendingPathComponent("\(target).swift")
            try migration.output.write(to: file, atomically: true, encoding: .utf8)
            if let diagnostics = try TestSupport.typecheckTogether([file]) {
                XCTFail("\(target) does not typecheck:\n\(diagnostics)\n\(migration.output)")
            }
        }
    }

    /// `tweets` is a `Tweets`: only its `delete` can be meant, whatever `Files` declares
    /// (`CallSiteReceiverTests` has the calls whose receiver syntax does not type).
    func testTheSameLabelsWithDifferentHandlerShapesAreToldApartByTheReceiversType() {
        let input = """
        final class Files: Sendable {
            func delete(_ path: String, completion: @escaping @Sendable (Bool, Error?) -> Void) { completion(true, nil) }
        }

        final class Tweets: Sendable {
            func delete(_ tweet: Int, completion: @escaping @Sendable (Error?) -> Void) { completion(nil) }
        }

        final class Screen: @unchecked Sendable {
            let tweets = Tweets()

            func show(_ text: String) {}

            func remove() {
                tweets.delete(7) { error in
                    if let error {
                        self.show("\\(error)")
                        return
                    }
                    self.show("deleted")
                }
            }
        }

        """
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target)
            XCTAssertEqual(migration.findings.filter { $0.kind == .added }.count, 2, "\(target)")
            XCTAssertEqual(refusals(migration), [], "\(target)")
            XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteConverted }.map(\.function), ["remove()"], "\(target)")
        }
    }

    func testTheSameShapesWhereOnlyOneGainsAnAlternativeStayAmbiguousThroughTheProtocolInTheSameFileAndFromAnother() {
        // The implementation is skipped, while the requirement gains its alternative in the
        // protocol extension (same name, same labels): it calls its handler twice, or its class
        // has a function of the alternative's name already (which the index must know too).
        let implementations = [
            ("called twice", Self.transport(implementation: Self.sendsTwice)),
            ("a clash", Self.transport(implementation: Self.sendsOnce, besides: "    func send(_ path: String) -> String { path }")),
        ]
        let ambiguous = "several functions named `send` take these labels; the callee is ambiguous"
        // Where the class declares a function of the alternative's name, the requirement gets
        // none either: the class inherits the protocol extension's, which its existing calls
        // could reach instead.
        func inherited(_ file: String) -> String {
            "the callee gets no alternative: `MemoryTransport`, which inherits it, declares `send(_:)` at \(file):9:5: its calls could reach the "
                + "inherited alternative instead"
        }
        // On the concrete type the compiler picks the type's own function over the requirement it
        // implements: its own reason.
        func own(_ file: String, clash: Bool) -> String {
            clash ? "the callee gets no alternative: `send(_:)` already exists at \(file):9:5; an alternative would clash with it"
                : "the callee gets no alternative: its handler can be called more than once"
        }
        for (name, declarations) in implementations {
            let clash = name == "a clash"
            let expected = ["throughTheProtocol(): \(clash ? inherited("input.swift") : ambiguous)",
                            "onTheConcreteType(): \(own("input.swift", clash: clash))"]
            for target in MigrationTarget.allCases {
                let together = migrate(declarations + "\n\n" + Self.screen + "\n", target)
                XCTAssertEqual(together.findings.filter { $0.kind == .added }.map(\.line), clash ? [] : [2], "\(name) \(target)")
                XCTAssertEqual(together.findings.filter { $0.kind == .skipped }.map(\.line), clash ? [2, 6] : [6], "\(name) \(target)")
                XCTAssertEqual(refusalReasons(together), expected, "\(name) \(target)")

                // The declarations in another file of the tree: the index knows the same.
                let index = MigrationIndex()
                    .adding(MigrationIndex.summarize(source: declarations, fileName: "Transport.swift"))
                    .adding(MigrationIndex.summarize(source: Self.screen, fileName: "Screen.swift"))
                let screen = migrate(Self.screen, target, fileName: "Screen.swift", index: index)
                let reason = clash ? inherited("Transport.swift") : ambiguous
                XCTAssertEqual(refusals(screen), ["8:9 throughTheProtocol(): \(reason)", "19:9 onTheConcreteType(): \(own("Transport.swift", clash: clash))"],
                               "\(name) \(target)")
                XCTAssertFalse(screen.changed, "\(name) \(target)")
            }
        }
    }
}
