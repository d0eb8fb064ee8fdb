// swift-tools-version:6.0
import PackageDescription

// A package still in Swift 5 mode, with one target moved to Swift 6: vow-migrate reads each
// file's mode from here (the same source is in both targets).
let package = Package(
    name: "Catalog",
    targets: [
        .target(name: "Legacy"),
        .target(name: "Modern", swiftSettings: [.swiftLanguageMode(.v6)]),
    ],
    swiftLanguageModes: [.v5]
)
