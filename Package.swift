// swift-tools-version:6.0
import PackageDescription

// The root package stays dependency-free: the engine, cancellation and the bridges to Swift
// Concurrency need nothing beyond the standard library, Dispatch and Foundation.
let package = Package(
    name: "Vow",
    platforms: [
        .macOS(.v10_15),
        .iOS(.v13),
        .tvOS(.v13),
        .watchOS(.v6),
    ],
    products: [
        .library(name: "Vow", targets: ["Vow"]),
    ],
    targets: [
        .target(
            name: "Vow",
            path: "Sources/Vow"
        ),
        .testTarget(
            name: "VowTests",
            dependencies: ["Vow"],
            path: "Tests/VowTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
