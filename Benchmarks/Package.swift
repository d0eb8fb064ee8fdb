// swift-tools-version:6.1
import PackageDescription

import class Foundation.ProcessInfo
import struct Foundation.URL

// The root package is named by its folder when depended on by path, and a clone may live in a
// folder of any name: derive it rather than hard-code "main".
let rootPackageIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .lastPathComponent
    .lowercased()

let package = Package(
    name: "VowBenchmarks",
    platforms: [
        .macOS(.v13),
    ],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "VowBenchmarks",
            dependencies: [
                .product(name: "Vow", package: rootPackageIdentity),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/VowBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        // A plain driver for counting instructions with callgrind (`ratios.py --instructions`).
        // It lives outside `Benchmarks/` so the benchmark plugin does not take it for a suite.
        .executableTarget(
            name: "VowInstructionCounts",
            dependencies: [
                .product(name: "Vow", package: rootPackageIdentity),
            ],
            path: "Sources/VowInstructionCounts"
        ),
    ],
    swiftLanguageModes: [.v6]
)
