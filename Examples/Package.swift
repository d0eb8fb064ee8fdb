// swift-tools-version:6.0
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

// Each example is a library holding everything it does, plus a thin executable that runs it and
// prints what happens. The tests drive the same libraries, so what a reader runs is what CI checks.
let package = Package(
    name: "VowExamples",
    platforms: [
        // `Duration` and `ContinuousClock`, used to simulate latency and time requests.
        .macOS(.v13),
        .iOS(.v16),
        .tvOS(.v16),
        .watchOS(.v9),
    ],
    dependencies: [
        // Nothing else: the examples build in seconds and teach only Vow.
        .package(path: ".."),
    ],
    targets: [
        .target(name: "ExampleSupport"),
        .target(name: "GradualMigrationKit", dependencies: [vow, "ExampleSupport"]),
        .executableTarget(name: "GradualMigration", dependencies: ["GradualMigrationKit", "ExampleSupport"]),
        .target(name: "MixedServiceKit", dependencies: [vow, "ExampleSupport"]),
        .executableTarget(name: "MixedService", dependencies: ["MixedServiceKit", "ExampleSupport"]),
        .testTarget(
            name: "ExamplesTests",
            dependencies: [vow, "ExampleSupport", "GradualMigrationKit", "MixedServiceKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
