@testable import VowMigrate
import XCTest

/// Different calls counted by one `DispatchGroup` (`enter`, a call, `enter`, another call, then
/// `notify`), as real apps load two or three things at once: the async form starts them together
/// with `async let`, in the order they were made, and runs each callback's code in turn, where
/// nothing in it can tell the order the callbacks ran in; otherwise, and in the promise form,
/// the calls are left alone with the reason.
final class CallSiteGroupSequenceTests: XCTestCase {
    private static let services = """
    import Foundation

    struct Profile: Sendable { let name: String }
    enum LoadError: Error { case offline }

    final class Api: Sendable {
        let delays: [String: Int]
        init(delays: [String: Int] = [:]) { self.delays = delays }
        private func later(_ name: String, _ work: @escaping () -> Void) {
            print("start \\(name)")
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delays[name] ?? 0)) { work() }
        }
        func profile(_ id: Int, completion: @escaping (Result<Profile, Error>) -> Void) {
            later("profile") { completion(id > 0 ? .success(Profile(name: "user\\(id)")) : .failure(LoadError.offline)) }
        }
        func template(forID id: Int, completion: @escaping (String?, URL?) -> Void) {
            later("template") { completion(id > 1 ? "tpl\\(id)" : nil, URL(string: "https://example.com/\\(id)")) }
        }
        func posts(_ id: Int, completion: @escaping ([String]?, Error?) -> Void) {
            later("posts") {
                if id > 2 { completion(["a", "b"], nil) } else { completion(nil, LoadError.offline) }
            }
        }
    }

    final class Screen: @unchecked Sendable {
        let api: Api
        init(api: Api) { self.api = api }
        func show(_ text: String) { print(text) }

    """

    private static let load = """
        func load(_ id: Int, done: @escaping @Sendable () -> Void) {
            var profile: Profile?
            var template: String?
            var link: URL?
            var posts: [String] = []
            var profileError: String?
            var postsError: String?
            let group = DispatchGroup()
            group.enter()
            api.profile(id) { result in
                switch result {
                case .success(let value):
                    profile = value
                case .failure(let error):
                    profileError = "\\(error)"
                }
                group.leave()
            }
            group.enter()
            api.template(forID: id) { text, url in
                template = text
                link = url
                group.leave()
            }
            group.enter()
            api.posts(id) { items, error in
                defer { group.leave() }
                if let error = error {
                    postsError = "\\(error)"
                } else {
                    for item in items! {
                        posts.append(item.uppercased())
                    }
                }
            }
            group.notify(queue: .main) {
                self.show("profile \\(profile?.name ?? "-"), template \\(template ?? "-"), link \\(link?.lastPathComponent ?? "-"), posts \\(posts), errors \\(profileError ?? "-") \\(postsError ?? "-")")
                done()
            }
        }
    }

    """

    private func migrate(_ source: String, _ target: MigrationTarget) -> FileMigration {
        SourceMigrator.migrate(source: source, fileName: "Screen.swift", options: MigrationOptions(target: target, stage: .all))
    }

    private func callSiteFindings(_ migration: FileMigration) -> [String] {
        migration.findings.filter { $0.kind == .callSiteRefused || $0.kind == .callSiteConverted }.map {
            ($0.kind == .callSiteConverted ? "converted: " : "left alone: ") + $0.message
        }
    }

    func testThreeCallsOfAGroupBecomeAsyncLets() {
        let migration = migrate(Self.services + Self.load, .async)
        XCTAssertEqual(callSiteFindings(migration), [
            "converted: converted 3 calls counted by a `DispatchGroup` to `async let` inside a new `Task { }`, which starts the work when "
            + "the task runs instead of during the call; the callbacks' code runs in the order of the calls, which nothing in it can "
            + "tell from the order they completed in",
        ])
        let expected = """
                var postsError: String?
                Task {
                    await withTaskExecutorPreference(FanOutExecutor()) {
                        async let profileAnswer = self.api.profile(id)
                        async let templateAnswer = self.api.template(forID: id)
                        async let postsAnswer = self.api.posts(id)
                        do {
                            let value = try await profileAnswer
                            profile = value
                        } catch {
                            profileError = "\\(error)"
                        }
                        do {
                            let (text, url) = await templateAnswer
                            template = text
                            link = url
                        }
                        do {
                            let items = try await postsAnswer
                            for item in items {
                                posts.append(item.uppercased())
                            }
                        } catch {
                            postsError = "\\(error)"
                        }
                    }
                    await MainActor.run { [link, posts, postsError, profile, profileError, template] in
                        self.show("profile \\(profile?.name ?? "-"), template \\(template ?? "-"), link \\(link?.lastPathComponent ?? "-"), posts \\(posts), errors \\(profileError ?? "-") \\(postsError ?? "-")")
                        done()
                    }
                }
            }
        """
        XCTAssertTrue(migration.output.contains(expected), migration.output)
        XCTAssertFalse(migration.output.contains("DispatchGroup()"), migration.output)
        XCTAssertTrue(migration.output.contains("fileprivate final class FanOutExecutor: TaskExecutor"), migration.output)
        // The promise form takes each call as a call of its own, as before.
        XCTAssertFalse(migrate(Self.services + Self.load, .promise).output.contains("async let"))
    }

    // The notify block runs on the main queue: the scenarios run one after the other from it.
    private static let main = """
        import Foundation

        let scenarios: [(Int, [String: Int])] = [(3, ["profile": 30, "template": 5, "posts": 15]), (1, [:]), (2, ["posts": 1, "profile": 20])]
        func run(_ index: Int) {
            guard index < scenarios.count else { exit(0) }
            Screen(api: Api(delays: scenarios[index].1)).load(scenarios[index].0) { run(index + 1) }
        }
        run(0)
        dispatchMain()

        """

