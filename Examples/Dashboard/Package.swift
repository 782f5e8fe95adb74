// swift-tools-version:6.0
// The dashboard of docs/GUIDE.md: an app of its own that depends on Trellis, as a
// user's package does. Here by path; from elsewhere, by its git URL.
import PackageDescription

let package = Package(
    name: "Dashboard",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Trellis", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "Dashboard",
            dependencies: [.product(name: "TrellisApp", package: "Trellis")]
        ),
        // Drives the running dashboard as a person would, through the session's
        // control endpoint (docs/SCENES.md, "Test clients").
        .testTarget(
            name: "DashboardTests",
            dependencies: [.product(name: "TrellisClient", package: "Trellis")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
