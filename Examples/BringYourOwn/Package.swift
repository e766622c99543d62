// swift-tools-version: 6.1
import PackageDescription

/// A package that brings its own patterns to DispatchBench: the first user of the library, built in CI.
/// It depends on DispatchBench by path, as a package in the repository; yours names its URL and a version.
let package = Package(
    name: "BringYourOwn",
    dependencies: [
        .package(name: "DispatchBench", path: "../.."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
    ],
    targets: [
        .executableTarget(
            name: "MyBench",
            dependencies: [
                .product(name: "DispatchBench", package: "DispatchBench"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Atomics", package: "swift-atomics"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
