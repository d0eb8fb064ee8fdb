import Foundation
import XCTest

/// A synchronous function whose callback becomes a `Task` makes its call only when the task runs,
/// after its caller's next statements: a caller reading the callback's effects right after the
/// call (a view model's test with a synchronous stub, `model.refresh(); print(model.items)`)
/// would see them missing. The index finds such callers, directly or through functions that end
/// with the call, and the call site is left alone, naming the caller.
final class CallerOrderTests: XCTestCase {
    private static let viewModel = """
        import Foundation

        protocol ItemService {
            func fetchItems(completion: @escaping (Result<[String], Error>) -> Void)
        }

        /// Answers before it returns, as test stubs and caches do.
        final class StubService: ItemService {
            var fetchCount = 0
            func fetchItems(completion: @escaping (Result<[String], Error>) -> Void) {
                fetchCount += 1
                completion(.success(["a", "b"]))
            }
        }

        final class ItemsViewModel {
            private let service: ItemService
            private(set) var items: [String] = []

            init(service: ItemService) {
                self.service = service
            }

            func refresh() {
                service.fetchItems { [weak self] result in
                    if case .success(let items) = result {
                        self?.items = items
                    }
                }
            }

            /// Ends with the call: its callers' code after it counts too.
            func reload() {
                refresh()
            }
        }
        """

    private static let driver = """
        let service = StubService()
        let model = ItemsViewModel(service: service)
        model.reload()
        print("fetched \\(service.fetchCount), items \\(model.items)")
        """

    func testACallerReadingTheCallbacksEffectsKeepsTheCallSite() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let tree = root.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try Self.viewModel.write(to: tree.appendingPathComponent("ItemsViewModel.swift"), atomically: true, encoding: .utf8)
        try Self.driver.write(to: tree.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)

        func run(_ name: String) throws -> String {
            let sources = ["ItemsViewModel.swift", "main.swift"].map { tree.appendingPathComponent($0) }
            let binary = root.appendingPathComponent(name)
            let built = try ProgramBuilding.compile(sources, flags: ["-swift-version", "5"], binary: binary)
            XCTAssertEqual(built.status, 0, built.standardError)
            return try TestSupport.run(binary, []).standardOutput
        }
        XCTAssertEqual(try run("original"), "fetched 1, items [\"a\", \"b\"]\n")

        let migration = try TestSupport.migrate([tree.path, "--to", "async", "--stage", "all", "--swift-version", "5", "--in-place"])
        XCTAssertEqual(migration.status, 0, migration.standardError)
        XCTAssertTrue(migration.standardError.contains(
            "ItemsViewModel.swift:25:9: call site left alone in `refresh()`: `refresh()` (through `reload()`) is called at main.swift:3 with code "
            + "after it, which would run before the callback's code in a new `Task` here (the callee may answer before it returns); "
            + "`--to promise` keeps the order"),
                      migration.standardError)
        XCTAssertTrue(migration.standardError.contains("0 call sites converted, 1 left alone"), migration.standardError)
        XCTAssertEqual(try run("async"), "fetched 1, items [\"a\", \"b\"]\n")
    }

    func testAFunctionNoCodeRunsAfterConverts() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let tree = root.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try Self.viewModel.write(to: tree.appendingPathComponent("ItemsViewModel.swift"), atomically: true, encoding: .utf8)
        // Called last by its caller, which ends its own caller's code: no code runs after it.
        try """
            final class Screen {
                let model = ItemsViewModel(service: StubService())

                func viewDidAppear() {
                    print("appearing")
                    model.reload()
                }
            }
            """.write(to: tree.appendingPathComponent("Screen.swift"), atomically: true, encoding: .utf8)
        let migration = try TestSupport.migrate([tree.path, "--to", "async", "--stage", "all", "--swift-version", "5"])
        XCTAssertEqual(migration.status, 0, migration.standardError)
        XCTAssertTrue(migration.standardError.contains("1 call site converted, 0 left alone"), migration.standardError)
    }
}