    func testTheConvertedGroupPrintsWhatTheOriginalPrinted() throws {
        let root = try TestSupport.temporaryDirectory(self)
        // Swift 5 mode, as code still written with callbacks mostly is (its callbacks change the
        // block's variables, which Swift 6 refuses in `@Sendable` closures).
        let original = try ProgramBuilding.buildAndRun([("Screen.swift", Self.services + Self.load), ("main.swift", Self.main)], as: "original",
                                                       in: root, flags: ["-swift-version", "5"])
        XCTAssertEqual(original, """
            start profile
            start template
            start posts
            profile user3, template tpl3, link 3, posts ["A", "B"], errors - -
            start profile
            start template
            start posts
            profile user1, template -, link 1, posts [], errors - offline
            start profile
            start template
            start posts
            profile user2, template tpl2, link 2, posts [], errors - offline

            """)
        let migration = migrate(Self.services + Self.load, .async)
        XCTAssertTrue(migration.output.contains("async let"), migration.output)
        let output = try ProgramBuilding.buildAndRun([("Screen.swift", migration.output), ("main.swift", Self.main)], as: "async", in: root,
                                                     flags: ["-swift-version", "5"])
        XCTAssertEqual(output, original)
    }

    private func group(_ first: String, _ second: String) -> String {
        Self.services + """
            func load(_ id: Int) {
                var profile: Profile?
                var template: String?
                let group = DispatchGroup()
                group.enter()
                api.profile(id) { result in
        \(first)
                    group.leave()
                }
                group.enter()
                api.template(forID: id) { text, url in
        \(second)
                    group.leave()
                }
                group.notify(queue: .main) {
                    self.show("\\(profile?.name ?? "-") \\(template ?? "-")")
                }
            }
        }

        """
    }

    func testCallbacksWhoseOrderCouldShowAreLeftAlone() {
        // A call anything can see.
        let shows = group("            switch result {\n            case .success(let value):\n                profile = value\n                self.show(\"profile\")\n            case .failure: break\n            }",
                          "            template = text")
        XCTAssertEqual(callSiteFindings(migrate(shows, .async)), [
            "left alone: a callback of the group runs `self.show(\"profile\")`, which the order the callbacks run in could show",
        ])
        // Both change one variable: the last to complete wins.
        let shared = group("            switch result {\n            case .success(let value): template = value.name\n            case .failure: break\n            }", "            template = text")
        XCTAssertEqual(callSiteFindings(migrate(shared, .async)), [
            "left alone: two callbacks of the group use `template`, which one of them changes: the order they run in would show, "
            + "and the converted code awaits the calls in order",
        ])
        // A property of `self`: another object's code could read it in between.
        let property = group("            switch result {\n            case .success(let value): self.latest = value.name\n            case .failure: break\n            }", "            template = text")
            .replacingOccurrences(of: "func show(_ text: String)", with: "var latest = \"\"\n    func show(_ text: String)")
        XCTAssertEqual(callSiteFindings(migrate(property, .async)), [
            "left alone: a callback of the group changes `self.latest`, which the order the callbacks run in could show",
        ])
    }

    func testAnIfCaseOnTheResultIsReadAsASwitchWithNothingInTheOtherCase() {
        let source = group("            if case .success(let value) = result { profile = value }",
                           "            template = text")
        let migration = migrate(source, .async)
        XCTAssertEqual(callSiteFindings(migration).count, 1)
        XCTAssertTrue(callSiteFindings(migration)[0].hasPrefix("converted: converted 2 calls"), callSiteFindings(migration)[0])
        XCTAssertTrue(migration.output.contains("""
                        do {
                            let value = try await profileAnswer
                            profile = value
                        } catch {
                        }
                        do {
                            let (text, _) = await templateAnswer
                            template = text
                        }
        """), migration.output)
    }

    func testACallbackThatReadsTheResultItselfIsLeftAlone() {
        // The converted code binds the value or the error, never `result`.
        let switched = group("            switch result {\n            case .success: profile = try? result.get()\n            case .failure: break\n            }",
                             "            template = text")
        XCTAssertEqual(callSiteFindings(migrate(switched, .async)), [
            "left alone: a case of the switch reads `result` itself, which the converted code does not have",
        ])
        let tested = group("            if case .success = result { profile = try? result.get() }", "            template = text")
        XCTAssertEqual(callSiteFindings(migrate(tested, .async)), [
            "left alone: the callback does not consist of one `switch result`",
        ])
    }

    func testAGroupUsedElsewhereOrOneCallOfItIsNotASequence() {
        // One call: the group is used around one callback, which is not a fan-out of calls.
        let one = Self.services + """
            func load(_ id: Int) {
                var profile: Profile?
                let group = DispatchGroup()
                group.enter()
                api.profile(id) { result in
                    if case .success(let value) = result { profile = value }
                    group.leave()
                }
                group.notify(queue: .main) { self.show(profile?.name ?? "-") }
            }
        }

        """
        XCTAssertFalse(callSiteFindings(migrate(one, .async)).contains { $0.contains("async let") })
        let waited = group("            switch result {\n            case .success(let value): profile = value\n            case .failure: break\n            }", "            template = text")
            .replacingOccurrences(of: "        group.notify(queue: .main) {", with: "        group.wait()\n        group.notify(queue: .main) {")
        XCTAssertFalse(callSiteFindings(migrate(waited, .async)).contains { $0.contains("async let") }, callSiteFindings(migrate(waited, .async)).joined(separator: "\n"))
    }
}
