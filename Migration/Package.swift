// swift-tools-version:6.0
import PackageDescription

// vow-migrate: a SwiftSyntax rewriter that adds promise and async alternatives to callback code.
// `VowMigrate` does the rewriting (pure: text in, text and findings out); `vow-migrate` is the CLI
// (file discovery, concurrency, atomic writes, diffs, reports). The tests depend on the root Vow
// package by path so that every expected fixture output is typechecked against the real module.
let package = Package(
    name: "VowMigrate",
    platforms: [
        .macOS(.v13),
    ],
    products: [
        .library(name: "VowMigrate", targets: ["VowMigrate"]),
        .executable(name: "vow-migrate", targets: ["vow-migrate"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax.git", exact: "603.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        // The root package, so the tests can typecheck expected outputs against the real Vow.
        .package(name: "Vow", path: ".."),
    ],
    targets: [
        .target(
            name: "VowMigrate",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "VowMigrateDriver",
            dependencies: ["VowMigrate"]
        ),
        .executableTarget(
            name: "vow-migrate",
            dependencies: [
                "VowMigrate",
                "VowMigrateDriver",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A development tool: writes a synthetic callback-style tree for the throughput figure.
        .executableTarget(
            name: "generate-callback-tree",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "VowMigrateTests",
            dependencies: ["VowMigrate", "VowMigrateDriver", "vow-migrate", .product(name: "Vow", package: "Vow")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
