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
        // SwiftNIO's EventLoopFuture is the side-by-side reference for the same workloads.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
    ],
    targets: [
        // `heapBytes(of:)`, shared by the suite's memory row and the instruction-count driver.
        .target(name: "HeapSize", path: "Sources/HeapSize"),
        .executableTarget(
            name: "VowBenchmarks",
            dependencies: [
                "HeapSize",
                .product(name: "Vow", package: rootPackageIdentity),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
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
                "HeapSize",
                .product(name: "Vow", package: rootPackageIdentity),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Sources/VowInstructionCounts"
        ),
    ],
    swiftLanguageModes: [.v6]
)
