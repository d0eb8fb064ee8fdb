import Foundation
import XCTest

/// The last callback of a pyramid returning early (`guard`, `return` in an `if` or a loop) or
/// deferring code: in promise form its code is the last handler's whole body, as written, where
/// each `return` leaves what it left in the callback (the rest of its code), and a `defer` runs
/// last, as it did; unless code after a `switch result` joins it there, which would run before
/// the `defer` of a `case`. A failure branch likewise, in the `catch`. Built and run before and
/// after `--stage all`, for every answer.
final class CallSiteLastCallbackExitTests: XCTestCase {
    private static let client = #"""
        import Foundation

        struct FetchError: Error, CustomStringConvertible {
            let id: Int
            var description: String { "FetchError(\(id))" }
        }

        final class Client: @unchecked Sendable {
            private let answers: [Int: String]

            init(answers: [Int: String]) {
                self.answers = answers
            }

            func fetch(_ id: Int, completion: @escaping (Result<String, Error>) -> Void) {
                let answer = answers[id]
                DispatchQueue.global().async {
                    if let answer = answer {
                        completion(.success(answer))
                    } else {
                        completion(.failure(FetchError(id: id)))
                    }
                }
            }
        }
        """#

    private static let screen = #"""
        import Foundation

        final class Screen: @unchecked Sendable {
            let client: Client
            var onShow: (String) -> Void = { _ in }
            var finished: () -> Void = {}

            init(client: Client) {
                self.client = client
            }

            func show(_ id: Int) {
                client.fetch(id) { result in
                    switch result {
                    case .failure(let error):
                        defer { self.finished() }
                        guard let failure = error as? FetchError else {
                            self.onShow("failed oddly")
                            return
                        }
                        if failure.id > 5 {
                            self.onShow("failed far away")
                            return
                        }
                        self.onShow("failed: \(error)")
                    case .success(let text):
                        defer { self.finished() }
                        guard !text.isEmpty else {
                            self.onShow("empty")
                            return
                        }
                        if text.hasPrefix("!") {
                            self.onShow("alert \(text.dropFirst())")
                            return
                        }
                        for word in text.split(separator: " ") where word.count > 3 {
                            self.onShow("long word \(word)")
                            return
                        }
                        self.onShow("short words only: \(text)")
                    }
                }
            }

            func showPair(_ first: Int, _ second: Int) {
                client.fetch(first) { result in
                    switch result {
                    case .failure:
                        self.onShow("first failed")
                        self.finished()
                    case .success(let one):
                        self.client.fetch(second) { result in
                        switch result {
                        case .failure:
                            self.onShow("second failed")
                        case .success(let two):
                            if one == two {
                                self.onShow("same")
                                self.finished()
                                return
                            }
                            self.onShow(one + " & " + two)
                        }
                        self.finished()
                        }
                    }
                }
            }

            /// The `defer` ran at the end of its `case`, before the code after the `switch`: in one
            /// handler with that code it would run after it. Left alone.
            func showCounted(_ id: Int) {
                client.fetch(id) { result in
                    switch result {
                    case .failure:
                        self.onShow("count failed")
                    case .success(let text):
                        defer { self.onShow("counted") }
                        self.onShow("count \(text.count)")
                    }
                    self.finished()
                }
            }
        }
        """#

    private static let driver = #"""
        import Foundation

        let shown = DispatchSemaphore(value: 0)

        func run(_ title: String, _ answers: [Int: String], _ body: (Screen) -> Void) {
            print("==", title)
            let screen = Screen(client: Client(answers: answers))
            screen.onShow = { print($0) }
            screen.finished = { shown.signal() }
            body(screen)
            shown.wait()
        }

        run("failure", [:]) { $0.show(1) }
        run("failure far away", [:]) { $0.show(9) }
        run("empty", [1: ""]) { $0.show(1) }
        run("alert", [1: "!fire"]) { $0.show(1) }
        run("long word", [1: "a big fire"]) { $0.show(1) }
        run("short words", [1: "a bit of"]) { $0.show(1) }
        run("pair", [1: "one", 2: "two"]) { $0.showPair(1, 2) }
        run("pair, same", [1: "one", 2: "one"]) { $0.showPair(1, 2) }
        run("pair, first fails", [2: "two"]) { $0.showPair(1, 2) }
        run("pair, second fails", [1: "one"]) { $0.showPair(1, 2) }
        run("counted", [1: "four"]) { $0.showCounted(1) }
        run("count fails", [:]) { $0.showCounted(1) }
        print("done")

        """#

    func testThePromiseFormKeepsTheLastCallbacksExitsAndDefersInItsLastHandler() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let tree = root.appendingPathComponent("App")
        let sources = try TestSupport.writeTree([("Client.swift", Self.client), ("Screen.swift", Self.screen)], at: tree)
            + TestSupport.writeTree([("main.swift", Self.driver)], at: root)
        let expected = try ProgramBuilding.buildAndRun(sources, binary: root.appendingPathComponent("original"), flags: ["-swift-version", "5"])
        XCTAssertTrue(expected.contains("== alert\nalert fire\n== long word\nlong word fire\n"), expected)
        XCTAssertTrue(expected.contains("== counted\ncount 4\ncounted\n"), expected)
        XCTAssertTrue(expected.contains("== failure far away\nfailed far away\n"), expected)

        let migration = try TestSupport.migrate([tree.path, "--to", "promise", "--stage", "all", "--swift-version", "5", "--in-place"])
        XCTAssertEqual(migration.status, 0, migration.standardError)
        XCTAssertTrue(migration.standardError.contains("2 call sites converted, 1 left alone"), migration.standardError)
        XCTAssertTrue(migration.standardError.contains("call site left alone in `showCounted(_:)`: `defer` inside a callback"),
                      migration.standardError)
        let code = try String(contentsOf: tree.appendingPathComponent("Screen.swift"), encoding: .utf8)
        XCTAssertTrue(code.contains("""
                    client.fetch(id).done(on: nil) { text in
                        defer { self.finished() }
                        guard !text.isEmpty else {
            """), code)
        XCTAssertTrue(code.contains("""
                    }.catch(on: nil, policy: .allErrors) { error in
                        defer { self.finished() }
                        guard let failure = error as? FetchError else {
            """), code)
        XCTAssertEqual(try ProgramBuilding.buildAndRun(sources, binary: root.appendingPathComponent("migrated"), flags: ["-swift-version", "5"]),
                       expected)
        let again = try TestSupport.migrate([tree.path, "--to", "promise", "--stage", "all", "--swift-version", "5", "--check"])
        XCTAssertEqual(again.status, 0, again.standardError)
    }
}
