// swift-tools-version:5.9
import PackageDescription

// CloudKitchenSDK: the client SDK for a restaurant-kitchen platform (kitchens, menus, orders,
// photo uploads, offline sync). Callback-style public API, Swift 5 language mode, Foundation only.
let package = Package(
    name: "CloudKitchenSDK",
    platforms: [
        .macOS(.v10_15),
        .iOS(.v13),
    ],
    products: [
        .library(name: "CloudKitchenSDK", targets: ["CloudKitchenSDK"]),
    ],
    targets: [
        .target(
            name: "CloudKitchenSDK"
        ),
        .testTarget(
            name: "CloudKitchenSDKTests",
            dependencies: ["CloudKitchenSDK"]
        ),
    ]
)
