// swift-tools-version:6.1
import PackageDescription

import struct Foundation.URL

// SwiftPM names a package depended on by path after its folder, and a clone of Vow may live in a
// folder of any name ("main", "Vow", "vow-fork"): derive the root's identity from where this
// manifest sits instead of hard-coding it.
let rootPackageIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .lastPathComponent
    .lowercased()

let vow = Target.Dependency.product(name: "Vow", package: rootPackageIdentity)
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")

// Each example is a library holding everything it does, plus a thin executable that runs it and
// prints what happens. The tests drive the same libraries, so what a reader runs is what CI checks.
let package = Package(
    name: "VowExamples",
    platforms: [
        // Hummingbird 2 needs macOS 14 / iOS 17 / tvOS 17; the examples run on Linux first.
        .macOS(.v14),
        .iOS(.v17),
        .tvOS(.v17),
    ],
    dependencies: [
        .package(path: ".."),
        // MixedService is a real HTTP server. No default traits: it needs neither
        // swift-configuration nor full Foundation, and skipping them shortens the first build.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1", traits: []),
        // For the tests: their HTTP client (plain HTTP/1.1 over loopback, able to hang up
        // mid-request), and a graceful stop of the service after each test. Both already come
        // with Hummingbird; the tests name them to import them.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
    ],
    targets: [
        .target(name: "ExampleSupport"),
        .target(name: "GradualMigrationKit", dependencies: [vow, "ExampleSupport"]),
        .executableTarget(name: "GradualMigration", dependencies: ["GradualMigrationKit", "ExampleSupport"]),
        .target(name: "MixedServiceKit", dependencies: [vow, hummingbird]),
        .executableTarget(name: "MixedService", dependencies: ["MixedServiceKit"]),
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                vow, hummingbird, "ExampleSupport", "GradualMigrationKit", "MixedServiceKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
